#!/usr/bin/env node
// Runs the checks (build, typecheck, lint, compose) and every suite (scripts, unit, API end-to-end,
// browser), then prints what happened and one closing line, "N passed, N failed, N skipped", counting
// tests only (test-summary.mjs says how). Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summariseRun } from './test-summary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };

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

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  console.log(`=== ${label}: exit ${result.status ?? result.signal} after ${Math.round((Date.now() - started) / 1000)} s`);
  if (result.status !== 0) exits.push(label);
  return result.status === 0;
}

function check(label, command, args) {
  checks.push({ label, ok: run(label, command, args) });
}

for (const s of suites) {
  for (const path of [s.report, s.database]) if (path) rmSync(join(root, path), { force: true });
  mkdirSync(dirname(join(root, s.report)), { recursive: true });
}

check('build', 'pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
check('typecheck', 'pnpm', ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']);
check('lint', 'pnpm', ['run', 'lint']);
run('scripts tests', process.execPath, [
  '--test',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/node-test-report.mjs', `--test-reporter-destination=${suites[0].report}`,
  'scripts/test-summary.test.mjs',
]);
run('unit and API tests', 'pnpm', ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue', '--output-logs=full']);
run('browser tests', 'pnpm', ['--filter', '@taleloom/web', 'run', 'test:e2e']);
// The built API on Node 24 (installed from the npm registry by the suite); everything else runs on this Node.
run('API journeys on Node 24', 'pnpm', ['--filter', '@taleloom/api', 'run', 'test:node24']);

if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) {
  check('docker-compose config', 'docker-compose', ['-f', 'docker-compose.yml', 'config', '-q']);
} else {
  console.log('\n=== docker-compose not installed: docker-compose.yml not validated');
}

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

console.log('\n=== Summary');
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
