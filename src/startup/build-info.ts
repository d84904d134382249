/** What `harbor_build_info` reports: the package version, the commit the build came from, the Node running it. */
import { readFileSync } from 'node:fs';
import type { BuildInfo } from '../runtime/metrics.js';
import { projectFile } from '../runtime/project-files.js';

// The package.json the image also ships.
const PACKAGE_JSON = projectFile('package.json');

/** The running build; `commit` comes from the config (HARBOR_BUILD_COMMIT, set by the image). */
export function buildInfo(commit: string): BuildInfo {
  let version = 'unknown';
  try {
    const pkg = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown };
    if (typeof pkg.version === 'string') version = pkg.version;
  } catch {
    // A build info without a version is still worth exporting; nothing else depends on it.
  }
  return { version, commit, node: process.versions.node };
}
