/**
 * The one authorization of a request, whether it reads or changes: the policy
 * judges who asks, from which channel of which workspace. Reads, live tails
 * and changes all come through here, so a policy that admits a second
 * workspace admits it for every command alike.
 */
import { UserError } from '../errors/user-error.js';
import type { Operation, Target } from '../policy/operations.js';
import type { Decision, Policy } from '../policy/types.js';

/** Who asks: a person in a channel of a workspace (Slack team id). Every policy question names all three. */
export interface Asker {
  user: string;
  channel: string;
  team: string;
}

/** The policy's decision on `asker` requesting `operation` on `target`. */
export function judgeRequest(
  policy: Policy,
  asker: Asker,
  operation: Operation,
  target: Target,
): Promise<Decision> {
  return policy.authorizeRequest({
    user: asker.user,
    channel: asker.channel,
    team: asker.team,
    operation,
    target,
  });
}

/** Resolves when `asker` may request `operation` on `target`; otherwise throws the refusal as a UserError. */
export async function authorizeRequest(
  policy: Policy,
  asker: Asker,
  operation: Operation,
  target: Target,
): Promise<void> {
  const decision = await judgeRequest(policy, asker, operation, target);
  if (!decision.allowed) throw new UserError(decision.reason, 'refused');
}

/**
 * Throws the refusal as a UserError when `asker` may not request `operation`
 * whatever the form will ask; `partial` holds only what the command named.
 */
export async function authorizeForm(
  policy: Policy,
  asker: Asker,
  operation: Operation,
  partial: Target,
): Promise<void> {
  const decision = await policy.judgeForm({
    user: asker.user,
    channel: asker.channel,
    team: asker.team,
    operation,
    target: partial,
  });
  if (decision && !decision.allowed) throw new UserError(decision.reason, 'refused');
}
