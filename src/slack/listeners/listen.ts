/**
 * The one listener path, as small filters composed per surface (hono's
 * `compose`, bolt-js's middleware). A listener only routes: from the payload
 * it says what Slack's ack carries (view submissions) and the work behind the
 * ack (routes/work.ts). The ack itself was decided and sent before Bolt's
 * chain ran (ack-first.ts, by both receivers): shed past the backlog's bound
 * ("busy", nothing of the payload kept) or the route's answer. In front of
 * every route the path takes that decision over: a shed request ends there
 * (a click still hears "busy" by a note), otherwise the backlog's place and a
 * submission's route as it was run for the ack; the listener's own ack only
 * checks it would have said the same. Then the work goes to a tracked task
 * that starts only after the ack is written. The work's own chain: time it,
 * count it (labels as data), tell the acting user about any error, then the
 * route's filters, whose slow part waits for a bounded slot. Type-ahead
 * options are shed at the same bound (no options at once) and otherwise
 * answer in the ack, holding their place in the backlog while they read;
 * Home events are shed silently (no ack to send) and otherwise go straight
 * behind it.
 */
import { UserError } from '../../errors/user-error.js';
import type { Actor } from '../handlers/actor.js';
import type { BotContext } from '../handlers/context.js';
import { reportError } from '../handlers/report-error.js';
import { compose, type Filter } from '../routes/compose.js';
import type { Job, Routed, Step } from '../routes/work.js';
import type { Backlog } from '../runtime/backlog.js';
import type { Slots } from '../runtime/slots.js';
import { ACKED_FIRST, type AckedFirst, type AckFront, type Kind, type SubmitArgs } from './ack-first.js';
import { BUSY_TEXT } from './busy.js';

/** Which kind of request, for the ack and handling timers. */
export type Surface = 'command' | 'click' | 'submit';

/**
 * Bolt's ack, whatever the payload: commands and clicks take no body, view
 * submissions an optional response action. Bolt types it as a union of
 * functions, one per payload, each taking its own body; declared as a method,
 * `ack` accepts that union (method parameters compare both ways), and the
 * router's `Routed.ack` says which body goes with which surface.
 */
interface Acked {
  ack(body?: unknown): Promise<void>;
  /** Commands and clicks: posts to the payload's response URL (a refused click hears "busy" here). */
  respond?(message: { response_type: 'ephemeral'; replace_original: false; text: string }): Promise<unknown>;
}

/** What Bolt hands every listener besides the payload: the body and the context (the decision rides there). */
interface Delivered {
  body?: unknown;
  context?: Record<string, unknown>;
  ack?(body?: unknown): Promise<void>;
}

/** An ack that carries a body of type B (declared as a method, so Bolt's AckFn fits: see Acked). */
interface AckedWith<B> {
  ack(body?: B): Promise<void>;
}

/** One request as the listener's filters see it. */
interface Request<A> {
  args: A;
  /** The ack decided before the chain (set by the first filter). */
  first?: AckedFirst;
  /** The ack the chain hands listeners (it sends nothing more: see ack-first.ts). */
  ack(body?: unknown): Promise<void>;
  routed: Routed;
  /** Gives the backlog's place back; the work behind the ack takes it over when there is work. */
  giveBack(): void;
  handedOver: boolean;
}

/** What the listener path reads of BotContext. */
type ListenContext = Pick<BotContext, 'metrics' | 'logger' | 'tasks' | 'environments' | 'store'>;

/** "Busy" notes to clicks posted at once at most; past it a refused click is only counted (a note is a request too). */
const MAX_BUSY_NOTES = 32;

/** Builds Bolt listeners on one BotContext, one set of slots and the ack front (which holds the backlog). */
export interface Listen {
  /** Commands, clicks and shortcuts: the acked request taken over, routed, the work behind the ack. */
  <A extends object>(surface: Surface, route: (args: A) => Routed): (args: A & Acked) => Promise<void>;
  /** The one view listener: its route also runs before the chain, for the ack (ack-first.ts). */
  submit(route: (args: SubmitArgs) => Routed): (args: SubmitArgs & Acked) => Promise<void>;
  /**
   * Type-ahead options: Slack shows what the ack carries, so the answer is the ack; a failure acks an
   * empty list, and so does a request past the backlog's bound (shed, counted, nothing read).
   */
  options<A extends object, B>(
    answer: (args: A) => Promise<B>,
    empty: B,
    where: (args: A) => Record<string, unknown>,
  ): (args: A & AckedWith<B>) => Promise<void>;
  /** Events (Home): Slack needs no ack body; the route's work runs behind it as any other. */
  event<A extends object>(route: (args: A) => Routed): (args: A) => Promise<void>;
}

