/**
 * Issue 17, point 5: one zod schema per operation types what commands and
 * forms hand the engine. The type half is checked by `npm run typecheck`
 * (the @ts-expect-error lines fail it when a wrong input would compile); the
 * run-time half checks that the schema words every problem by field.
 */
import { describe, expect, it } from '@jest/globals';
import type { ZodType } from 'zod';
import { ValidationError } from '../../src/changes/errors.js';
import { CHANGE_TABLE } from '../../src/changes/operations/index.js';
import type { ChangeInput } from '../../src/changes/requests/index.js';
import { parseRequest } from '../../src/changes/requests/vocabulary.js';

function problems(operation: keyof typeof CHANGE_TABLE, input: unknown) {
  const schema: ZodType = CHANGE_TABLE[operation].schema;
  try {
    parseRequest(schema, input);
  } catch (err) {
    if (err instanceof ValidationError) return err.problems;
    throw err;
  }
  return [];
}

describe('operation inputs are typed by their schema', () => {
  it('accepts what the schema reads, and the compiler refuses what it does not', () => {
    const inputs: ChangeInput[] = [
      { operation: 'vessel.delete', input: { environment: 'dev', vessel: 'lobby-1' } },
      { operation: 'armada.scale', input: { environment: 'dev', name: 'duel', maxReplicas: 4 } },
      // @ts-expect-error a delete names its vessel
      { operation: 'vessel.delete', input: { environment: 'dev' } },
      // @ts-expect-error an ArmadaSet scale names its region
      { operation: 'armadaset.scale', input: { environment: 'dev', name: 'arena', maxReplicas: 4 } },
      // @ts-expect-error a promotion's branches are text
      { operation: 'image.promote', input: { image: 'g', tag: '1', sourceBranch: 1, targetBranch: 'prod' } },
    ];
    expect(problems('vessel.delete', inputs[0]?.input)).toEqual([]);
    expect(problems('armada.scale', inputs[1]?.input)).toEqual([]);
    expect(problems('vessel.delete', inputs[2]?.input)).toEqual([
      { field: 'vessel', message: 'missing: expected a vessel name, e.g. lobby-3' },
    ]);
  });
});

describe('every problem named by its field, with what was expected', () => {
  it('lists all of them at once, nested fields by path', () => {
    expect(
      problems('vessel.create', {
        environment: 'Dev',
        name: 'lobby-3',
        region: 'eu',
        containers: [
          {
            name: 'gs',
            branch: 'dev',
            image: 'g:1',
            ports: [{ name: 'game', containerPort: 70000 }],
            cpu: '2',
          },
        ],
      }),
    ).toEqual([
      {
        field: 'environment',
        message: '"Dev" is not a valid environment name: it must be lowercase; e.g. dev',
      },
      {
        field: 'containers[0].ports[0].containerPort',
        message: 'expected a port number from 1 to 65535, e.g. 7777 (got 70000)',
      },
      {
        field: 'containers[0].cpu',
        message: '"2" is not a CPU quantity: use millicores with an m suffix, e.g. 250m',
      },
    ]);
  });

  it('checks across fields once the fields themselves are right', () => {
    expect(
      problems('image.promote', { image: 'g', tag: '1', sourceBranch: 'dev', targetBranch: 'dev' }),
    ).toEqual([{ field: 'targetBranch', message: 'must differ from the source branch (both are "dev")' }]);
    expect(
      problems('armada.scale', {
        environment: 'dev',
        name: 'duel',
        minReplicas: '5',
        maxReplicas: 2,
        bufferSize: 1,
      }),
    ).not.toEqual([]);
    expect(problems('armada.scale', { environment: 'dev', name: 'duel' })).toEqual([
      {
        field: 'replicas',
        message: 'give at least one of --min, --max and --buffer, e.g. --max 20',
        formMessage: 'fill in at least one of min, buffer and max, e.g. max 20',
      },
    ]);
  });

  it('reads anything but an object as an empty request', () => {
    expect(problems('vessel.delete', 'lobby-1').map((p) => p.field)).toEqual(['environment', 'vessel']);
  });
});
