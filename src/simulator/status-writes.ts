/**
 * A status write by the platform's controller, as a fault rule asks for it
 * (`writeStatusFirst`): the object's `metadata.revision` moves and its spec
 * stays. The simulator computes status on read, so nothing else changes; what
 * a test sees is the revision a client read going stale without a spec change.
 */
import type { SimStore } from './store.js';

const FLEET_PATH = /^\/api\/armada\/v1\/environments\/([^/]+)\/(armadas|armadasets)\/([^/]+)$/;

/** Moves the revision of the Armada or ArmadaSet at `path`; other paths and unknown objects are left alone. */
export function writeStatus(store: SimStore, path: string): void {
  const m = FLEET_PATH.exec(path);
  if (!m) return;
  const env = store.environments.get(decodeURIComponent(m[1] ?? ''));
  const name = decodeURIComponent(m[3] ?? '');
  const fleet = m[2] === 'armadas' ? env?.armadas.get(name)?.armada : env?.armadaSets.get(name);
  if (fleet) fleet.metadata.revision = store.nextRevision();
}
