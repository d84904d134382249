/**
 * A Slack SDK logger (for WebClient and Bolt) that prints nothing and keeps
 * every line, so tests stay quiet and can still assert on what Bolt logged
 * (e.g. "not acknowledged within 3 seconds").
 */
import { type Logger, LogLevel } from '@slack/web-api';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

export interface RecordingLogger extends Logger {
  readonly lines: LogLine[];
}

/** A logger that records instead of printing. */
export function recordingLogger(): RecordingLogger {
  const lines: LogLine[] = [];
  let level = LogLevel.DEBUG;
  const at =
    (lineLevel: LogLine['level']) =>
    (...msg: unknown[]) => {
      lines.push({
        level: lineLevel,
        message: msg.map((m) => (typeof m === 'string' ? m : String(m))).join(' '),
      });
    };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
