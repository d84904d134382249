/** The one action listener's routing table: by action id, nothing for ids no route claims. */
import { describe, expect, it } from '@jest/globals';
import { type ClickArgs, routeAction } from '../../../src/slack/routes/action-routes.js';

const click = (actionId: string) => ({ action: { action_id: actionId } }) as unknown as ClickArgs;

describe('routeAction', () => {
  const routes = {
    'change.confirm': () => ({ ack: { routed: 'confirm' } }),
    'tail.stop': () => ({ ack: { routed: 'stop' } }),
  };

  it('runs the route of the clicked action id', () => {
    expect(routeAction(routes, click('tail.stop'))).toEqual({ ack: { routed: 'stop' } });
    expect(routeAction(routes, click('change.confirm'))).toEqual({ ack: { routed: 'confirm' } });
  });

  it('routes an unknown action id, or an inherited property name, to nothing (acked, no job)', () => {
    expect(routeAction(routes, click('someone.else'))).toEqual({});
    expect(routeAction(routes, click('constructor'))).toEqual({});
    expect(routeAction(routes, click('__proto__'))).toEqual({});
  });
});
