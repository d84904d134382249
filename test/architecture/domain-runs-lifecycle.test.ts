/**
 * Issue 39: the domain owns the whole lifecycle; Slack only subscribes. No
 * file of `slack/` follows a change up, places a message through the engine,
 * or writes a change record (the store's change writes), and the Change
 * carries no drawing state (Slack's own table does: slack_change_messages).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Calls only the domain makes: following up, placing a message on the change, and every change-record write. */
const DOMAIN_ONLY =
  /\.(follow|setOrigin|updateChangeOrigin|createChange|transitionChange|expireChanges|claimNotice|releaseNotice|markFollowedUp|claimRollback|releaseRollback|addApproval|markDrawn)\(/;

it('no slack/ file follows a change up or writes a change record', () => {
  const slackFiles = files(join(SRC, 'slack'));
  expect(slackFiles.length).toBeGreaterThan(50);
  const offenders = slackFiles.flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        DOMAIN_ONLY.test(line) ? [`${relative(SRC, path)}:${i + 1}: ${line.trim()}`] : [],
      ),
  );
  expect(offenders).toEqual([]);
});

it('the change record and its origin hold no drawing state', () => {
  const types = readFileSync(join(SRC, 'store/types.ts'), 'utf8');
  const record = types.slice(
    types.indexOf('export interface ChangeOrigin'),
    types.indexOf('export interface ApprovalRecord'),
  );
  expect(record).toContain('threadTs');
  expect(record).not.toMatch(/messageTs|askTs|drawnStatus/);
});
