/**
 * manifest.yml and its HTTP-mode variant manifest.http.yml: each checked by
 * the TypeScript compiler against @slack/web-api's `Manifest` type (so a
 * misspelt key or a wrong value fails, as `apps.manifest.validate` would),
 * and held to the code: every bot scope the Web API methods the bot calls
 * need, every event it listens to and its slash command are declared, and
 * nothing more.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { parse } from 'yaml';

/**
 * The parts of a parsed manifest these tests read, and break on purpose
 * (`socket_mode_enabled` is unknown so a test can set a wrong type);
 * typeProblems checks the whole file against Slack's own type.
 */
interface ManifestYaml {
  settings: {
    socket_mode_enabled?: unknown;
    interactivity: { request_url?: string; message_menu_options_url?: string };
    event_subscriptions?: { request_url?: string; bot_events?: string[] };
  };
  features: {
    bot_user: Record<string, unknown>;
    slash_commands: { command: string; url?: string }[];
    shortcuts?: { name: string; type: string; callback_id: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
}

const ROOT = process.cwd();

/** The bot scopes each Web API method needs (Slack's method reference); views.* need none. */
const METHOD_SCOPES: Record<string, string[]> = {
  'chat.postMessage': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.getPermalink': [],
  'views.open': [],
  'views.push': [],
  'views.update': [],
  'views.publish': [],
  'usergroups.users.list': ['usergroups:read'],
  'usergroups.list': ['usergroups:read'],
  'conversations.info': ['channels:read', 'groups:read'],
  'conversations.members': ['channels:read', 'groups:read'],
  'users.info': ['users:read'],
  'auth.test': [],
};

async function manifest(file: string): Promise<ManifestYaml> {
  return parse(await readFile(join(ROOT, file), 'utf8')) as ManifestYaml;
}

/**
 * The TypeScript compiler's complaints about each value as a `Manifest` (none when it fits), by
 * name. All the values go into one program, one module each, so the compiler reads its libraries
 * and @slack/web-api's types once rather than once per value (that reading is most of the time);
 * each module's diagnostics are its own, as if it were checked alone.
 */
function typeProblems<K extends string>(values: Record<K, unknown>): Record<K, string[]> {
  const names = Object.keys(values) as K[];
  const fileOf = (name: K) => join(ROOT, 'test', 'slack', `__manifest_check_${name}__.ts`);
  const sources = new Map(
    names.map((name) => [
      fileOf(name),
      `import type { AppsManifestCreateArguments } from '@slack/web-api';
export const manifest: AppsManifestCreateArguments['manifest'] = ${JSON.stringify(values[name], null, 2)};
`,
    ]),
  );
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const source = sources.get(name);
    return source === undefined
      ? readSource(name, version, ...rest)
      : ts.createSourceFile(name, source, version);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => sources.has(name) || exists(name);
  const program = ts.createProgram([...sources.keys()], options, host);
  const problems = {} as Record<K, string[]>;
  for (const name of names) {
    const checked = program.getSourceFile(fileOf(name));
    problems[name] = [
      ...program.getSyntacticDiagnostics(checked),
      ...program.getSemanticDiagnostics(checked),
    ].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return problems;
}

async function sourcesUnder(dir: string): Promise<{ file: string; text: string }[]> {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true, recursive: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map(async (e) => {
        const file = join(e.parentPath, e.name);
        return { file, text: await readFile(file, 'utf8') };
      }),
  );
}

/** Web API methods the bot calls through its client (`client.chat.update(`, `ctx.slack.views.open(`). */
async function calledMethods(): Promise<Set<string>> {
  const methods = new Set<string>();
  for (const { text } of await sourcesUnder('src/slack')) {
    for (const m of text.matchAll(/\b(?:client|slack)\.([a-z]+)\.([a-zA-Z]+)(?:\.([a-zA-Z]+))?\(/g)) {
      methods.add([m[1], m[2], m[3]].filter(Boolean).join('.'));
    }
  }
  return methods;
}

/** Events the bot listens to (`app.event('app_home_opened', …)`). */
async function listenedEvents(): Promise<Set<string>> {
  const events = new Set<string>();
  for (const { text } of await sourcesUnder('src/slack')) {
    for (const m of text.matchAll(/\.event\(\s*'([a-z_.]+)'/g)) events.add(m[1] ?? '');
  }
  return events;
}

/** The settings that differ between Socket Mode and HTTP mode, removed. */
function withoutTransport(m: ManifestYaml): ManifestYaml {
  const copy = structuredClone(m);
  delete copy.settings.socket_mode_enabled;
  delete copy.settings.interactivity.request_url;
  delete copy.settings.interactivity.message_menu_options_url;
  delete copy.settings.event_subscriptions?.request_url;
  for (const c of copy.features.slash_commands ?? []) delete c.url;
  return copy;
}

describe('the app manifests', () => {
  it('fit @slack/web-api’s Manifest type, and a wrong value or key does not', async () => {
    const socket = await manifest('manifest.yml');
    const http = await manifest('manifest.http.yml');
    const wrongValue = structuredClone(socket);
    wrongValue.settings.socket_mode_enabled = 'yes';
    const wrongScope = structuredClone(socket);
    wrongScope.oauth_config.scopes.bot.push('chat:writ');
    const wrongKey = structuredClone(socket);
    wrongKey.features.bot_user.displayname = 'harbormaster';
    const problems = typeProblems({ socket, http, wrongValue, wrongScope, wrongKey });
    expect(problems.socket).toEqual([]);
    expect(problems.http).toEqual([]);
    expect(problems.wrongValue.join('\n')).toMatch(/'string' is not assignable to type 'boolean/);
    expect(problems.wrongScope.join('\n')).toMatch(/"chat:writ"/);
    expect(problems.wrongKey.join('\n')).toMatch(/displayname"?' does not exist in type 'ManifestBotUser'/);
  }, 60_000);

  it('declare exactly the bot scopes the Web API methods the bot calls need', async () => {
    const methods = await calledMethods();
    expect(methods.has('chat.postMessage')).toBe(true);
    const unknown = [...methods].filter((m) => METHOD_SCOPES[m] === undefined);
    expect(unknown).toEqual([]); // a new method: add its scopes (Slack's method page) to METHOD_SCOPES
    const needed = new Set(['commands', ...[...methods].flatMap((m) => METHOD_SCOPES[m] ?? [])]);
    for (const file of ['manifest.yml', 'manifest.http.yml']) {
      const declared = (await manifest(file)).oauth_config.scopes.bot as string[];
      expect({ file, scopes: [...declared].sort() }).toEqual({ file, scopes: [...needed].sort() });
    }
  });

  it('declare exactly the events the bot listens to and its one slash command', async () => {
    const events = [...(await listenedEvents())].sort();
    const commands = (await sourcesUnder('src/slack')).flatMap(({ text }) => [
      ...text.matchAll(/\bapp\.command\(/g),
    ]);
    expect(commands).toHaveLength(1);
    for (const file of ['manifest.yml', 'manifest.http.yml']) {
      const m = await manifest(file);
      expect({ file, events: [...(m.settings.event_subscriptions?.bot_events ?? [])].sort() }).toEqual({
        file,
        events,
      });
      expect(m.features.slash_commands.map((c) => c.command)).toEqual(['/harbor']);
    }
  });

  it('declare exactly the message shortcuts the bot listens to', async () => {
    // Listeners name their callback id through ids.ts; its exported constants give the values.
    const ids = await import('../../src/slack/ids.js');
    const used = (await sourcesUnder('src/slack'))
      .flatMap(({ text }) => [
        ...text.matchAll(/\bapp\.shortcut<?[^(]*\(\s*\{[^}]*callback_id:\s*([A-Z_]+)/g),
      ])
      .map((m) => (ids as Record<string, unknown>)[m[1] ?? '']);
    expect(used).toEqual(['logs.from_message']);
    for (const file of ['manifest.yml', 'manifest.http.yml']) {
      const m = await manifest(file);
      const declared = (m.features.shortcuts ?? []).map((s) => `${s.type}:${s.callback_id}`);
      expect({ file, declared }).toEqual({ file, declared: used.map((id) => `message:${String(id)}`) });
    }
  });

  it('ship an HTTP-mode variant: the same app with request URLs where Socket Mode needs none', async () => {
    const socket = await manifest('manifest.yml');
    const http = await manifest('manifest.http.yml');
    expect(socket.settings.socket_mode_enabled).toBe(true);
    expect(http.settings.socket_mode_enabled).toBe(false);
    expect(withoutTransport(http)).toEqual(withoutTransport(socket));

    const url = 'https://harbor.example.com/slack/events';
    expect(http.features.slash_commands.map((c) => c.url)).toEqual(
      http.features.slash_commands.map(() => url),
    );
    expect(http.settings.interactivity.request_url).toBe(url);
    // Type-ahead menus and events reach HTTP apps only through their URLs.
    const usesOptions = (await sourcesUnder('src/slack')).some(({ text }) => /\bapp\.options\(/.test(text));
    expect(http.settings.interactivity.message_menu_options_url).toBe(usesOptions ? url : undefined);
    const events = socket.settings.event_subscriptions?.bot_events ?? [];
    expect(http.settings.event_subscriptions?.request_url).toBe(events.length > 0 ? url : undefined);
    // Socket Mode carries everything over its socket: no URL in manifest.yml.
    expect(JSON.stringify(socket)).not.toMatch(/https?:/);
  });
});
