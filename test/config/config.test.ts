import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import {
  CONFIG_ENV_NAMES,
  configSecrets,
  missingSlackSettings,
  readConfig,
} from '../../src/config/config.js';

describe('readConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const result = readConfig({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.gamefabric.url).toBeUndefined();
    // No Slack credentials: local mode, with a store that lives as long as the local workspace.
    expect(result.config.local).toBe(true);
    expect(result.config.dataDir).toBe(':memory:');
    expect(result.config.slack.host).toBe('127.0.0.1');
    expect(result.config.slack.mode).toBe('http');
    expect(result.config.slack.command).toBe('/harbor');
    expect(result.config.gamefabric.vesselApiVersion).toBe('formation/v1beta1');
  });

  it('takes branches from the API unless HARBOR_BRANCHES restricts them', () => {
    const plain = readConfig({});
    expect(plain.ok && plain.config.branches).toBeUndefined();
    const custom = readConfig({ HARBOR_BRANCHES: 'dev, staging ,prod' });
    expect(custom.ok && custom.config.branches).toEqual(['dev', 'staging', 'prod']);
    const bad = readConfig({ HARBOR_BRANCHES: 'dev,Not A Branch' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems.join('\n')).toMatch(/^HARBOR_BRANCHES: must be a comma-separated list/);
  });

  it('stops live tails after 2h unless HARBOR_TAIL_MAX_DURATION says otherwise', () => {
    const byDefault = readConfig({});
    expect(byDefault.ok && byDefault.config.tailMaxDurationMs).toBe(7_200_000);
    const custom = readConfig({ HARBOR_TAIL_MAX_DURATION: '30m' });
    expect(custom.ok && custom.config.tailMaxDurationMs).toBe(1_800_000);
    const bad = readConfig({ HARBOR_TAIL_MAX_DURATION: 'forever' });
    expect(!bad.ok && bad.problems.join('\n')).toMatch(
      /^HARBOR_TAIL_MAX_DURATION: expected a duration like 90s, 30m, 2h or 1d/,
    );
  });

  it('polls watched environments every 30 s with a 60 s settle unless HARBOR_WATCH_* say otherwise', () => {
    const byDefault = readConfig({});
    expect(byDefault.ok && byDefault.config.watchIntervalMs).toBe(30_000);
    expect(byDefault.ok && byDefault.config.watchSettleMs).toBe(60_000);
    const custom = readConfig({ HARBOR_WATCH_INTERVAL_S: '10', HARBOR_WATCH_SETTLE_S: '0' });
    expect(custom.ok && custom.config.watchIntervalMs).toBe(10_000);
    expect(custom.ok && custom.config.watchSettleMs).toBe(0);
    const bad = readConfig({ HARBOR_WATCH_INTERVAL_S: '0' });
    expect(!bad.ok && bad.problems.join('\n')).toMatch(
      /^HARBOR_WATCH_INTERVAL_S: must be a positive integer/,
    );
  });

  it('alerts on a Vessel out of Running after the documented 600 s unless HARBOR_WATCH_VESSEL_STUCK_S says otherwise', () => {
    const byDefault = readConfig({});
    expect(byDefault.ok && byDefault.config.watchVesselStuckMs).toBe(600_000);
    const custom = readConfig({ HARBOR_WATCH_VESSEL_STUCK_S: '900' });
    expect(custom.ok && custom.config.watchVesselStuckMs).toBe(900_000);
    const bad = readConfig({ HARBOR_WATCH_VESSEL_STUCK_S: 'ten minutes' });
    expect(!bad.ok && bad.problems.join('\n')).toMatch(
      /^HARBOR_WATCH_VESSEL_STUCK_S: must be a positive integer/,
    );
  });

  it('picks Socket Mode when an app-level token is set', () => {
    const result = readConfig({ SLACK_APP_TOKEN: 'xapp-1-abc', SLACK_BOT_TOKEN: 'xoxb-1' });
    expect(result.ok && result.config.slack.mode).toBe('socket');
  });

  it('reports every problem at once, by variable', () => {
    const result = readConfig({
      SLACK_BOT_TOKEN: 'xoxp-user-token',
      SLACK_APP_TOKEN: 'abc',
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^SLACK_BOT_TOKEN: must be a bot token starting with xoxb-/),
        expect.stringMatching(/^SLACK_APP_TOKEN: must be an app-level token starting with xapp-/),
        expect.stringMatching(/^PORT: PORT must be a port number/),
        expect.stringMatching(/^DATABASE_URL: must be a PostgreSQL URL/),
      ]),
    );
    expect(result.problems.join('\n')).not.toContain('xoxp-user-token');
  });

  it('needs credentials with a GameFabric URL, and both halves of a login', () => {
    const noCreds = readConfig({ GAMEFABRIC_URL: 'https://api.example' });
    expect(noCreds.ok || noCreds.problems[0]).toMatch(/^GAMEFABRIC_TOKEN: GAMEFABRIC_URL is set/);
    const half = readConfig({ GAMEFABRIC_URL: 'https://api.example', GAMEFABRIC_USERNAME: 'sa@x' });
    expect(half.ok || half.problems[0]).toMatch(/set both/);
    const login = readConfig({
      GAMEFABRIC_URL: 'https://api.example/',
      GAMEFABRIC_USERNAME: 'sa@x',
      GAMEFABRIC_PASSWORD: 'pw-secret',
    });
    expect(login.ok && login.config.gamefabric).toMatchObject({
      url: 'https://api.example',
      auth: { username: 'sa@x', password: 'pw-secret' },
    });
  });

  it('lists secrets for redaction, including a database password', () => {
    const result = readConfig({
      SLACK_BOT_TOKEN: 'xoxb-secret',
      SLACK_SIGNING_SECRET: 'sign-secret',
      GAMEFABRIC_URL: 'https://api.example',
      GAMEFABRIC_TOKEN: 'gf-token',
      DATABASE_URL: 'postgres://u:db%40pass@h/db',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(configSecrets(result.config).sort()).toEqual(
      ['db@pass', 'gf-token', 'sign-secret', 'xoxb-secret'].sort(),
    );
  });

  it('names the missing Slack settings and how to get them', () => {
    const result = readConfig({});
    if (!result.ok) throw new Error('expected ok');
    const missing = missingSlackSettings(result.config.slack);
    expect(missing).toHaveLength(2);
    expect(missing[0]).toMatch(/^SLACK_BOT_TOKEN .*manifest\.yml/);
    expect(missing[1]).toMatch(/SLACK_APP_TOKEN .*SLACK_SIGNING_SECRET/);
  });

  it('runs local mode only without Slack credentials, or when forced', () => {
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };
    const withSlack = readConfig(slack);
    if (!withSlack.ok) throw new Error(withSlack.problems.join());
    expect(withSlack.config.local).toBe(false);
    expect(withSlack.config.dataDir).toBe('./data');
    expect(withSlack.config.slack.host).toBeUndefined();
    // A partial setup is a mistake to report, not a reason to go local.
    const partial = readConfig({ SLACK_SIGNING_SECRET: 'secret' });
    expect(partial.ok && partial.config.local).toBe(false);
    const forcedByEnv = readConfig({ ...slack, HARBOR_LOCAL: '1' });
    expect(forcedByEnv.ok && forcedByEnv.config.local).toBe(true);
    const forcedByFlag = readConfig(slack, { local: true });
    expect(forcedByFlag.ok && forcedByFlag.config.local).toBe(true);
    const off = readConfig({ HARBOR_LOCAL: '0' });
    expect(off.ok && off.config.local).toBe(false);
    expect(readConfig({ HARBOR_LOCAL: 'yes' })).toEqual({
      ok: false,
      problems: ['HARBOR_LOCAL: must be 1 (or true) to force local mode, 0 (or false) otherwise'],
    });
  });

  it('binds where HARBOR_LISTEN_HOST says, in local mode too', () => {
    const local = readConfig({ HARBOR_LISTEN_HOST: '0.0.0.0' });
    expect(local.ok && local.config.slack.host).toBe('0.0.0.0');
    const bad = readConfig({ HARBOR_LISTEN_HOST: 'http://x' });
    expect(bad.ok).toBe(false);
  });
});

