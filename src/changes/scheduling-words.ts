/**
 * The one explanation of Region Type scheduling, taken from the API
 * reference (seed: "Scheduling strategy values"), so the preview, the help
 * and the forms say the same accurate thing.
 */
import type { SchedulingStrategy } from '../api-shapes/resources.js';

/** What each strategy does, and what it is for. */
export const SCHEDULING_EFFECT: Record<SchedulingStrategy, string> = {
  Packed:
    'game servers gravitate toward shared nodes by pod affinity (for cloud or dynamic clusters; reduces infrastructure cost)',
  Distributed:
    'game servers spread across nodes based on available resources (for static or on-premises clusters; improves fault tolerance)',
};

/** When a change of strategy takes effect. */
export const SCHEDULING_TAKES_EFFECT =
  'A scheduling change affects only game servers started after it; running game servers keep their earlier scheduling until restarted.';

/** Both strategies in one paragraph (for choosing one). */
export const SCHEDULING_STRATEGIES_EXPLAINED = `Packed: ${SCHEDULING_EFFECT.Packed}. Distributed: ${SCHEDULING_EFFECT.Distributed}.`;

/** The whole explanation: both strategies, then when a change applies. */
export const SCHEDULING_EXPLAINED = `${SCHEDULING_STRATEGIES_EXPLAINED} ${SCHEDULING_TAKES_EFFECT}`;
