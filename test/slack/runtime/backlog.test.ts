import { expect, it } from '@jest/globals';
import { Backlog } from '../../../src/slack/runtime/backlog.js';

it('takes places up to its limit, refuses past it, and a place given back twice counts once', () => {
  const backlog = new Backlog(2);
  const first = backlog.take();
  const second = backlog.take();
  expect(first).toBeDefined();
  expect(second).toBeDefined();
  expect(backlog.take()).toBeUndefined();
  first?.();
  first?.();
  expect(backlog.size).toBe(1);
  expect(backlog.take()).toBeDefined();
  expect(backlog.take()).toBeUndefined();
});

it('refuses a limit that is not a positive integer', () => {
  expect(() => new Backlog(0)).toThrow(RangeError);
});
