/**
 * The Node.js lines Harbormaster runs on: the maintained LTS lines. Node 20
 * left maintenance on 2026-04-30, and better-sqlite3 13 (the embedded store)
 * needs Node 22 or newer: on 20 its prebuilt addon crashes the process instead
 * of failing cleanly, so start-up checks the version before anything loads it.
 * `engines` in package.json says the same; a test holds the two equal.
 */
export const SUPPORTED_NODE_MAJORS = [22, 24, 26] as const;

/** The oldest 22.x: `require(esm)` and the stable `--experimental-vm-modules` behaviour jest relies on. */
const MIN_22_MINOR = 12;

/** Why `version` (as in `process.versions.node`) cannot run the bot, or undefined when it can. */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = Number.NaN, minor = Number.NaN] = version.split('.').map(Number);
  const supported = (SUPPORTED_NODE_MAJORS as readonly number[]).includes(major);
  if (supported && !(major === 22 && minor < MIN_22_MINOR)) return undefined;
  return (
    `Harbormaster needs Node.js 22.${MIN_22_MINOR}+, 24 or 26 (a maintained LTS line); this is Node ${version}. ` +
    'Run it through npm (`npm start`), which uses the Node the project installs, or install a supported Node.'
  );
}
