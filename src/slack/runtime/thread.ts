/** Slack's spelling of "in this thread", written once. */

/** `{ thread_ts }` for a message posted in the thread `threadTs`; nothing when there is none (the channel itself). */
export function inThread(threadTs: string | undefined): { thread_ts?: string } {
  return threadTs ? { thread_ts: threadTs } : {};
}
