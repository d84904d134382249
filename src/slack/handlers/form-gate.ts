/**
 * A form is judged before it opens: a person the policy will refuse whatever
 * they fill in learns it in one line, not after ten fields and a Preview.
 * Only what the command named is judged; when the policy's answer depends on
 * a field the form asks for, the form opens and the submission is judged.
 */
import { authorizeForm } from '../../changes/authorize.js';
import { operationOfForm, type Target } from '../../operations/index.js';
import type { ModalMetadata } from '../ids.js';
import type { Actor } from './actor.js';
import type { BotContext } from './context.js';

// The trigger id lasts 3 s: a policy that can not answer in this long (a slow group lookup) lets the form open.
const FORM_JUDGE_MS = 1200;

/** Throws the policy's refusal (a UserError) when `actor` may not make the change `meta`'s form would ask for. */
export async function refuseFormEarly(
  ctx: Pick<BotContext, 'policy' | 'clock'>,
  actor: Pick<Actor, 'user' | 'team' | 'channel'>,
  meta: ModalMetadata,
): Promise<void> {
  const partial: Target = {
    ...(meta.environment ? { environment: meta.environment } : {}),
    ...(meta.formation ? { formation: meta.formation } : {}),
    ...(meta.region ? { region: meta.region } : {}),
  };
  const timeout = new AbortController();
  await Promise.race([
    authorizeForm(ctx.policy, actor, operationOfForm(meta.kind), partial),
    ctx.clock.sleep(FORM_JUDGE_MS, timeout.signal),
  ]).finally(() => timeout.abort());
}
