/**
 * Arguments as one line that reads back as the same list (issue 18.13):
 * `--mode "capture the flag"` is two arguments, `--mode capture the flag`
 * four. An argument that is empty or holds whitespace, a quote or a
 * backslash is double-quoted, with `"` and `\` escaped, as the forms and
 * `--args` read them (slack/modals/parse-text.ts `splitArgs`).
 */
export function argsText(args: readonly string[]): string {
  return args
    .map((a) => (/^[^\s"'\\]+$/.test(a) ? a : `"${a.replace(/["\\]/g, (c) => `\\${c}`)}"`))
    .join(' ');
}
