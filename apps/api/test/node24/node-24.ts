// Node.js 24 for the journeys, from the npm registry: the `node-<platform>-<arch>` package holds the
// official binary, so nothing is downloaded from anywhere else. Installed once into the package's
// node_modules/.cache (ignored by git); a fresh CI machine installs it in about 10 s.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_LINE = 24;

const PACKAGE = `node-${process.platform}-${process.arch}`;
const CACHE = join(__dirname, '..', '..', 'node_modules', '.cache', `node${NODE_LINE}`);
const BINARY = join(CACHE, 'node_modules', PACKAGE, 'bin', 'node');
const INSTALL_TIMEOUT_MS = 180_000;

/** The version of the Node.js at `binary` (e.g. "24.11.0"), or undefined when it does not run. */
export function versionOf(binary: string): string | undefined {
  if (!existsSync(binary)) return undefined;
  const run = spawnSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 30_000 });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

const onLine = (version: string | undefined) => version?.split('.')[0] === String(NODE_LINE);

/**
 * The path of a Node.js 24 binary: the cached one, else installed now with npm. Throws with npm's own
 * words when it cannot be had (no registry, no package for this platform): the suite fails, never skips.
 */
export function node24(): string {
  if (onLine(versionOf(BINARY))) return BINARY;
  mkdirSync(CACHE, { recursive: true });
  const args = ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', CACHE, `${PACKAGE}@${NODE_LINE}`];
  const install = spawnSync('npm', args, { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
  const version = versionOf(BINARY);
  if (!onLine(version)) {
    const why = install.error ? install.error.message : `${install.stdout}${install.stderr}`.trim();
    throw new Error(
      `Node.js ${NODE_LINE} could not be had from the npm registry (npm ${args.join(' ')}): ` +
        `${version ? `it installed Node.js ${version}` : `exit ${install.status ?? install.signal}`}\n${why}`,
    );
  }
  return BINARY;
}
