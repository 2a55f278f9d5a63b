// Reads the suites' JSON reports (jest --json, vitest's json reporter, node:test through
// node-test-report.mjs: all jest-shaped) and the checks' outcomes, and says what happened in lines a
// person reads and one closing line CI reads: "N passed, N failed, N skipped".
//
// - A test file that failed with no failed test in it (an import error, a failing beforeAll or
//   afterAll, a runner that died) is a crashed file: one failure, named; its tests that did not run
//   are not counted as skipped.
// - A suite with no report counts as one failure, named.
// - Checks that are not tests (build, typecheck, lint, compose) are not counted as passed; a failing
//   check counts in "failed", and the checks line says so.
// - A test that passed on a retry is counted as passed and listed as flaky.
// - Tests whose title holds REAL_MONGODB_TAG need a real MongoDB (unique indexes, transactions): the
//   summary says which database the API suite ran on and how many of them it skipped.

/** In the title of an API test that only a real MongoDB can prove (apps/api/test/real-mongodb.ts). */
export const REAL_MONGODB_TAG = '[real MongoDB]';

const fileName = (name, root) => (root && name.startsWith(root) ? name.slice(root.length).replace(/^\/+/, '') : name);
const firstLine = (text) => String(text ?? '').split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('●')) ?? '';

/** One suite's report (or undefined when the suite wrote none). */
export function summariseSuite(name, report, { root = '' } = {}) {
  const out = { name, passed: 0, failed: 0, skipped: 0, crashed: [], failedTests: [], flaky: [], realMongo: { ran: 0, skipped: 0 } };
  if (!report) {
    out.failed = 1;
    out.crashed.push(`${name}: no report (the runner exited before writing one)`);
    return out;
  }
  for (const file of report.testResults ?? []) {
    const where = fileName(file.name, root);
    const tests = file.assertionResults ?? [];
    const failedHere = tests.filter((t) => t.status === 'failed');
    const crashed = file.status === 'failed' && failedHere.length === 0;
    for (const t of tests) {
      const title = t.fullName || t.title;
      const tagged = title.includes(REAL_MONGODB_TAG);
      if (t.status === 'passed') {
        out.passed += 1;
        if (tagged) out.realMongo.ran += 1;
        // jest: invocations > 1 (jest.retryTimes); vitest: a passed test keeps the errors of its failed tries.
        const tries = t.invocations ?? (1 + (t.meta?.retryCount ?? 0));
        if (tries > 1 || (t.failureMessages ?? []).length > 0) {
          out.flaky.push(`${where} > ${title} (passed on try ${Math.max(tries, 2)}: ${firstLine(t.failureMessages?.[0] ?? t.retryReasons?.[0]) || 'an earlier try failed'})`);
        }
      } else if (t.status === 'failed') {
        out.failed += 1;
        out.failedTests.push(`${where} > ${title}`);
      } else if (!crashed) {
        out.skipped += 1;
        if (tagged) out.realMongo.skipped += 1;
      }
    }
    if (crashed) {
      out.failed += 1;
      const notRun = tests.filter((t) => t.status !== 'passed').length;
      out.crashed.push(`${where}: ${firstLine(file.message ?? file.failureMessage) || 'failed with no test failing'}${notRun ? ` (${notRun} of its tests did not run)` : ''}`);
    }
  }
  // A runner that says it failed while no file shows why still fails the suite.
  if (report.success === false && out.failed === 0) {
    out.failed = 1;
    out.crashed.push(`${name}: the runner reported a failure that no test file shows`);
  }
  if (out.passed + out.failed === 0) {
    out.failed = 1;
    out.crashed.push(`${name}: ran no test`);
  }
  return out;
}

/**
 * The whole run: suites (name, report or undefined, optional database line), checks ({ label, ok }),
 * runs that exited non-zero (labels). Returns the lines to print and the exit code.
 */
export function summariseRun({ suites, checks = [], exits = [], root = '' }) {
  const lines = [];
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const flaky = [];
  for (const s of suites) {
    const r = summariseSuite(s.name, s.report, { root });
    totals.passed += r.passed;
    totals.failed += r.failed;
    totals.skipped += r.skipped;
    lines.push(`${s.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
    if (s.database) {
      lines.push(`  database: ${s.database}; tests that need a real MongoDB (${REAL_MONGODB_TAG}): ${r.realMongo.ran} ran, ${r.realMongo.skipped} skipped`);
    }
    for (const c of r.crashed) lines.push(`  crashed: ${c}`);
    for (const f of r.failedTests) lines.push(`  failed: ${f}`);
    flaky.push(...r.flaky);
  }
  const failedChecks = checks.filter((c) => !c.ok);
  if (checks.length > 0) {
    const list = checks.map((c) => `${c.label} ${c.ok ? 'ok' : 'FAILED'}`).join(', ');
    lines.push(`checks (not tests): ${list}${failedChecks.length ? ` (${failedChecks.length} counted in "failed" below)` : ''}`);
  }
  totals.failed += failedChecks.length;
  if (flaky.length > 0) {
    lines.push(`flaky (passed on a retry, counted as passed): ${flaky.length}`);
    for (const f of flaky) lines.push(`  flaky: ${f}`);
  }
  const checkLabels = new Set(checks.map((c) => c.label));
  const strayExits = exits.filter((label) => !checkLabels.has(label));
  // A runner that exited non-zero while its report shows no failure: say so, and fail the run.
  if (strayExits.length > 0 && totals.failed === 0) {
    totals.failed += strayExits.length;
    for (const e of strayExits) lines.push(`problem: ${e} exited non-zero with no failure in its report (counted in "failed")`);
  }
  lines.push(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return { lines, totals, exitCode: totals.failed === 0 ? 0 : 1 };
}
