/** API tests: unit specs beside the code, end-to-end specs in test/ on a real (embedded) database. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// The build's transform (.swcrc: decorators and their metadata, which Nest's injection reads), but for
// its `exclude` (the specs, which the build leaves out), its source maps (vitest asks for its own) and its
// module type: vitest loads ES modules. `swcrc: false`, or swc reads the file again and refuses every spec.
const { $schema: _schema, exclude: _specs, sourceMaps: _maps, module: _module, ...build } = JSON.parse(
  readFileSync(join(__dirname, '.swcrc'), 'utf8'),
) as Record<string, unknown>;

export default defineConfig({
  plugins: [swc.vite({ ...build, swcrc: false, configFile: false, module: { type: 'es6' } })],
  // The packages as the built app (CommonJS) loads them: their `require` entries, so the tests and the
  // app's own require() calls share one copy of each (and subpaths only `require` exports, such as
  // gpt-tokenizer/cjs/*, resolve).
  ssr: { resolve: { conditions: ['require', 'node'], externalConditions: ['require', 'node'] } },
  test: {
    globals: true,
    environment: 'node',
    include: ['src/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    // The journeys on Node 24 run on their own (vitest.node24.config.ts, `pnpm test:node24`).
    exclude: ['**/node_modules/**', 'test/node24/**'],
    globalSetup: ['test/global-setup.ts'],
    // Reads what the global setup provides (the database's address) into process.env for test-app.ts.
    setupFiles: ['test/setup-database-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two worker processes, each loading Nest, mongoose, the MongoDB driver and the app's modules once
    // and running its files one after another: every test builds its app from an explicit config
    // (createTestApp), so files share the loaded modules, not state.
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
  },
});
