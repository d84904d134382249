/**
 * What a request's ack says, decided from its body alone, before Bolt's
 * chain (runtime/first-ack.ts sends it; both receivers use it): past the
 * backlog's bound "busy" (busy.ts), nothing kept; otherwise a bare ack for
 * commands, clicks, shortcuts and events, and for a view submission what its
 * route answers (field errors checked without any API call, `clear` or
 * `update`). Type-ahead options are left to their listener: their answer is
 * the ack and needs a read (listen.ts sheds them at the same bound), so no
 * decision here could carry it.
 *
 * The listener path (listen.ts) finds the decision in Bolt's context: it
 * takes over the backlog's place, uses the submission's route as it was run
 * here, and its own ack only checks that it would have said the same.
 */
import type { SlackViewAction, ViewOutput } from '@slack/bolt';
import type { Logger } from '../../runtime/logger.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Routed } from '../routes/work.js';
import type { Backlog } from '../runtime/backlog.js';
import type { AckFirst, FirstAck } from '../runtime/first-ack.js';
import { busyAck } from './busy.js';

/** Which kind of request, as the ack and the shed counter name it. */
export type Kind = 'command' | 'click' | 'submit' | 'event';

/** Where Bolt's context carries the decision (a custom property). */
export const ACKED_FIRST = 'harborAckedFirst';

/** The decision, as the listener path reads it. */
export interface AckedFirst {
  kind: Kind;
  /** Past the backlog's bound: the ack said "busy" (a click hears it by a note); nothing is routed or kept. */
  shed: boolean;
  /** The backlog's place, taken over by the one listener that handles the request. */
  claim(): (() => void) | undefined;
  /** A submission's route, run for its ack: the listener uses it rather than routing again. */
  routed?: Routed;
}

/** What the one view listener's route reads. */
export interface SubmitArgs {
  body: SlackViewAction;
  view: ViewOutput;
}

/** The request's kind from Bolt's body; undefined: left to Bolt and its listener (type-ahead, the unknown). */
function kindOf(body: Record<string, unknown>): Kind | undefined {
  if (typeof body.command === 'string') return 'command';
  switch (body.type) {
    case 'block_actions':
    case 'message_action':
    case 'shortcut':
    case 'view_closed':
      return 'click';
    case 'view_submission':
      return 'submit';
    case 'event_callback':
      return 'event';
    default:
      return undefined;
  }
}

/** A bare ack is one, however it is written (no body, `{}`). */
function sameAck(a: unknown, b: unknown): boolean {
  const bare = (v: unknown) =>
    v === undefined || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
  if (bare(a) || bare(b)) return bare(a) && bare(b);
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** What an ack said, for the log (not its content: a view carries what people typed). */
function gist(body: unknown): string {
  if (body === undefined || body === null) return 'bare';
  const action = (body as { response_action?: unknown }).response_action;
  return typeof action === 'string' ? action : Object.keys(body).join(',') || 'bare';
}

/** Decides acks before the chain; holds the backlog that bounds the work behind them. */
export class AckFront {
  private submissions: ((args: SubmitArgs) => Routed) | undefined;

  constructor(
    readonly backlog: Backlog,
    private readonly ctx: { metrics: Pick<Metrics, 'ackSeconds' | 'shed' | 'errors'>; logger: Logger },
  ) {}

  /** The one view listener's route, run here so a submission's answer rides on its ack. */
  routeSubmissions(route: (args: SubmitArgs) => Routed): void {
    this.submissions = route;
  }

  readonly decide: AckFirst = (body) => {
    const kind = kindOf(body);
    if (!kind) return undefined;
    const { metrics, logger } = this.ctx;
    const stopAck = kind === 'event' ? undefined : metrics.ackSeconds.startTimer({ kind });
    const place = this.backlog.take();
    let ack: object | undefined;
    let routed: Routed | undefined;
    if (!place) {
      metrics.shed.inc({ kind });
      if (kind !== 'event') ack = busyAck(kind, kind === 'submit' ? (body.view as ViewOutput) : undefined);
    } else if (kind === 'submit') {
      routed = this.routeSubmission(body);
      ack = routed.ack;
    }
    let claimed = false;
    const decided: AckedFirst = {
      kind,
      shed: !place,
      claim: () => {
        if (claimed || !place) return undefined;
        claimed = true;
        return place;
      },
      ...(routed ? { routed } : {}),
    };
    const first: FirstAck = {
      body: ack,
      properties: { [ACKED_FIRST]: decided },
      sent: () => stopAck?.(),
      again: (asked) => {
        if (sameAck(asked, ack)) return;
        metrics.errors.inc({ where: 'ack' });
        logger.error('a listener acked differently from the ack sent before the chain', {
          kind,
          sent: gist(ack),
          asked: gist(asked),
        });
      },
      done: () => {
        if (!claimed) place?.();
      },
    };
    return first;
  };

  /** The submission's route; a fault there acks bare (the modal closes) and is logged and counted. */
  private routeSubmission(body: Record<string, unknown>): Routed {
    if (!this.submissions) return {};
    try {
      return this.submissions({
        body: body as unknown as SlackViewAction,
        view: body.view as ViewOutput,
      });
    } catch (error) {
      this.ctx.metrics.errors.inc({ where: 'submit' });
      this.ctx.logger.error('routing a submission failed', { error });
      return {};
    }
  }
}
