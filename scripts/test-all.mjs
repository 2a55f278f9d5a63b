#!/usr/bin/env node
// Runs the checks (build, typecheck, lint, compose) and every suite (scripts, unit, API end-to-end,
// browser), then prints what happened and one closing line, "N passed, N failed, N skipped", counting
// tests only (test-summary.mjs says how). Exits non-zero on any failure.
//
// The build goes first (everything else runs what it makes); then the API suite and the rest, then the
// browser suite. Side by side, the two suites took as long as one after the other on 2 cores (879 s
// against 943 s for a fresh clone) and pushed the crash tests past their time limits. Each step's output
// is kept and printed whole when the step ends, with its times.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summariseRun } from './test-summary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };
const began = Date.now();
const clock = () => `${Math.round((Date.now() - began) / 1000)} s`;

// Each suite writes a jest-shaped JSON report (jest --json, vitest's json reporter, node-test-report.mjs).
const suites = [
  { name: 'scripts', report: 'test-results/scripts.json' },
  { name: 'contracts unit', report: 'packages/contracts/test-results/vitest.json' },
  { name: 'api unit + end-to-end', report: 'apps/api/test-results/jest.json', database: 'apps/api/test-results/database.json' },
  { name: 'web unit', report: 'apps/web/test-results/vitest.json' },
  { name: 'browser (Chromium)', report: 'apps/web/test-results/e2e.json' },
  { name: 'API journeys on Node 24', report: 'apps/api/test-results/node24.json' },
];

const checks = [];
const exits = [];

/** Runs one step to its end, its output kept and printed whole then. Resolves true when it exited 0. */
function run(label, command, args) {
  console.log(`=== ${label}: started at ${clock()}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  return new Promise((done) => {
    const chunks = [];
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const output = Buffer.concat(chunks).toString('utf8');
      console.log(`\n=== ${label}: ${command} ${args.join(' ')}\n${output}${output.endsWith('\n') || !output ? '' : '\n'}`);
      console.log(`=== ${label}: exit ${code ?? signal} after ${Math.round((Date.now() - started) / 1000)} s (at ${clock()})`);
      if (code !== 0) exits.push(label);
      done(code === 0);
    });
  });
}

async function check(label, command, args) {
  checks.push({ label, ok: await run(label, command, args) });
}

/**
 * Waits for the Debian packages that .ci/run installs in the background (Chromium, the CJK fonts,
 * docker-compose) when it names their status file in TALELOOM_SETUP_WAIT: the browser suite and the
 * compose check use them. A failed install is a failed check, with apt's words.
 */
async function setupDone() {
  const file = process.env.TALELOOM_SETUP_WAIT;
  if (!file) return;
  const started = Date.now();
  while (!existsSync(file) && Date.now() - started < SETUP_WAIT_MS) await new Promise((r) => setTimeout(r, 500));
  const status = existsSync(file) ? readFileSync(file, 'utf8').trim() : 'not done';
  const waited = Math.round((Date.now() - started) / 1000);
  console.log(`\n=== Debian packages (installed in the background): ${status === '0' ? 'ok' : `failed (${status})`}, waited ${waited} s (at ${clock()})`);
  if (status !== '0') {
    const log = process.env.TALELOOM_SETUP_LOG;
    if (log && existsSync(log)) console.log(readFileSync(log, 'utf8'));
    exits.push('Debian packages');
  }
  checks.push({ label: 'Debian packages', ok: status === '0' });
}
// apt-get's install took about 30 s on a fresh machine; ten minutes means it hangs.
const SETUP_WAIT_MS = 600_000;

for (const s of suites) {
  for (const path of [s.report, s.database]) if (path) rmSync(join(root, path), { force: true });
  mkdirSync(dirname(join(root, s.report)), { recursive: true });
}

await check('build', 'pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);

// After the build, turbo runs the named tasks alone (--only): a task's ^build would restore the build's
// outputs from the cache, rewriting dist/ that the suites run.
await run('API tests', 'pnpm', ['--filter', '@taleloom/api', 'run', 'test']);
// Type-checking and linting side by side: each alone left a core idle for part of its time (one
// package's tsc or ESLint running last); together they took 52 to 54 s against 56 s one after the other.
await Promise.all([
  check('typecheck', 'pnpm', ['exec', 'turbo', 'run', 'typecheck', '--only', '--output-logs=errors-only']),
  check('lint', 'pnpm', ['exec', 'turbo', 'run', 'lint', '--only', '--output-logs=errors-only']),
]);
// Two at a time where one alone leaves a core idle: knip and the two small suites each run on one
// thread, and the Node 24 journeys wait on their restarts (about 40 % of their time) while the web unit
// tests keep both cores busy.
await Promise.all([
  check('knip', 'pnpm', ['exec', 'knip']),
  run('scripts tests', process.execPath, [
    '--test',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/node-test-report.mjs', `--test-reporter-destination=${suites[0].report}`,
    'scripts/test-summary.test.mjs',
  ]).then(() => run('contracts unit tests', 'pnpm', ['--filter', '@taleloom/contracts', 'run', 'test'])),
]);
await Promise.all([
  run('web unit tests', 'pnpm', ['--filter', '@taleloom/web', 'run', 'test']),
  // The built API on Node 24 (installed from the npm registry by the suite); everything else runs on this Node.
  run('API journeys on Node 24', 'pnpm', ['--filter', '@taleloom/api', 'run', 'test:node24']),
]);
await setupDone();
if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) {
  await check('docker-compose config', 'docker-compose', ['-f', 'docker-compose.yml', 'config', '-q']);
} else {
  console.log('\n=== docker-compose not installed: docker-compose.yml not validated');
}
await run('browser tests', 'pnpm', ['--filter', '@taleloom/web', 'run', 'test:e2e']);

const readJson = (path) => {
  const file = join(root, path);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    console.log(`${path}: unreadable (${error.message})`);
    return undefined;
  }
};

console.log(`\n=== Summary (after ${clock()})`);
const summary = summariseRun({
  root,
  checks,
  exits,
  suites: suites.map((s) => {
    const database = s.database && readJson(s.database);
    // The database's one line, to its first sentence: which one, where, and why.
    const line = database ? `${database.kind}: ${database.line.split('. ')[0]}` : s.database ? 'unknown (the suite wrote no database line)' : undefined;
    return { name: s.name, report: readJson(s.report), database: line };
  }),
});
for (const line of summary.lines) console.log(line);
process.exit(summary.exitCode);
