/**
 * Bolt and the Slack SDK log through our logger, so their lines get the same
 * JSON shape and the same secret redaction as everything else.
 */
import { type AppOptions, LogLevel } from '@slack/bolt';
import type { Logger } from '../../runtime/logger.js';

type SlackLogger = NonNullable<AppOptions['logger']>;

/** An @slack/logger Logger writing to `logger`. */
export function boltLogger(logger: Logger): SlackLogger {
  let level: LogLevel = LogLevel.INFO;
  const text = (msg: unknown[]) =>
    msg
      .map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m)))
      .join(' ');
  return {
    // Bolt logs at debug on every request; its messages are only formatted when asked for (setLevel).
    debug: (...msg) => {
      if (level === LogLevel.DEBUG) logger.debug(text(msg));
    },
    info: (...msg) => logger.info(text(msg)),
    warn: (...msg) => logger.warn(text(msg)),
    error: (...msg) => logger.error(text(msg)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
