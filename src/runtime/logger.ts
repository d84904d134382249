/**
 * A small structured logger: one JSON object per line, with every registered
 * secret replaced by `[REDACTED]` before anything is written, so a token can
 * not leak through an error message or a logged request.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Replaces every occurrence of each secret (and Bearer/xox tokens in general) in `text`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  }
  return out
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[REDACTED]')
    .replace(/\bxox[abposr]-[A-Za-z0-9-]+/g, '[REDACTED]')
    .replace(/\bxapp-[A-Za-z0-9-]+/g, '[REDACTED]');
}

interface JsonLoggerOptions {
  level?: LogLevel;
  secrets?: () => readonly string[];
  write?: (line: string) => void;
  now?: () => number;
  base?: LogFields;
}

/** A JSON-lines logger writing to stderr by default. */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const min = LEVELS[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const secrets = options.secrets ?? (() => []);
  const make = (base: LogFields): Logger => {
    const emit = (level: LogLevel, msg: string, fields?: LogFields) => {
      if (LEVELS[level] < min) return;
      const record = { time: new Date(now()).toISOString(), level, msg, ...base, ...fields };
      write(redact(JSON.stringify(record, errorReplacer()), secrets()));
    };
    return {
      debug: (m, f) => emit('debug', m, f),
      info: (m, f) => emit('info', m, f),
      warn: (m, f) => emit('warn', m, f),
      error: (m, f) => emit('error', m, f),
      child: (fields) => make({ ...base, ...fields }),
    };
  };
  return make(options.base ?? {});
}

/**
 * Errors serialise to nothing useful by default (their fields are not
 * enumerable): keep name, message, stack and the `cause` chain, plus any
 * fields the error carries (an ApiError's status and request). One replacer
 * per line, so an error that is its own cause is written once, not forever.
 */
function errorReplacer(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<Error>();
  return (_key, value) => {
    if (!(value instanceof Error)) return value;
    if (seen.has(value)) return `[circular ${value.name}]`;
    seen.add(value);
    return {
      name: value.name,
      message: value.message,
      ...(value.stack ? { stack: value.stack } : {}),
      ...(value.cause !== undefined ? { cause: value.cause } : {}),
      ...(value as unknown as Record<string, unknown>),
    };
  };
}

/** A logger that drops everything (tests that do not assert on logs). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/** A logger that keeps lines in memory, for tests that assert on what was logged. */
export function createMemoryLogger(secrets: readonly string[] = []): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createJsonLogger({ level: 'debug', write: (l) => lines.push(l), secrets: () => secrets });
  return Object.assign(logger, { lines });
}