describe('deployment settings', () => {
  const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };

  it('serves probes and metrics on PORT unless HARBOR_METRICS_PORT is set', () => {
    const plain = readConfig(slack);
    expect(plain.ok && plain.config.slack.metricsPort).toBeUndefined();
    const own = readConfig({ ...slack, HARBOR_METRICS_PORT: '9090', HARBOR_LISTEN_HOST: '10.0.0.7' });
    expect(own.ok && own.config.slack).toMatchObject({ metricsPort: 9090, host: '10.0.0.7' });
    expect(readConfig({ ...slack, HARBOR_METRICS_PORT: 'metrics' })).toEqual({
      ok: false,
      problems: ['HARBOR_METRICS_PORT: HARBOR_METRICS_PORT must be a port number 0-65535, e.g. 9090'],
    });
  });

  it('keeps the drain inside the shutdown deadline', () => {
    const ok = readConfig({ ...slack, HARBOR_SHUTDOWN_DRAIN_MS: '5000' });
    expect(ok.ok && ok.config.shutdownDrainMs).toBe(5000);
    const late = readConfig({ ...slack, HARBOR_SHUTDOWN_DRAIN_MS: '20000' });
    expect(late.ok).toBe(false);
    expect(!late.ok && late.problems[0]).toMatch(
      /^HARBOR_SHUTDOWN_DRAIN_MS: must be less than HARBOR_SHUTDOWN_TIMEOUT_MS/,
    );
  });

  it('offers Roll back for HARBOR_ROLLBACK_DAYS days, 7 when unset', () => {
    const unset = readConfig({ ...slack });
    expect(unset.ok && unset.config.rollbackWindowMs).toBe(7 * 86_400_000);
    const two = readConfig({ ...slack, HARBOR_ROLLBACK_DAYS: '2' });
    expect(two.ok && two.config.rollbackWindowMs).toBe(2 * 86_400_000);
    const bad = readConfig({ ...slack, HARBOR_ROLLBACK_DAYS: '0' });
    expect(!bad.ok && bad.problems).toEqual(['HARBOR_ROLLBACK_DAYS: must be a positive integer, e.g. 7']);
  });

  it('schedules within HARBOR_SCHEDULE_MAX_DAYS (30) and applies late within HARBOR_SCHEDULE_GRACE_S (600) when unset', () => {
    const unset = readConfig({ ...slack });
    expect(unset.ok && [unset.config.scheduleMaxAheadMs, unset.config.scheduleGraceMs]).toEqual([
      30 * 86_400_000,
      600_000,
    ]);
    const set = readConfig({ ...slack, HARBOR_SCHEDULE_MAX_DAYS: '7', HARBOR_SCHEDULE_GRACE_S: '90' });
    expect(set.ok && [set.config.scheduleMaxAheadMs, set.config.scheduleGraceMs]).toEqual([
      7 * 86_400_000,
      90_000,
    ]);
    const bad = readConfig({ ...slack, HARBOR_SCHEDULE_GRACE_S: 'ten' });
    expect(!bad.ok && bad.problems).toEqual([
      'HARBOR_SCHEDULE_GRACE_S: must be a positive integer, e.g. 600',
    ]);
  });

  it('documents every variable it reads in the README', () => {
    const readme = readFileSync('README.md', 'utf8');
    const undocumented = CONFIG_ENV_NAMES.filter((name) => !readme.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });
});
