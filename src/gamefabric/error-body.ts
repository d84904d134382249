/**
 * Builds ApiErrors from whatever came back: a Kubernetes Status body, other
 * JSON, plain text, nothing, or broken JSON. Building an error never throws,
 * and everything it keeps passes through the client's redactor first.
 */
import type { z } from 'zod';
import { StatusSchema } from '../api-shapes/resources.js';
import { ApiError, type ApiRequestInfo } from './errors.js';

/** Bodies kept on errors are cut to this many characters (after redaction, so no secret is cut in half unnoticed). */
const MAX_ERROR_BODY_CHARS = 2048;
/** A plain-text body used as the message is cut shorter: messages end up in Slack. */
const MAX_DETAIL_CHARS = 300;

interface ResponseFailure {
  request: ApiRequestInfo;
  status: number;
  statusText?: string;
  bodyText: string;
  retryAfterMs?: number | undefined;
  redact: (text: string) => string;
}

/** The ApiError for a non-2xx response. */
export function errorFromResponse(failure: ResponseFailure): ApiError {
  const { reason, detail } = describeBody(failure.bodyText);
  const statusLine = reason ? `${failure.status} ${reason}` : `${failure.status}`;
  const text = detail || failure.statusText || '';
  return new ApiError({
    status: failure.status,
    reason,
    message: failure.redact(
      `${failure.request.method} ${failure.request.path}: ${statusLine}${text ? `: ${text}` : ''}`,
    ),
    apiMessage: shownText(text, failure.redact),
    request: failure.request,
    body: keptBody(failure.bodyText, failure.redact),
    retryAfterMs: failure.retryAfterMs,
  });
}

/** The ApiError for a 2xx response whose body is not JSON or does not match `what`'s schema. */
export function invalidResponseError(input: {
  request: ApiRequestInfo;
  status: number;
  bodyText: string;
  problem: string;
  redact: (text: string) => string;
}): ApiError {
  return new ApiError({
    status: input.status,
    reason: 'InvalidResponse',
    message: input.redact(
      `${input.request.method} ${input.request.path}: ${input.status} InvalidResponse: ${input.problem}`,
    ),
    apiMessage: shownText(input.problem, input.redact),
    request: input.request,
    body: keptBody(input.bodyText, input.redact),
  });
}

/** The ApiError (status 0) for a request that got no response. */
export function transportError(input: {
  request: ApiRequestInfo;
  reason: 'Timeout' | 'NetworkError' | 'Aborted';
  detail: string;
  cause?: unknown;
  redact: (text: string) => string;
}): ApiError {
  return new ApiError({
    status: 0,
    reason: input.reason,
    message: input.redact(`${input.request.method} ${input.request.path}: ${input.detail}`),
    apiMessage: shownText(input.detail, input.redact),
    request: input.request,
    cause: redactedCause(input.cause, input.redact),
  });
}

/** Text fit for users: redacted, and the API's internal address (network errors quote the URL) left out. */
function shownText(text: string, redact: (text: string) => string): string {
  return redact(text).replace(/https?:\/\/\S+/g, 'the API');
}

/** A short description of why `value` failed `schema`, naming the first few fields. */
export function describeSchemaProblem(error: z.ZodError, what: string): string {
  const issues = error.issues.slice(0, 3).map((issue) => {
    const at = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${at}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : '';
  return `response is not a valid ${what}: ${issues.join('; ')}${more}`;
}

function describeBody(bodyText: string): { reason?: string; detail?: string } {
  const trimmed = bodyText.trim();
  if (trimmed === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { detail: firstLine(trimmed) };
  }
  const status = StatusSchema.safeParse(json);
  if (status.success) {
    return { reason: status.data.reason || undefined, detail: status.data.message || status.data.status };
  }
  if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
    return { detail: detailOfObject(json as Record<string, unknown>) ?? firstLine(trimmed) };
  }
  return { detail: firstLine(trimmed) };
}

/** Common non-Status error shapes: `{message}`, `{error}`, OAuth2's `{error, error_description}`. */
function detailOfObject(body: Record<string, unknown>): string | undefined {
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const message = str(body.message);
  if (message) return message;
  const error = str(body.error);
  const description = str(body.error_description);
  if (error && description) return `${error}: ${description}`;
  if (error || description) return error ?? description;
  // `{"error": {"message": ...}}`
  if (body.error && typeof body.error === 'object')
    return str((body.error as Record<string, unknown>).message);
  return undefined;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]?.trim() ?? '';
  return line.length > MAX_DETAIL_CHARS ? `${line.slice(0, MAX_DETAIL_CHARS)}…` : line;
}

function keptBody(bodyText: string, redact: (text: string) => string): string | undefined {
  if (bodyText === '') return undefined;
  // Redact before cutting: a cut could otherwise split a secret so it no longer matches.
  const clean = redact(bodyText);
  return clean.length > MAX_ERROR_BODY_CHARS ? `${clean.slice(0, MAX_ERROR_BODY_CHARS)}…` : clean;
}

/** A copy of an Error cause with its message redacted (name and code kept, stack dropped). */
function redactedCause(cause: unknown, redact: (text: string) => string): unknown {
  if (cause === undefined) return undefined;
  if (!(cause instanceof Error)) return redact(String(cause));
  const copy = new Error(redact(cause.message));
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (code !== undefined) Object.assign(copy, { code });
  copy.stack = undefined;
  return copy;
}
