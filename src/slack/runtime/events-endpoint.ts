/**
 * The events path (`POST /slack/events`), read once. Bolt's HTTPReceiver
 * parses a form body twice (once to look for `ssl_check`, once for the
 * event) and would parse it a third time after a shape check of our own;
 * under a burst of clicks, whose bodies carry the whole message, that
 * parsing is most of an ack's cost. Here a body is buffered once, its
 * signature checked before anything is read out of it, parsed once, checked
 * for the shape Bolt and the listeners need (payload-shape.ts: a signature
 * proves who sent a body, not that it is well formed), and handed to the
 * app as Bolt's own receiver would hand it. With `ackFirst` the answer is
 * decided from the body and written before Bolt's chain runs (first-ack.ts,
 * as in Socket Mode), and the chains start one per turn of the loop after the
 * requests still arriving have been read and acked: a burst's acks do not
 * wait behind the chains of the requests before them. Type-ahead requests,
 * answered after a read, get Bolt's ack.
 *
 * Answers: 401 unsigned or stale, 413 too large, 400 with the reason when
 * the body cannot be handled, Slack's answers to `ssl_check` and
 * `url_verification`, otherwise whatever the listener acks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import {
  type App,
  type Logger as BoltLogger,
  type BufferedIncomingMessage,
  HTTPModuleFunctions,
  HTTPResponseAck,
} from '@slack/bolt';
import type { Logger } from '../../runtime/logger.js';
import { type AckFirst, ackThenChain, type ChainsAfterReads } from './first-ack.js';
import { commandProblem, eventProblem, interactionProblem } from './payload-shape.js';
import { signatureCheck } from './request-signature.js';
import { responseUrlProblem } from './response-url.js';

const FORM = 'application/x-www-form-urlencoded';

/** A body as Bolt's App reads it, or why it cannot be handled. */
type Parsed = { ok: true; body: Record<string, unknown> } | { ok: false; problem: string };

/**
 * Parses a body the way Bolt does (a form's `payload` is the JSON event
 * itself; other forms are slash commands; anything else is JSON) and checks
 * its shape.
 */
function parseBody(rawBody: string, contentType: string | undefined, form?: Record<string, unknown>): Parsed {
  if (contentType === FORM) {
    const fields = form ?? parseForm(rawBody);
    if (fields.payload === undefined) {
      const problem = commandProblem(fields);
      return problem ? { ok: false, problem } : { ok: true, body: fields };
    }
    if (typeof fields.payload !== 'string') return { ok: false, problem: 'payload is given more than once' };
    return checked(fields.payload, interactionProblem, 'payload is not valid JSON');
  }
  return checked(rawBody, eventProblem, 'the body is not valid JSON');
}

function checked(
  text: string,
  problemOf: (value: unknown) => string | undefined,
  unparsable: string,
): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: unparsable };
  }
  const problem = problemOf(value);
  return problem ? { ok: false, problem } : { ok: true, body: value as Record<string, unknown> };
}

interface EventsEndpointOptions {
  signingSecret: string;
  /** The app events go to (known once Bolt's App has taken the receiver). */
  app: () => App | undefined;
  logger: Logger;
  /** The same logger as Bolt's receiver gets, for Bolt's ack. */
  boltLogger: BoltLogger;
  /** Origins besides Slack's own hosts whose response URLs are trusted (the configured Slack API host). */
  responseOrigins?: readonly string[];
  /** Decides a request's answer from its body, written before Bolt's chain runs. */
  ackFirst?: AckFirst;
  /**
   * Starts acked requests' chains (first-ack.ts: one per turn of the loop,
   * after the loop has read what the sockets hold); at once when not given.
   */
  chains?: ChainsAfterReads;
}

/** Handles one POST to the events path. */
export function eventsEndpoint(
  o: EventsEndpointOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const verify = signatureCheck(o.signingSecret);
  const answer = (res: ServerResponse, status: number, text?: string) => {
    if (text === undefined) HTTPModuleFunctions.buildNoBodyResponse(res, status);
    else {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let buffered: BufferedIncomingMessage;
    try {
      buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit);
    } catch (err) {
      const tooLarge = HTTPModuleFunctions.isRawBodyError(err) && err.statusCode === 413;
      o.logger.warn('could not read a Slack request body', { error: err });
      return answer(res, tooLarge ? 413 : 400);
    }
    const rawBody = buffered.rawBody.toString('utf8');
    const contentType = req.headers['content-type'];
    const form = contentType === FORM ? parseForm(rawBody) : undefined;
    // Slack's reachability probe comes unsigned; nothing sent along with it is read.
    if (form?.ssl_check === '1') return HTTPModuleFunctions.buildSSLCheckResponse(res);
    const unsigned = verify(
      {
        body: buffered.rawBody,
        signature: header(req, 'x-slack-signature'),
        timestamp: header(req, 'x-slack-request-timestamp'),
      },
      Date.now(),
    );
    if (unsigned) {
      o.logger.warn('refused a Slack request that is not signed right', { reason: unsigned });
      return answer(res, 401);
    }
    const read = parseBody(rawBody, contentType, form);
    const offSlack = read.ok ? responseUrlProblem(read.body, o.responseOrigins ?? []) : undefined;
    const parsed: Parsed = offSlack ? { ok: false, problem: offSlack } : read;
    if (!parsed.ok) {
      o.logger.warn('refused a malformed Slack request', { problem: parsed.problem });
      return answer(res, 400, `Malformed Slack request: ${parsed.problem}.`);
    }
    const body = parsed.body;
    if (body.type === 'url_verification') return HTTPModuleFunctions.buildUrlVerificationResponse(res, body);
    const app = o.app();
    if (!app) return answer(res, 503, 'The bot is starting.');
    const ack = new HTTPResponseAck({
      logger: o.boltLogger,
      processBeforeResponse: false,
      httpRequest: buffered,
      httpRequestBody: body,
      httpResponse: res,
    });
    const retry = {
      retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req),
      retryReason: HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req),
    };
    const first = o.ackFirst?.(body);
    if (first) {
      // Bolt reports its chain's errors itself (app.error); anything else thrown here is logged below.
      return ackThenChain(first, ack.bind(), (noOp, customProperties) => {
        const chain = () => app.processEvent({ body, ack: noOp, ...retry, customProperties });
        return o.chains ? o.chains.run(chain) : chain();
      });
    }
    try {
      await app.processEvent({
        body,
        ack: ack.bind(),
        ...retry,
        customProperties: {},
      });
    } catch (error) {
      // As Bolt's receiver does: 401 for a failed authorize, 500 otherwise (unless already acked).
      const acked = await HTTPModuleFunctions.defaultProcessEventErrorHandler({
        error: error as Error,
        logger: o.boltLogger,
        request: req,
        response: res,
        storedResponse: ack.storedResponse,
      });
      if (acked) ack.ack();
    }
  };

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      o.logger.error('the events endpoint failed', { error });
      if (!res.headersSent) answer(res, 500);
    });
  };
}

/** A request header that must be there once (a list or nothing fails the signature check). */
function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return typeof value === 'string' ? value : '';
}
