/** The API journeys on Node 24 (test/node24): the built app started with Node 24 from the npm registry. */
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/node24/**/*.e2e-spec.ts'],
    exclude: ['**/node_modules/**'],
    // The app runs in its own process on its own embedded database: no shared test database to start.
    globalSetup: [],
    setupFiles: [],
    maxWorkers: 1,
  },
});
