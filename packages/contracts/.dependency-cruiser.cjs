// Contracts are imported by the browser and the server alike: they import nothing but class-validator
// and class-transformer (no Node built-ins, no Nest, no Swagger), and no file imports a circle.

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contracts-import-nothing',
      comment: 'Contracts may import only class-validator and class-transformer (the browser imports them too).',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'], pathNot: 'node_modules/(class-validator|class-transformer)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
  },
};
