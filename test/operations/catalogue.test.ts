/** The operation catalogue: what the rooms derive from it must be well formed. */
import { expect, describe as group, it } from '@jest/globals';
import {
  CHANGE_OPERATIONS,
  describe,
  FORM_KINDS,
  FORMS,
  OPERATION_HELP,
  OPERATIONS,
  operationOfForm,
} from '../../src/operations/index.js';

group('the operation catalogue', () => {
  it('gives every change operation a form, and each form kind names one operation', () => {
    // A rollback names its change in its command or button: it has no form.
    for (const operation of CHANGE_OPERATIONS.filter((o) => o !== 'change.rollback'))
      expect(describe(operation).form).toBeDefined();
    expect(new Set(FORM_KINDS).size).toBe(FORM_KINDS.length);
    for (const { kind, operation } of FORMS) expect(operationOfForm(kind)).toBe(operation);
  });

  it('keeps form titles within Slack’s 24 characters', () => {
    const long = FORMS.filter((f) => f.form.title.length > 24).map((f) => f.kind);
    expect(long).toEqual([]);
  });

  it('gives every operation at least one form of the command, with unique form ids', () => {
    for (const operation of OPERATIONS)
      expect(Object.keys(describe(operation).help).length).toBeGreaterThan(0);
    const ids = OPERATION_HELP.map(([id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('words an action on a target, and without one', () => {
    expect(describe('armada.scale').action({ environment: 'dev', armada: 'duel' })).toBe(
      'scale armada duel in environment dev',
    );
    expect(describe('armada.scale').action({})).toBe('scale armadas');
  });
});
