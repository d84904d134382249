/**
 * Whether a Formation entry's overrides reached the Vessel the controller
 * created. The sources disagree on the override shape (the docs' example
 * names the container and sets an image; the provider's type has neither),
 * so the bot never takes an override on trust: it reads the Vessel back and
 * says what it runs.
 */
import type { Container, Vessel } from '../../api-shapes/resources.js';
import { argsText } from '../args-text.js';
import type { FollowEvent } from '../operation.js';

/** What the user asked one template container to run. */
export interface ExpectedOverride {
  /** Position of the container in the Formation template. */
  index: number;
  container: string;
  /** The internal image name, and `image:tag (internal)` for messages. */
  image?: { name: string; label: string };
  args?: string[];
  command?: string[];
  env?: { name: string; value: string }[];
}

const argsLine = (args: readonly string[] | undefined) => (args?.length ? argsText(args) : '(none)');

/** The Vessel's container for an override: by name, else at the template position. */
function containerFor(vessel: Vessel, expected: ExpectedOverride): Container | undefined {
  const containers = vessel.spec.template.spec.containers;
  return containers.find((c) => c.name === expected.container) ?? containers[expected.index];
}

function sameArgs(a: readonly string[] | undefined, b: readonly string[]): boolean {
  const got = a ?? [];
  return got.length === b.length && got.every((arg, i) => arg === b[i]);
}

/**
 * A follow-up step saying which overrides took effect in `vessel` and which
 * did not, naming only images the Vessel actually runs. Undefined when there
 * were no overrides to check.
 */
export function overrideOutcome(
  vessel: Vessel,
  expected: readonly ExpectedOverride[],
): FollowEvent | undefined {
  if (expected.length === 0) return undefined;
  const name = vessel.metadata.name;
  const took: string[] = [];
  const missed: string[] = [];
  for (const e of expected) {
    const c = containerFor(vessel, e);
    if (!c) {
      missed.push(`container ${e.container} is not in the vessel`);
      continue;
    }
    if (e.image) {
      if (c.image === e.image.name) took.push(`${e.container} runs image ${e.image.label}`);
      else
        missed.push(`${e.container} runs image ${c.image ?? '(none)'}, not the requested ${e.image.label}`);
    }
    if (e.args) {
      if (sameArgs(c.args, e.args)) took.push(`${e.container} has args ${argsLine(e.args)}`);
      else missed.push(`${e.container} has args ${argsLine(c.args)}, not the requested ${argsLine(e.args)}`);
    }
    if (e.command) {
      if (sameArgs(c.command, e.command)) took.push(`${e.container} has command ${argsLine(e.command)}`);
      else
        missed.push(
          `${e.container} has command ${argsLine(c.command)}, not the requested ${argsLine(e.command)}`,
        );
    }
    for (const v of e.env ?? []) {
      const got = c.env?.find((x) => x.name === v.name)?.value;
      if (got === v.value) took.push(`${e.container} has ${v.name}=${v.value}`);
      else missed.push(`${e.container} has ${v.name}=${got ?? '(unset)'}, not the requested ${v.value}`);
    }
  }
  if (missed.length === 0) {
    return { kind: 'progress', message: `Overrides took effect on vessel ${name}: ${took.join('; ')}.` };
  }
  const partly = took.length ? ` Took effect: ${took.join('; ')}.` : '';
  return {
    kind: 'failed',
    message: `Override did not take effect on vessel ${name}: ${missed.join('; ')}.${partly} The platform may not apply this override field.`,
  };
}
