/**
 * A form is judged before it opens: a person the policy will refuse whatever
 * they fill in learns it in one line, not after ten fields and a Preview.
 * Only what the command named is judged; when the policy's answer depends on
 * a field the form asks for, the form opens and the submission is judged.
 */
import { authorizeForm } from '../../changes/authorize.js';
import type { Operation, Target } from '../../policy/operations.js';
import type { ModalKind } from '../grammar/command.js';
import type { ModalMetadata } from '../ids.js';
import type { Actor } from './actor.js';
import type { BotContext } from './context.js';

const OPERATION_OF: Record<ModalKind, Operation> = {
  promote: 'image.promote',
  'vessel.create': 'vessel.create',
  'vessel.delete': 'vessel.delete',
  'formation.add': 'formation.add',
  'formation.remove': 'formation.remove',
  'region.create': 'region.create',
  'region.scheduling': 'region.scheduling',
  'armada.scale': 'armada.scale',
  'armadaset.scale': 'armadaset.scale',
  'armada.image': 'armada.image',
  'armadaset.image': 'armadaset.image',
  'logs.follow': 'logs.read',
};

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
    authorizeForm(ctx.policy, actor, OPERATION_OF[meta.kind], partial),
    ctx.clock.sleep(FORM_JUDGE_MS, timeout.signal),
  ]).finally(() => timeout.abort());
}
