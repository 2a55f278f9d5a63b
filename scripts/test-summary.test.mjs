// The closing line of `pnpm test` tells the truth: each way a run can go wrong is planted here as the
// report its runner writes (shapes taken from jest 30 --json, vitest 4's json reporter and
// node-test-report.mjs), and the summary must name it and fail the run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REAL_MONGODB_TAG, summariseRun, summariseSuite } from './test-summary.mjs';

const passed = (title, extra = {}) => ({ title, fullName: title, status: 'passed', failureMessages: [], ...extra });
const report = (testResults, extra = {}) => ({ success: testResults.every((f) => f.status === 'passed'), testResults, ...extra });
const file = (name, assertionResults, status = 'passed', message = '') => ({ name, status, message, assertionResults });
const closing = (run) => run.lines.at(-1);

describe('test-summary', () => {
  it('counts a clean run and exits 0', () => {
    const run = summariseRun({ suites: [{ name: 'unit', report: report([file('/r/a.spec.ts', [passed('a'), passed('b')])]) }] });
    assert.equal(closing(run), '2 passed, 0 failed, 0 skipped');
    assert.equal(run.exitCode, 0);
  });

  it('counts a jest file that fails to import as one failure, with its name', () => {
    // jest: status failed, no assertion results, "Test suite failed to run".
    const crashed = file('/r/apps/api/test/broken.e2e-spec.ts', [], 'failed', "  ● Test suite failed to run\n\n    Cannot find module './missing' from 'broken.e2e-spec.ts'");
    const run = summariseRun({ root: '/r', suites: [{ name: 'api', report: report([file('/r/ok.spec.ts', [passed('a')]), crashed]) }] });
    assert.equal(closing(run), '1 passed, 1 failed, 0 skipped');
    assert.ok(run.lines.includes("  crashed: apps/api/test/broken.e2e-spec.ts: Cannot find module './missing' from 'broken.e2e-spec.ts'"), run.lines.join('\n'));
    assert.equal(run.exitCode, 1);
  });

  it('counts a file whose afterAll throws as a failure even though all its tests passed', () => {
    const after = file('/r/after.spec.ts', [passed('a')], 'failed', '\n\n  ● Test suite failed to run\n\n    after boom');
    const run = summariseRun({ root: '/r', suites: [{ name: 'api', report: report([after]) }] });
    assert.equal(closing(run), '1 passed, 1 failed, 0 skipped');
    assert.ok(run.lines.includes('  crashed: after.spec.ts: after boom'));
  });

  it("counts a vitest file whose beforeAll throws (its tests marked skipped) as failed, not skipped, even beside another failure", () => {
    // vitest: the file fails with the hook's message; its tests are "skipped"; numFailedTests stays 0.
    const before = file('/r/e2e/play.e2e-spec.ts', [
      { ...passed('a'), status: 'skipped' },
      { ...passed('b'), status: 'skipped' },
    ], 'failed', 'Chromium not found');
    const other = file('/r/e2e/tour.e2e-spec.ts', [{ ...passed('c'), status: 'failed', failureMessages: ['boom'] }], 'failed');
    const run = summariseRun({ root: '/r', suites: [{ name: 'browser', report: report([before, other], { numFailedTests: 1 }) }] });
    assert.equal(closing(run), '0 passed, 2 failed, 0 skipped');
    assert.ok(run.lines.includes('  crashed: e2e/play.e2e-spec.ts: Chromium not found (2 of its tests did not run)'), run.lines.join('\n'));
    assert.ok(run.lines.includes('  failed: e2e/tour.e2e-spec.ts > c'));
  });

  it('counts a suite whose runner wrote no report as a failure, named', () => {
    const run = summariseRun({ suites: [{ name: 'unit', report: report([file('/a', [passed('a')])]) }, { name: 'browser (Chromium)', report: undefined }] });
    assert.equal(closing(run), '1 passed, 1 failed, 0 skipped');
    assert.ok(run.lines.includes('  crashed: browser (Chromium): no report (the runner exited before writing one)'));
    assert.equal(run.exitCode, 1);
  });

  it('counts a runner that reports failure with no failing file, and one that ran nothing', () => {
    const a = summariseSuite('a', { success: false, testResults: [file('/x', [passed('x')])] });
    assert.equal(a.failed, 1);
    const b = summariseSuite('b', { success: true, testResults: [] });
    assert.deepEqual([b.failed, b.crashed], [1, ['b: ran no test']]);
  });

  it('lists a test that passed only on a retry as flaky (jest invocations, vitest failure messages on a pass)', () => {
    const jestFlaky = passed('rolls back', { invocations: 2 });
    const vitestFlaky = passed('opens the dialog', { meta: {}, failureMessages: ['Error: timed out waiting for the dialog\n    at ...'] });
    const run = summariseRun({ suites: [{ name: 'api', report: report([file('/api.spec.ts', [jestFlaky, passed('steady', { invocations: 1 })])]) }, { name: 'browser', report: report([file('/b.e2e-spec.ts', [vitestFlaky])]) }] });
    assert.equal(closing(run), '3 passed, 0 failed, 0 skipped');
    assert.ok(run.lines.includes('flaky (passed on a retry, counted as passed): 2'));
    assert.ok(run.lines.includes('  flaky: /b.e2e-spec.ts > opens the dialog (passed on try 2: Error: timed out waiting for the dialog)'), run.lines.join('\n'));
    assert.equal(run.exitCode, 0);
  });

  it('prints checks on their own line, counts none as passed, and counts a failing one in "failed"', () => {
    const suites = [{ name: 'unit', report: report([file('/a', [passed('a')])]) }];
    const ok = summariseRun({ suites, checks: [{ label: 'build', ok: true }, { label: 'lint', ok: true }] });
    assert.equal(closing(ok), '1 passed, 0 failed, 0 skipped');
    assert.ok(ok.lines.includes('checks (not tests): build ok, lint ok'));
    const bad = summariseRun({ suites, checks: [{ label: 'build', ok: true }, { label: 'lint', ok: false }], exits: ['lint'] });
    assert.equal(closing(bad), '1 passed, 1 failed, 0 skipped');
    assert.ok(bad.lines.includes('checks (not tests): build ok, lint FAILED (1 counted in "failed" below)'));
    assert.equal(bad.exitCode, 1);
  });

  it('fails the run when a runner exits non-zero with a clean report', () => {
    const run = summariseRun({ suites: [{ name: 'unit', report: report([file('/a', [passed('a')])]) }], exits: ['unit and API tests'] });
    assert.equal(closing(run), '1 passed, 1 failed, 0 skipped');
    assert.equal(run.exitCode, 1);
  });

  it('says which database the API suite ran on and how many real-MongoDB tests it skipped', () => {
    const tagged = (title, status) => ({ ...passed(`unique indexes ${title} ${REAL_MONGODB_TAG}`), status });
    const r = report([file('/api/real.e2e-spec.ts', [tagged('refuse', 'pending'), tagged('hold', 'pending'), passed('plain')])]);
    const run = summariseRun({ suites: [{ name: 'api', report: r, database: 'stand-in (CongoDB, offline)' }] });
    assert.ok(run.lines.includes(`  database: stand-in (CongoDB, offline); tests that need a real MongoDB (${REAL_MONGODB_TAG}): 0 ran, 2 skipped`), run.lines.join('\n'));
    assert.equal(closing(run), '1 passed, 0 failed, 2 skipped');
  });

  it('node-test-report.mjs reports a file that fails to import and a failing before hook', () => {
    const dir = mkdtempSync(join(tmpdir(), 'test-summary-'));
    writeFileSync(join(dir, 'hook.test.mjs'), "import { describe, it, before } from 'node:test';\ndescribe('h', () => { before(() => { throw new Error('hook boom'); }); it('x', () => {}); });\nit('fine', () => {});\n");
    writeFileSync(join(dir, 'import.test.mjs'), "import './missing.mjs';\n");
    const out = join(dir, 'out.json');
    const reporter = fileURLToPath(new URL('./node-test-report.mjs', import.meta.url));
    const child = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, `--test-reporter-destination=${out}`, 'hook.test.mjs', 'import.test.mjs'], {
      cwd: dir,
      encoding: 'utf8',
      // Under `node --test` this variable would make the inner run report to the outer one instead.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined },
    });
    assert.notEqual(child.status, 0);
    const run = summariseRun({ root: dir, suites: [{ name: 'scripts', report: JSON.parse(readFileSync(out, 'utf8')) }] });
    assert.equal(closing(run), '1 passed, 2 failed, 0 skipped', run.lines.join('\n'));
    assert.ok(run.lines.includes('  failed: hook.test.mjs > x'), run.lines.join('\n'));
    assert.ok(run.lines.some((l) => l.startsWith('  crashed: import.test.mjs: ')), run.lines.join('\n'));
  });
});
