/**
 * `pnpm bench`: every benchmark the issues name, in one run, on the embedded defaults (a fresh embedded
 * database in a process of its own for each, or MONGODB_URI) and a local OpenAI-compatible stub; then one table
 * with medians, p99s and the ratio to the direct or baseline figure measured in the same run, also
 * written to bench-results/latest.json at the repository root. It never fails on a time (only on a
 * broken run or ledger drift).
 *
 *   pnpm bench                         all of them
 *   BENCH_ONLY=play,stories pnpm bench some of them
 *   BENCH_ONLY=burst BENCH_BURST_LEVELS=100 BENCH_BURST_ROUNDS=1 pnpm bench   a quick burst run (see burst.bench.ts)
 *   pnpm --filter @taleloom/api bench:play   one, with its own detailed print-out
 */
import 'reflect-metadata';
import { join, resolve } from 'node:path';
import { run as burst } from './burst.bench';
import { run as files } from './files.bench';
import { run as lore } from './lore.bench';
import { run as play } from './play.bench';
import { run as power } from './power.bench';
import { run as restart } from './restart.bench';
import { run as signIn } from './sign-in.bench';
import { run as stalls } from './stalls.bench';
import { run as stories } from './stories.bench';
import { startDatabaseProcess } from './support/processes';
import { printTable, writeJson } from './support/report';

const apiDir = resolve(__dirname, '..');
const output = join(apiDir, '..', '..', 'bench-results', 'latest.json');

/** The embedded database in a process of its own, so its work does not share the clients' event loop. */
async function startDatabase(): Promise<{ uri: string; kind: string; stop(): Promise<void> }> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, kind: 'MONGODB_URI', stop: async () => undefined };
  return startDatabaseProcess();
}

async function main(): Promise<void> {
  const suites: [string, () => Promise<void>][] = [
    ['power', power],
    ['stories', stories],
    ['files', files],
    ['lore', lore],
    ['play', play],
    ['burst', burst],
    ['sign-in', signIn],
    ['stalls', stalls],
    ['restart', restart],
  ];
  // Suites that start a fresh database process of their own for each part (burst: one per level; sign-in:
  // one per API process; restart: the embedded database inside the API, in a DATA_DIR of its own).
  const ownDatabase = new Set(['burst', 'sign-in', 'restart']);
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const configured = process.env.MONGODB_URI;
  const started = Date.now();
  const failures: string[] = [];
  let kind = 'MONGODB_URI';
  for (const [name, run] of suites) {
    if (only && !only.includes(name)) continue;
    console.log(`\n======== ${name} ========`);
    // Each benchmark gets a database of its own (a fresh embedded one, or a database name of its own
    // on MONGODB_URI): the embedded stand-in is one process holding everything in memory, so data
    // left by one benchmark would slow the next through its garbage collector.
    process.env.MONGODB_URI = configured ?? '';
    if (!configured) delete process.env.MONGODB_URI;
    if (ownDatabase.has(name) && !configured) {
      if (kind === 'MONGODB_URI') kind = 'embedded, a process of its own';
      try {
        await run();
      } catch (error) {
        failures.push(name);
        console.error(`${name} benchmark failed:`, error);
      }
      continue;
    }
    const database = await startDatabase();
    try {
      const uri = new URL(database.uri);
      uri.pathname = `/bench_${name}`;
      process.env.MONGODB_URI = uri.toString();
      await run();
    } catch (error) {
      failures.push(name);
      console.error(`${name} benchmark failed:`, error);
    } finally {
      kind = database.kind;
      await database.stop();
    }
  }
  printTable();
  writeJson(output, { database: kind, seconds: Math.round((Date.now() - started) / 1000), failures });
  console.log(`\nWritten to ${output}`);
  // A benchmark that found drift in the ledger says so with the exit code.
  if (process.exitCode) failures.push('ledger drift');
  if (failures.length) {
    console.error(`Failed: ${failures.join(', ')}`);
    process.exit(1);
  }
  process.exit(0);
}

void main();
