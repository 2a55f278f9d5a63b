import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDatabase } from '../src/database/embedded-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's database server (test-app.ts gives each app a database of its own on it). */
    testDatabase: { uri: string; kind: string };
  }
}

/** One database server for the whole run; each app gets its own database on it (see test-app.ts). Answers its stop. */
export default async function globalSetup(project: TestProject): Promise<() => Promise<void>> {
  // Every folder the run's tests, apps and child processes make in the temporary directory goes into one
  // folder of the run (the workers and the apps they start inherit TMPDIR), removed when the run ends.
  const runTmp = mkdtempSync(join(tmpdir(), 'taleloom-test-run-'));
  process.env.TMPDIR = runTmp;
  let line = '';
  const handle = await startDatabase({
    uri: process.env.TEST_MONGODB_URI,
    mode: (process.env.EMBEDDED_DATABASE as 'auto' | 'memory-server' | 'stand-in' | undefined) ?? 'auto',
    log: (m) => {
      line ||= m;
      process.stdout.write(`\n[test database] ${m}\n`);
    },
  });
  project.provide('testDatabase', { uri: handle.uri, kind: handle.kind });
  // Beside the JSON report: the summary of `pnpm test` says which database proved the suite.
  const results = join(__dirname, '..', 'test-results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'database.json'), `${JSON.stringify({ kind: handle.kind, line: line.replace(/^Database: /, '') })}\n`);
  return async () => {
    await handle.stop();
    rmSync(runTmp, { recursive: true, force: true });
  };
}
