/**
 * Wraps the API client so every call an apply makes lands in the audit log:
 * which method, with what arguments, and how the API answered. Arguments are
 * request payloads (never credentials: those live inside the client).
 */
import type { GameFabricClient } from '../gamefabric/client.js';
import { ApiError } from '../gamefabric/errors.js';
import type { AuditEntry } from '../store/types.js';

type AuditSink = (entry: Omit<AuditEntry, 'at' | 'actor' | 'action'>) => Promise<void>;

/** A client whose every method call is recorded through `sink` (after it settles). */
export function auditedClient(client: GameFabricClient, sink: AuditSink): GameFabricClient {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'streamVesselLogs') return value;
      return async (...args: unknown[]) => {
        try {
          const out = await value.apply(target, args);
          await sink({ params: { method: String(prop), args }, outcome: 'ok' });
          return out;
        } catch (err) {
          const outcome =
            err instanceof ApiError
              ? `error ${err.status} ${err.reason ?? ''}`.trim()
              : `error ${(err as Error).name}`;
          await sink({
            params: { method: String(prop), args },
            outcome,
            detail: { message: (err as Error).message },
          });
          throw err;
        }
      };
    },
  });
}
