/** Slack's spelling of "in this thread", written once. */

/** `{ thread_ts }` for a message posted in the thread `threadTs`; nothing when there is none (the channel itself). */
export function inThread(threadTs: string): { thread_ts: string };
export function inThread(threadTs: string | undefined): { thread_ts?: string };
export function inThread(threadTs: string | undefined): { thread_ts?: string } {
  return threadTs ? { thread_ts: threadTs } : {};
}

/** The thread a message from a payload (a click's `body.message`) sits in, when it sits in one. */
export function threadOfMessage(message: unknown): string | undefined {
  const threadTs = (message as { thread_ts?: unknown } | undefined)?.thread_ts;
  return typeof threadTs === 'string' ? threadTs : undefined;
}