/**
 * The listener factory every listener file uses; `acted` hears of every job
 * with an actor once it has run, whatever its outcome (the Home tabs redraw).
 */
export function createListen(
  ctx: ListenContext,
  slots: Slots,
  front: AckFront,
  acted?: (actor: Actor) => void,
): Listen {
  const busy = { notes: 0 };
  const behind = behindAck(ctx, slots, acted);
  const listen = <A extends object>(surface: Surface, route: (args: A) => Routed) =>
    chain<A & Acked>([takeOver(ctx, front, busy), routeBy(route), ackAgain(), behind(surface)]);
  return Object.assign(listen, {
    submit: (route: (args: SubmitArgs) => Routed) => {
      front.routeSubmissions(route);
      return listen<SubmitArgs>('submit', route);
    },
    options: <A extends object, B>(
      answer: (args: A) => Promise<B>,
      empty: B,
      where: (args: A) => Record<string, unknown>,
    ) =>
      compose<A & AckedWith<B>>([
        shedOptions(ctx, front.backlog, empty),
        answerInAck(ctx, answer, empty, where),
      ]),
    event: <A extends object>(route: (args: A) => Routed) =>
      chain<A>([takeOver(ctx, front, undefined), routeBy(route), behind('home')]),
  });
}

/** A Bolt listener from the request filters. */
function chain<A>(filters: readonly Filter<Request<A>>[]): (args: A) => Promise<void> {
  const composed = compose(filters);
  return (args) =>
    composed({
      args,
      ack: async () => {},
      routed: {},
      giveBack: () => {},
      handedOver: false,
    });
}

/**
 * Takes over the ack decided before the chain: a shed request ends here (a
 * click hears "busy" by a note, an event nothing); otherwise the backlog's
 * place is this request's until its work is handed over. Reached without a
 * decision (Bolt's App driven directly, not through our receivers), the
 * request is decided here, the same way, and acked with Bolt's ack.
 */
function takeOver<A>(
  ctx: ListenContext,
  front: AckFront,
  busy: { notes: number } | undefined,
): Filter<Request<A & Partial<Acked>>> {
  return async (req, next) => {
    const args = req.args as A & Partial<Acked> & Delivered;
    let first = args.context?.[ACKED_FIRST] as AckedFirst | undefined;
    let late: ReturnType<AckFront['decide']>;
    if (first) req.ack = async (body) => args.ack?.(body);
    else {
      late = front.decide((args.body ?? {}) as Record<string, unknown>);
      if (!late) throw new Error('a request reached the listener path that is not acked first');
      await args.ack?.(late.body);
      late.sent();
      req.ack = async (body) => late?.again(body);
      first = late.properties[ACKED_FIRST] as AckedFirst;
    }
    try {
      req.first = first;
      if (first.shed) return await busyNote(ctx, first.kind, args, busy);
      const giveBack = first.claim();
      if (!giveBack) {
        ctx.logger.error('two listeners took over one request; the second does nothing', {
          kind: first.kind,
        });
        return;
      }
      req.giveBack = giveBack;
      try {
        await next();
      } finally {
        if (!req.handedOver) giveBack();
      }
    } finally {
      late?.done();
    }
  };
}

/** A shed click hears "busy" by an ephemeral note (its ack carries nothing); a bounded number at once. */
async function busyNote(
  ctx: ListenContext,
  kind: Kind,
  args: Partial<Acked>,
  busy: { notes: number } | undefined,
): Promise<void> {
  const respond = args.respond;
  if (kind !== 'click' || !respond || !busy || busy.notes >= MAX_BUSY_NOTES) return;
  busy.notes += 1;
  await respond({ response_type: 'ephemeral', replace_original: false, text: BUSY_TEXT })
    .catch((error: unknown) => ctx.logger.warn('could not send a "busy" note', { error }))
    .finally(() => {
      busy.notes -= 1;
    });
}

/**
 * Past the backlog's bound a type-ahead request is answered `empty` at once,
 * before anything is read: Slack shows no matches (it has no place for a
 * sentence there), and the person's next keystroke asks again. Under the
 * bound it holds a place in the backlog until its answer is acked.
 */
