import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Browser tests: the built app in real Chromium (see e2e/global-setup.ts). */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    expect: { poll: { timeout: 10_000, interval: 100 } },
    reporters: ['default', 'json'],
    outputFile: { json: '../test-results/e2e.json' },
  },
});
