/** Shared fixtures for the GameFabric client tests: a base URL, a recording clock, resource builders. */
import { afterAll, afterEach, beforeAll } from '@jest/globals';
import nock from 'nock';
import type { Formation, FormationVessel, Region, Vessel } from '../../src/api-shapes/resources.js';
import {
  createGameFabricClient,
  type GameFabricClient,
  type GameFabricClientOptions,
} from '../../src/gamefabric/client.js';
import type { Clock } from '../../src/runtime/clock.js';

export const BASE = 'http://gamefabric.test';
export const TOKEN = 'static-token-0123456789';

/**
 * Registers the nock hooks of a test file: no real network, a clean slate after
 * each test, and the http module given back at the end (jest may run several
 * files in one process, each with its own nock instance).
 */
export function useNock(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    nock.abortPendingRequests();
    nock.cleanAll();
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
}

/** A clock whose sleeps resolve at once and are recorded, so retry waits can be asserted without waiting. */
export function recordingClock(start = Date.UTC(2026, 0, 1)): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  let now = start;
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** A client on BASE with a static token, an instant recording clock and jitter pinned to the top of its range. */
export function testClient(overrides: Partial<GameFabricClientOptions> = {}): {
  client: GameFabricClient;
  clock: Clock & { sleeps: number[] };
} {
  const clock = recordingClock();
  const client = createGameFabricClient({
    baseUrl: BASE,
    auth: { token: TOKEN },
    clock,
    random: () => 1,
    ...overrides,
  });
  return { client, clock };
}

/** A nock scope on BASE that only matches requests carrying the static token. */
export function api(): nock.Scope {
  return nock(BASE, { reqheaders: { authorization: `Bearer ${TOKEN}` } });
}

/** A Kubernetes Status error body. */
export function status(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message };
}

/** A running Vessel as the service would answer it. */
export function vessel(name: string, env = 'dev'): Vessel {
  return {
    apiVersion: 'formation/v1',
    kind: 'Vessel',
    metadata: { name, environment: env },
    spec: {
      region: 'eu',
      template: { spec: { containers: [{ name: 'game', branch: 'dev', image: 'img-1a2b' }] } },
    },
    status: { state: 'Running' },
  };
}

/** A FormationVessel entry. */
export function member(name: string): FormationVessel {
  return { name, region: 'eu' };
}

/** A Formation listing the given member names. */
export function formation(name: string, members: string[], env = 'dev'): Formation {
  return {
    apiVersion: 'formation/v1',
    kind: 'Formation',
    metadata: { name, environment: env },
    spec: { vessels: members.map(member) },
  };
}

/** A Region with the given types (scheduling unset unless given). */
export function region(name: string, types: Region['spec']['types'], env = 'dev'): Region {
  return { apiVersion: 'core/v1', kind: 'Region', metadata: { name, environment: env }, spec: { types } };
}

/** A request body nock must match exactly; the cast only bridges nock's matcher type and zod's `unknown` fields. */
export function exactly(value: unknown): nock.RequestBodyMatcher {
  return value as nock.RequestBodyMatcher;
}
