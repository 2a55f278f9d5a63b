#!/usr/bin/env node
// Runs every suite (unit, API end-to-end, browser) and prints one closing line:
// "N passed, N failed, N skipped". Exits non-zero on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };

// Each suite writes a jest-compatible JSON report (jest --json, vitest's json reporter).
const suites = [
  { name: 'contracts unit', report: 'packages/contracts/test-results/vitest.json' },
  { name: 'api unit + end-to-end', report: 'apps/api/test-results/jest.json' },
  { name: 'web unit', report: 'apps/web/test-results/vitest.json' },
  { name: 'browser (Chromium)', report: 'apps/web/test-results/e2e.json' },
];

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) problems.push(`${label} exited with ${result.status ?? result.signal}`);
  return result.status === 0;
}

/**
 * Starts a step at the lowest CPU priority (nice 19), its output kept in a file until the
 * function it answers is awaited, which prints it.
 * The API suite leaves part of the machine idle while its tests wait on their apps (streams, restarts,
 * timers); a step started this way runs in that idle time and takes nothing from the tests beside it.
 */
function startLowPriority(label, command, args) {
  const log = join(root, 'test-results', `${label.replace(/\W+/g, '-')}.log`);
  mkdirSync(dirname(log), { recursive: true });
  const fd = openSync(log, 'w');
  const hasNice = spawnSync('nice', ['true'], { stdio: 'ignore' }).status === 0;
  const child = hasNice
    ? spawn('nice', ['-n', '19', command, ...args], { cwd: root, env, stdio: ['ignore', fd, fd] })
    : spawn(command, args, { cwd: root, env, stdio: ['ignore', fd, fd] });
  if (!hasNice) setPriority(child.pid, 19);
  closeSync(fd);
  const ended = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  return async () => {
    const status = await ended;
    console.log(`\n=== ${label} (beside the tests, low priority): ${command} ${args.join(' ')}`);
    process.stdout.write(readFileSync(log, 'utf8'));
    if (status !== 0) problems.push(`${label} exited with ${status}`);
    return status === 0;
  };
}

// A check that is not a test runner counts as one test.
function check(label, ok) {
  if (ok) totals.passed += 1;
  else {
    totals.failed += 1;
  }
}

for (const s of suites) {
  rmSync(join(root, s.report), { force: true });
  mkdirSync(dirname(join(root, s.report)), { recursive: true });
}

check('build', run('build', 'pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']));
// The type checks and lint need only the build: they run beside the unit and API tests, in their idle time.
// `--only` here and for the tests: the build is done, and none of the three turbo runs replays it from
// turbo's cache under the others' feet.
const typecheck = startLowPriority('typecheck', 'pnpm', ['exec', 'turbo', 'run', 'typecheck', '--only', '--output-logs=errors-only']);
const lint = startLowPriority('lint', 'pnpm', ['exec', 'turbo', 'run', 'lint', '--only', '--output-logs=errors-only']);
const knip = startLowPriority('knip', 'pnpm', ['exec', 'knip']);
run('unit and API tests', 'pnpm', ['exec', 'turbo', 'run', 'test', '--only', '--concurrency=1', '--continue', '--output-logs=full']);
check('typecheck', await typecheck());
const [linted, unused] = [await lint(), await knip()];
check('lint', linted && unused);
run('browser tests', 'pnpm', ['--filter', '@taleloom/web', 'run', 'test:e2e']);

if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) {
  check('docker-compose config', run('docker-compose config', 'docker-compose', ['-f', 'docker-compose.yml', 'config', '-q']));
} else {
  console.log('\n=== docker-compose not installed: docker-compose.yml not validated');
}

console.log('\n=== Summary');
for (const s of suites) {
  const file = join(root, s.report);
  if (!existsSync(file)) {
    totals.failed += 1;
    problems.push(`${s.name}: no report at ${s.report} (the suite did not run to the end)`);
    console.log(`${s.name}: NO REPORT`);
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const passed = r.numPassedTests ?? 0;
  const failed = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  if (passed + failed === 0) problems.push(`${s.name}: ran no test`);
  console.log(`${s.name}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}
for (const p of problems) console.log(`problem: ${p}`);
const ok = totals.failed === 0 && problems.length === 0;
if (!ok && totals.failed === 0) totals.failed = problems.length;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok ? 0 : 1);
