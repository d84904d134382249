/**
 * What deleting a Vessel does to its game server, as GameFabric documents it
 * (GameFabric/docs getting-started/terminating-game-servers.md, "Vessels"):
 * an allocated one gets the shutdown annotations, a reason and a deadline set
 * by the notice configured per reason, and is shut down by then unless it
 * exits or leaves Allocated first; an unallocated one is shut down at once
 * (its termination grace period). Players are not simply "disconnected".
 */

/** The preview words for deleting vessel `name` (standalone or by its Formation). */
export function vesselShutdownText(name: string): string {
  return `Vessel ${name}, if allocated, gets a shutdown hint with a deadline (the notice set under Settings → Advanced → Shutdown Notification) and is stopped by then at the latest, with any players still on it; if not allocated, it stops at once.`;
}

/** The same, when the Formation controller does the deleting. */
export function formationVesselShutdownText(name: string): string {
  return `The formation controller deletes vessel ${name}. ${vesselShutdownText(name)}`;
}
