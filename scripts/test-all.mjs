#!/usr/bin/env node
// Runs every suite (unit, API end-to-end, browser) and prints one closing line:
// "N passed, N failed, N skipped". Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
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
  { name: 'API journeys on Node 24', report: 'apps/api/test-results/node24.json' },
];

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) problems.push(`${label} exited with ${result.status ?? result.signal}`);
  return result.status === 0;
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
check('typecheck', run('typecheck', 'pnpm', ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']));
check('lint', run('lint', 'pnpm', ['run', 'lint']));
run('unit and API tests', 'pnpm', ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue', '--output-logs=full']);
run('browser tests', 'pnpm', ['--filter', '@taleloom/web', 'run', 'test:e2e']);
// The built API on Node 24 (installed from the npm registry by the suite); everything else runs on this Node.
run('API journeys on Node 24', 'pnpm', ['--filter', '@taleloom/api', 'run', 'test:node24']);

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
