/** What the watch poller is handed: where it lists, who it asks, and what draws its alerts. A leaf. */

import type { Armada, ArmadaSet, Location, Site } from '../api-shapes/armada-resources.js';
import type { ArmadaServerStates } from '../api-shapes/armada-server-states.js';
import type { Formation, Region, Vessel } from '../api-shapes/resources.js';
import type { WatchAlert, WatchSubscription } from '../store/watch-types.js';
import type { ReadSubject } from './observe.js';

/**
 * The list reads a poll makes: one per kind per environment, and the
 * Regions, Locations and Sites when a fleet is Degraded (once per poll).
 */
export interface WatchSource {
  listArmadas(env: string): Promise<Armada[]>;
  listArmadaSets(env: string): Promise<ArmadaSet[]>;
  listFormations(env: string): Promise<Formation[]>;
  listVessels(env: string): Promise<Vessel[]>;
  /** Read with the Sites, only while a fleet is Degraded: which Locations each region uses. */
  listRegions(env: string): Promise<Region[]>;
  /** Which Sites make up each Location (`spec.sites`). */
  listLocations(): Promise<Location[]>;
  /** The Sites and their states. */
  listSites(): Promise<Site[]>;
  /**
   * Game servers per Armada by state (ArmadaGameServerStates, shape inferred); a 403/404
   * is "not readable" and the rules that need counts then judge from the status alone.
   */
  listArmadaServerStates?(env: string): Promise<ArmadaServerStates[]>;
}

/** Posts and edits alert messages; the one owner of them (drawn in slack/). */
export interface AlertMessenger {
  /**
   * Posts the open alert once Slack's budget has a slot for it, if `claim`
   * (asked after the wait, right before the call) says this replica may
   * still post it; returns the message ts, or undefined when it did not post.
   */
  post(alert: WatchAlert, claim: () => Promise<boolean>): Promise<string | undefined>;
  /** Redraws the alert's message (it recovered, or the fleets behind its cause changed). */
  update(alert: WatchAlert & { messageTs: string }): Promise<void>;
}

/** Whether a subscribed channel may read this object under its policy (a channel sees only what it may read). */
export type ChannelMayRead = (sub: WatchSubscription, subject: ReadSubject) => Promise<boolean>;
