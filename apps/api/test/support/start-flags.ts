import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The node flags `pnpm start` runs the API with (apps/api package.json, `start:prod`), so that a
 * benchmark or a crash test runs the built API as it runs in use: the words of that script that start with `--`.
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return (pkg.scripts['start:prod'] ?? '').split(/\s+/).filter((word) => word.startsWith('--'));
}
