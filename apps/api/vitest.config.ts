/** API tests: unit specs beside the code, end-to-end specs in test/ on a real (embedded) database. */
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig, type Plugin } from 'vitest/config';
import { SlowestFirst } from './test/slowest-first';

// The build's transform (.swcrc: decorators and their metadata, which Nest's injection reads), but for
// its `exclude` (the specs, which the build leaves out), its source maps (vitest asks for its own) and its
// module type: vitest loads ES modules. `swcrc: false`, or swc reads the file again and refuses every spec.
const { $schema: _schema, exclude: _specs, sourceMaps: _maps, module: _module, ...build } = JSON.parse(
  readFileSync(join(__dirname, '.swcrc'), 'utf8'),
) as Record<string, unknown>;

// Packages resolve as the built app (CommonJS) resolves them, through Node's require: one copy of each for
// the tests, the app and the app's own require() calls. Vite's resolver would take a package's `import`
// entry where it lists one first (openai/error.mjs beside the index.js the rest loads: two APIError
// classes, and instanceof fails).
const resolveAsRequire: Plugin = {
  name: 'resolve-as-require',
  enforce: 'pre',
  resolveId(source, importer) {
    if (!importer || /^[./\0]/.test(source) || isBuiltin(source) || /^(vitest|@vitest\/|vite$)/.test(source)) return null;
    try {
      return createRequire(importer).resolve(source);
    } catch {
      return null;
    }
  },
};

export default defineConfig({
  plugins: [resolveAsRequire, swc.vite({ ...build, swcrc: false, configFile: false, module: { type: 'es6' } })],
  test: {
    globals: true,
    environment: 'node',
    include: ['src/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    // The journeys on Node 24 run on their own (vitest.node24.config.ts, `pnpm test:node24`).
    exclude: ['**/node_modules/**', 'test/node24/**'],
    globalSetup: ['test/global-setup.ts'],
    // Reads what the global setup provides (the database's address) into process.env for test-app.ts.
    // setup-built-workers.ts: the app's worker threads start on the built modules while dist/ is fresh.
    setupFiles: ['test/setup-database-env.ts', 'test/setup-built-workers.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The workspace's contracts package as built (dist/cjs), loaded by Node like the packages around it.
    server: { deps: { external: [/\/packages\/contracts\/dist\//] } },
    // Three worker processes on 2 cores: the files wait on the apps they start as processes, on restarts
    // and on the one-send-per-second rule, and with two workers the cores sat 17 % idle (a whole run:
    // 226 s and 5 % idle with three, 247 s with two, in one hour). Each loads Nest, mongoose, the MongoDB
    // driver and the app's modules once and runs its files one after another: every test builds its app
    // from an explicit config (createTestApp), so files share the loaded modules, not state.
    pool: 'forks',
    maxWorkers: 3,
    isolate: false,
    // The slowest files first (a fresh clone has no timing cache): the workers finish together.
    sequence: { sequencer: SlowestFirst },
  },
});
