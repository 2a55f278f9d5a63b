/** API tests: unit specs beside the code, end-to-end specs in test/ on a real (embedded) database. */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

// The build's transform (.swcrc), but for its `exclude` (the specs, which the build leaves out), its
// source maps (jest's own are inline) and its schema link; `swcrc: false`, or swc reads the file again
// and refuses every spec.
const { $schema: _schema, exclude: _specs, sourceMaps: _maps, ...swc } = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf8'));

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  // The journeys on Node 24 run on their own (jest.node24.config.js, `pnpm test:node24`).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/node24/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }],
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30000,
  // In the package, not the system's temp folder: a fresh clone transforms every file once, as on a
  // fresh CI machine (a cache shared by clones once hid a transform that failed cold).
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
  maxWorkers: 2,
};
