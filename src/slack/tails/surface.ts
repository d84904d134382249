/**
 * Tails as Slack shows them: the parent and live messages a tail starts
 * with, the takeover notice, and the TailRunner that draws the lines, all
 * paced by the workspace's message budget. The service in src/tails decides
 * when; this decides what Slack sees.
 */
import { type Clock, systemClock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import { budgetedCall } from '../../tails/messenger.js';
import { TailRunner } from '../../tails/runner.js';
import {
  createTailService as createReplicaTailService,
  type ReplicaTailService,
} from '../../tails/service.js';
import type { TailServiceOptions, TailSurface } from '../../tails/service-options.js';
import type { TailLogSource } from '../../tails/tail-stream.js';
import {
  renderLiveTail,
  renderStoppedTailParent,
  renderTailParent,
  renderTakeover,
} from '../render/tail-message.js';
import { slackTailDrawing } from './drawing.js';
import type { TailSlack } from './slack-calls.js';

interface SlackTailOptions {
  /** The hosting API (log streams and Vessel lookups). */
  source: TailLogSource;
  /** Tails' own Slack client (see webApiTailSlack). */
  slack: TailSlack;
  /** This replica's id (named in takeover notices and markers). */
  replicaId: string;
  clock: Clock;
  logger: Logger;
  /** Jitter for reconnect and retry backoff (default Math.random). */
  random?: () => number;
}

/** The Slack surface of tails. */
function slackTailSurface(o: SlackTailOptions): TailSurface {
  const subjectOf = (r: { env: string; vessel: string; container?: string }) => ({
    env: r.env,
    vessel: r.vessel,
    ...(r.container ? { container: r.container } : {}),
  });
  return {
    open: async (id, input, budget) => {
      const subject = subjectOf(input);
      const post = (threadTs: string | undefined, message: Parameters<TailSlack['post']>[2]) =>
        budgetedCall(budget, { write: 'post', channel: input.channel, consumer: id }, () =>
          o.slack.post(input.channel, threadTs, message),
        );
      // A tail started outside a thread posts its own parent, which it redraws when it stops.
      const parentTs = input.threadTs
        ? undefined
        : await post(undefined, renderTailParent(subject, input.user));
      const threadTs = input.threadTs ?? (parentTs as string);
      const messageTs = await post(
        threadTs,
        renderLiveTail({ tailId: id, ...subject, lines: [], seen: 0, neverShown: 0 }),
      );
      return { threadTs, messageTs, ...(parentTs ? { parentTs } : {}) };
    },
    closeParent: async (record, parentTs, reason, at) => {
      await o.slack.update(
        record.channel,
        parentTs,
        renderStoppedTailParent(subjectOf(record), record.startedBy, reason, at),
      );
    },
    announceTakeover: async (record, budget) => {
      await budgetedCall(
        budget,
        { write: 'post', channel: record.channel, consumer: `${record.id}:notice` },
        () => o.slack.post(record.channel, record.threadTs, renderTakeover(subjectOf(record), o.replicaId)),
      );
    },
    worker: ({ record, progress, takenOverBy, budget, limits, hooks }) =>
      new TailRunner({
        target: {
          id: record.id,
          channel: record.channel,
          ...(record.threadTs ? { threadTs: record.threadTs } : {}),
          ...subjectOf(record),
          startedAt: record.startedAt,
        },
        replicaId: o.replicaId,
        progress,
        ...(takenOverBy ? { takenOverBy } : {}),
        source: o.source,
        messenger: o.slack,
        drawing: slackTailDrawing,
        budget,
        clock: o.clock,
        logger: o.logger,
        limits,
        ...(o.random ? { random: o.random } : {}),
        ...hooks,
      }),
  };
}

/** What the Slack bot's tail service is built from: the service's options, with Slack as the surface. */
export type SlackTailServiceOptions = Omit<TailServiceOptions, 'surface'> &
  Pick<SlackTailOptions, 'source' | 'slack' | 'random'>;

/** Builds the tail service of this replica showing tails in Slack (nothing runs until start() or startScanning()). */
export function createTailService(options: SlackTailServiceOptions): ReplicaTailService {
  const { source, slack, random, ...rest } = options;
  const surface = slackTailSurface({
    source,
    slack,
    replicaId: options.replicaId,
    clock: options.clock ?? systemClock,
    logger: options.logger.child({ component: 'tails' }),
    ...(random ? { random } : {}),
  });
  return createReplicaTailService({ ...rest, surface });
}
