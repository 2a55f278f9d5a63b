/** The API journeys on Node 24 (test/node24): the built app started with Node 24 from the npm registry. */
const { mkdirSync } = require('node:fs');
const { join } = require('node:path');
const base = require('./jest.config.js');

// `--outputFile` (the JSON report `pnpm test` counts) does not make its folder: a lone run needs it too.
mkdirSync(join(__dirname, 'test-results'), { recursive: true });

module.exports = {
  ...base,
  roots: ['<rootDir>/test/node24'],
  testPathIgnorePatterns: ['/node_modules/'],
  // The app runs in its own process on its own embedded database: no shared test database to start.
  globalSetup: undefined,
  globalTeardown: undefined,
  maxWorkers: 1,
};
