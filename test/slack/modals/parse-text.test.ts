/** Free-text fields: args split like a shell, ports, lists, image refs. */
import { describe, expect, it } from '@jest/globals';
import { port } from '../../../src/changes/requests/vocabulary.js';
import { parsePorts, splitArgs, splitImageRef, splitList } from '../../../src/slack/modals/parse-text.js';

describe('splitArgs', () => {
  it.each([
    ['', []],
    ['  --a   b  ', ['--a', 'b']],
    [`--motd "Hello there" 'single quoted'`, ['--motd', 'Hello there', 'single quoted']],
    [`--x=""`, ['--x=']],
    [`""`, ['']],
    [`a\\ b "c \\" d" 'e\\f'`, ['a b', 'c " d', 'e\\f']],
    [`pre"mid dle"post`, ['premid dlepost']],
    ['tab\tand\nnewline', ['tab', 'and', 'newline']],
  ])('%j -> %j', (text, args) => {
    expect(splitArgs(text)).toEqual({ ok: true, value: args });
  });

  it('refuses an unclosed quote', () => {
    expect(splitArgs('--motd "hello')).toEqual({
      ok: false,
      error: 'a " quote is not closed; close it or remove it',
    });
  });
});

describe('parsePorts', () => {
  it('reads name:port with optional protocol and policy, defaults UDP and Dynamic', () => {
    expect(parsePorts('game:7777, query:27015/tcp, rcon:25575/TCP/passthrough')).toEqual({
      ok: true,
      value: [
        { name: 'game', containerPort: 7777, protocol: 'UDP', policy: 'Dynamic' },
        { name: 'query', containerPort: 27015, protocol: 'TCP', policy: 'Dynamic' },
        { name: 'rcon', containerPort: 25575, protocol: 'TCP', policy: 'Passthrough' },
      ],
    });
    expect(parsePorts(' , ')).toEqual({ ok: true, value: [] });
  });

  it.each(['7777/UDP', 'game:0', 'game:65536', 'game:7777/SCTP', 'ga me:1', '-game:1'])(
    'refuses %j',
    (text) => {
      const result = parsePorts(text);
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.error).toContain(`"${text}" is not a port`);
    },
  );

  it('states the port range as the request schema does (issue 30, 6)', () => {
    for (const text of ['game:0', 'game:65536', 'game:99999']) {
      const result = parsePorts(text);
      expect(result.ok ? '' : result.error).toContain('expected a port number from 1 to 65535');
    }
    const refused = port().safeParse(70000);
    expect(refused.success ? '' : refused.error.issues[0]?.message).toContain(
      'expected a port number from 1 to 65535',
    );
  });
});

describe('splitList and splitImageRef', () => {
  it('splits lists on commas and drops empty items', () => {
    expect(splitList(' fra-1 ,, ams-1 ,')).toEqual(['fra-1', 'ams-1']);
  });

  it('splits image:tag at the last colon', () => {
    expect(splitImageRef('registry:5000/game:1.2.0')).toEqual({ image: 'registry:5000/game', tag: '1.2.0' });
    expect(splitImageRef('game-server')).toBeUndefined();
    expect(splitImageRef('game-server:')).toBeUndefined();
    expect(splitImageRef(':1.0')).toBeUndefined();
  });
});
