/** API tests: unit specs beside the code, end-to-end specs in test/ on a real (embedded) database. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        // Not .swcrc: it is the build's, which leaves the specs out. The same transform otherwise.
        swcrc: false,
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          keepClassNames: true,
          target: 'es2022',
        },
      },
    ],
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 30000,
  // In the package, not the system's temp folder: a fresh clone transforms every file once, as on a
  // fresh CI machine (a cache shared by clones once hid a transform that failed cold).
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
  maxWorkers: 2,
};
