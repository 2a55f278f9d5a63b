// A node:test reporter that writes a jest-shaped JSON report (what test-summary.mjs reads):
// node --test --test-reporter=./scripts/node-test-report.mjs --test-reporter-destination=out.json
// A file that fails outside any test (an import error) is a failed file with no test results.
export default async function* jestShapedReport(source) {
  const files = new Map();
  const fileOf = (name) => {
    if (!files.has(name)) files.set(name, { name, status: 'passed', message: '', assertionResults: [] });
    return files.get(name);
  };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, file: path, details, skip, todo } = event.data;
    if (!path) continue;
    const file = fileOf(path);
    const failed = event.type === 'test:fail';
    const error = details?.error;
    if (nesting === 0 && name === path) {
      // The file itself, as a test: it failed outside its tests.
      if (failed) {
        file.status = 'failed';
        // node:test says only "test failed" here; the file's own error is in its output above.
        file.message ||= 'the file failed outside its tests (its error is printed above)';
      }
      continue;
    }
    if (details?.type === 'suite') {
      if (failed) {
        file.status = 'failed';
        file.message ||= `${name}: ${error?.cause?.message ?? error?.message ?? 'failed'}`;
      }
      continue;
    }
    if (failed) file.status = 'failed';
    file.assertionResults.push({
      title: name,
      fullName: name,
      status: failed ? 'failed' : skip || todo ? 'pending' : 'passed',
      failureMessages: failed ? [String(error?.cause?.stack ?? error?.stack ?? error?.message ?? 'failed')] : [],
    });
  }
  const testResults = [...files.values()];
  const tests = testResults.flatMap((f) => f.assertionResults);
  yield JSON.stringify({
    success: testResults.every((f) => f.status === 'passed'),
    numPassedTests: tests.filter((t) => t.status === 'passed').length,
    numFailedTests: tests.filter((t) => t.status === 'failed').length,
    numPendingTests: tests.filter((t) => t.status === 'pending').length,
    testResults,
  });
}
