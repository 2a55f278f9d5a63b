import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './slowest-first';

/** Browser tests: the built app in real Chromium (see e2e/global-setup.ts). */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.e2e-spec.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // The global setup's stop waits for the app to exit (it writes its database as it goes): at most 30 s.
    teardownTimeout: 40_000,
    // Three files at a time against the one app: each test signs up users of its own and names its
    // stories uniquely, so files do not depend on each other. A browser test waits on the page (a
    // stream, a poll, an animation) for part of its time, so with two files at a time the 2 cores stood
    // about a quarter idle. The whole suite on 2 cores, screenshots off as in CI, one run each: 421 s
    // with two files at a time, 352 s with three, 395 s with four; no retries needed. E2E_WORKERS
    // chooses another number.
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS) || 3,
    // Each worker loads playwright-core and the helpers once, not once a file: importing them took 50 s
    // of the suite's CPU over its 19 files (about 2.6 s a file). Nothing a test needs lives in a shared
    // module's state (each file launches its own browser and makes its own users).
    isolate: false,
    // The slowest files first (a fresh clone has no timing cache): the workers finish together.
    sequence: { sequencer: SlowestFirst },
    // One more try for a test that fails: real Chromium against the built app on a loaded 2-core
    // machine has rare timing flakes. A failed try still prints its page's trace (browser.ts), so a
    // flake stays visible in the log; a test that fails twice fails the run.
    retry: 1,
    expect: { poll: { timeout: 10_000, interval: 100 } },
    reporters: ['default', 'json'],
    outputFile: { json: '../test-results/e2e.json' },
  },
});