function shedOptions<A, B>(ctx: ListenContext, backlog: Backlog, empty: B): Filter<A & AckedWith<B>> {
  return async (args, next) => {
    const giveBack = backlog.take();
    if (giveBack) {
      try {
        await next();
      } finally {
        giveBack();
      }
      return;
    }
    ctx.metrics.shed.inc({ kind: 'options' });
    const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'options' });
    try {
      await args.ack(empty);
    } finally {
      stopAck();
    }
  };
}

/** The listener's own routing, unless the route already ran for the ack (a submission). */
function routeBy<A>(route: (args: A) => Routed): Filter<Request<A>> {
  return (req, next) => {
    req.routed = req.first?.routed ?? route(req.args);
    return next();
  };
}

/** Acks as the route says: the ack went before the chain, so this only checks it said the same. */
function ackAgain<A>(): Filter<Request<A>> {
  return async (req, next) => {
    await req.ack(req.routed.ack);
    await next();
  };
}

/** Hands the work to a tracked task that starts after the ack; the task gives the backlog's place back. */
function behindAck(
  ctx: ListenContext,
  slots: Slots,
  acted: ((actor: Actor) => void) | undefined,
): (kind: Surface | 'home') => Filter<Request<unknown>> {
  const timed =
    (kind: Surface | 'home'): Step =>
    async (_job, next) => {
      const stop = ctx.metrics.handleSeconds.startTimer({ kind });
      try {
        await next();
      } finally {
        stop();
      }
    };
  const slot = (work: () => Promise<void>) => slots.use(work);
  return (kind) => {
    const front = [timed(kind), counted(ctx), reportErrors(ctx)];
    return async (req) => {
      const build = req.routed.work;
      if (!build) return;
      req.handedOver = true;
      const giveBack = req.giveBack;
      void ctx.tasks
        .run(`${kind} work`, async () => {
          const work = build();
          if (!work) return;
          const job: Job = {
            name: work.name,
            ...(work.actor ? { actor: work.actor } : {}),
            ...(work.reply ? { reply: work.reply } : {}),
            ...(work.tally ? { tally: { ...work.tally } } : {}),
            outcome: 'ok',
            slot,
          };
          await compose([...front, ...work.steps])(job);
          if (job.actor) acted?.(job.actor);
        })
        .finally(giveBack);
    };
  };
}

/** Counts the job's outcome under its tally's labels (data the route and its filters set, never read back from a name). */
function counted(ctx: ListenContext): Step {
  return async (job, next) => {
    try {
      await next();
    } finally {
      const tally = job.tally;
      if (tally?.counter === 'commands')
        ctx.metrics.commands.inc({ command: tally.command, outcome: job.outcome });
      else if (tally && (!tally.errorsOnly || job.outcome === 'error')) {
        const outcome = job.outcome === 'error' && tally.errorAs ? tally.errorAs : job.outcome;
        ctx.metrics.interactions.inc({ action: tally.action, outcome });
      }
    }
  };
}

/** Tells the acting user about a failure once (or logs and counts it when there is no one to tell). */
function reportErrors(ctx: ListenContext): Step {
  return async (job, next) => {
    try {
      await next();
    } catch (err) {
      // A UserError is an answer (refused, not found, stale...), counted under its kind; only faults are errors.
      const userError = err instanceof UserError;
      job.outcome = userError ? err.kind : 'error';
      if (job.reply) await reportError(ctx, job.reply, err, job.name);
      else {
        if (!userError) ctx.metrics.errors.inc({ where: job.name });
        ctx.logger.warn(`${job.name} failed`, { error: err });
      }
    }
  };
}

/** Answers in the ack, timed; a failure acks `empty` (Slack can show no message here) and is logged. */
function answerInAck<A extends object, B>(
  ctx: ListenContext,
  answer: (args: A) => Promise<B>,
  empty: B,
  where: (args: A) => Record<string, unknown>,
): Filter<A & AckedWith<B>> {
  return async (args) => {
    const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'options' });
    try {
      await args.ack(await answer(args));
    } catch (err) {
      ctx.metrics.errors.inc({ where: 'options' });
      ctx.logger.error('type-ahead options failed', { error: err, ...where(args) });
      await args.ack(empty);
    } finally {
      stopAck();
    }
  };
}
