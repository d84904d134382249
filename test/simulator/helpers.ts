/** Shared helpers for the simulator tests: start one on a ManualClock, speak raw HTTP to it. */
import { expect } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';
import type { StatusCause } from '../../src/simulator/http-utils/status.js';
import { internalImageName } from '../../src/simulator/image-names.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/simulator/index.js';

export interface TestSim {
  sim: Simulator;
  clock: ManualClock;
}

/** A simulator on a free port and a ManualClock; no generated log lines unless asked. */
export async function startTestSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const clock = new ManualClock();
  const sim = await startSimulator({ port: 0, clock, logLinesPerSecond: 0, ...options });
  return { sim, clock };
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Bearer token; null sends no Authorization header. Default: the demo token. */
  token?: string | null;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A raw HTTP call to the simulator (JSON body unless a string is given). */
export function call(sim: Simulator, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = options.token === undefined ? sim.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  return fetch(`${sim.url}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** A failure Status body, as src/simulator/http-utils/status.ts builds it. */
export interface StatusBody {
  kind: 'Status';
  status: 'Failure';
  message: string;
  reason: string;
  code: number;
  details?: Record<string, unknown>;
}

/** A 422 Invalid Status: its details name every offending field. */
export interface InvalidBody extends StatusBody {
  details: { name?: string; kind: string; causes: StatusCause[] };
}

/** A `{ items: [...] }` list body. */
export interface List<T> {
  items: T[];
}

/** Calls and parses JSON, asserting the status; `T` is what the test reads of the body. */
export async function callJson<T = unknown>(
  sim: Simulator,
  path: string,
  status: number,
  options: CallOptions = {},
): Promise<T> {
  const res = await call(sim, path, options);
  const text = await res.text();
  expect({ status: res.status, body: text }).toEqual({ status, body: expect.any(String) });
  return JSON.parse(text) as T;
}

/** A JSON Patch call on a path. */
export function patch(
  sim: Simulator,
  path: string,
  ops: unknown,
  contentType = 'application/json-patch+json',
) {
  return call(sim, path, { method: 'PATCH', body: ops, contentType });
}

/** Reads a text body stream line by line. */
export class LineReader {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error('no response body');
    this.reader = body.getReader();
  }

  /** The next `n` complete lines (throws if the stream ends first). */
  async lines(n: number): Promise<string[]> {
    const out: string[] = [];
    while (out.length < n) {
      const nl = this.buffer.indexOf('\n');
      if (nl >= 0) {
        out.push(this.buffer.slice(0, nl));
        this.buffer = this.buffer.slice(nl + 1);
        continue;
      }
      const { value, done } = await this.reader.read();
      if (done) throw new Error(`stream ended after ${out.length} of ${n} lines`);
      this.buffer += this.decoder.decode(value, { stream: true });
    }
    return out;
  }

  /** Reads until the stream ends; resolves with what was left (rejects if the connection broke). */
  async rest(): Promise<string> {
    for (;;) {
      const { value, done } = await this.reader.read();
      if (done) return this.buffer;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

export const img = internalImageName;

/** The seed's Vessel create payload (apiVersion formation/v1beta1), in environment dev. */
export function vesselPayload(name: string, extra: { region?: string; env?: string } = {}) {
  const env = extra.env ?? 'dev';
  return {
    apiVersion: 'formation/v1beta1',
    kind: 'Vessel',
    metadata: { name, environment: env },
    spec: {
      description: 'a test game server',
      region: extra.region ?? 'eu-central',
      template: {
        spec: {
          containers: [
            {
              name: 'game-server',
              branch: env,
              image: img(env, 'game-server', '1.0.0'),
              ports: [{ name: 'game', policy: 'Passthrough', containerPort: 7777, protocol: 'UDP' }],
              args: ['--mode', 'test'],
              resources: { requests: { cpu: '250m', memory: '512Mi' } },
            },
          ],
        },
      },
    },
  };
}

export const VESSELS = '/api/formation/v1/environments/dev/vessels';
export const FORMATIONS = '/api/formation/v1/environments/dev/formations';
export const REGIONS = '/api/core/v1/environments/dev/regions';
export const IMAGES = '/api/container/v1/images/scopes';
export const PROMOTIONS = '/api/container/v1/imagepromotions/scopes';
