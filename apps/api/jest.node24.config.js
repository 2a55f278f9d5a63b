/** The API journeys on Node 24 (test/node24): the built app started with Node 24 from the npm registry. */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/node24'],
  testPathIgnorePatterns: ['/node_modules/'],
  // The app runs in its own process on its own embedded database: no shared test database to start.
  globalSetup: undefined,
  globalTeardown: undefined,
  maxWorkers: 1,
};
