/**
 * Errors as Slack messages. A UserError is shown as written (a validation
 * error as one bullet per field); anything else goes through describeFailure,
 * which logs the internals under an id and gives the user words, never a stack.
 */
import { describeFailure } from '../../changes/describe-failure.js';
import { type FieldProblem, ValidationError } from '../../changes/errors.js';
import { type ErrorReference, UserError } from '../../errors/user-error.js';
import type { Logger } from '../../runtime/logger.js';
import { LIMITS } from '../limits.js';
import { escapeFit, finish, joinMapped, section } from './blocks.js';
import { failureText } from './failure-text.js';
import type { SlackMessage } from './message.js';
import { linked, permalink } from './permalink.js';

/** A message telling the user what went wrong with their command or change. */
export function renderError(err: unknown, logger: Logger, seeTs?: string): SlackMessage {
  if (err instanceof ValidationError && err.problems.length > 0) {
    const intro = err.problems.length === 1 ? 'One thing needs fixing:' : 'Some things need fixing:';
    const bullet = (p: FieldProblem) => `• \`${escapeFit(p.field, 200)}\`: ${escapeFit(p.message, 600)}`;
    const body = `${intro}\n${joinMapped(err.problems, bullet, LIMITS.sectionText - intro.length - 1)}`;
    return finish(body, [section(body)]);
  }
  const message = err instanceof UserError ? err.message : failureText(describeFailure(err, logger));
  const escaped = escapeFit(message || 'Something went wrong.', LIMITS.sectionText);
  // A policy refusal names who can help as mentions and channel links: those stay live.
  const said = err instanceof UserError && err.kind === 'refused' ? keepSlackEntities(escaped) : escaped;
  const text = err instanceof UserError && err.see ? `${said} ${seeLink(err.see, seeTs)}` : said;
  return finish(text, [section(text)]);
}

/** "See <link|change …>." for the change an error refers to; linked when its message (`ts`) is known, else to its thread. */
function seeLink(see: ErrorReference, ts: string | undefined): string {
  const at = ts ?? see.threadTs;
  return `See ${linked(escapeFit(see.label, 200), at ? permalink(see.channel, at, see.threadTs) : undefined)}.`;
}

// Only the entity shapes the policy writes (users, groups, channels, dates), by id.
const ESCAPED_ENTITY = /&lt;((?:@U|#C|!subteam\^S)[A-Z0-9]+|!date\^\d+\^[^|&<>]*\|[^&<>]*)&gt;/g;

/** Un-escapes the Slack entities (`<@U…>`, `<!subteam^S…>`, `<#C…>`, `<!date^…>`) in escaped text. */
function keepSlackEntities(escaped: string): string {
  return escaped.replace(ESCAPED_ENTITY, '<$1>');
}
