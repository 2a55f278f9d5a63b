import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDatabase } from '../src/database/embedded-database';

/** One database server for the whole run; each suite gets its own database on it (see test-app.ts). */
export default async function globalSetup(): Promise<void> {
  let line = '';
  const handle = await startDatabase({
    uri: process.env.TEST_MONGODB_URI,
    mode: (process.env.EMBEDDED_DATABASE as 'auto' | 'memory-server' | 'stand-in' | undefined) ?? 'auto',
    log: (m) => {
      line ||= m;
      process.stdout.write(`\n[test database] ${m}\n`);
    },
  });
  process.env.TEST_DATABASE_URI = handle.uri;
  process.env.TEST_DATABASE_KIND = handle.kind;
  (globalThis as { __TEST_DATABASE__?: typeof handle }).__TEST_DATABASE__ = handle;
  // Beside the JSON report: the summary of `pnpm test` says which database proved the suite.
  const results = join(__dirname, '..', 'test-results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'database.json'), `${JSON.stringify({ kind: handle.kind, line: line.replace(/^Database: /, '') })}\n`);
}
