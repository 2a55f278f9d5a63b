// Contracts are imported by the browser and the server alike: they import nothing but class-validator
// and class-transformer (no Node built-ins, no Nest, no Swagger), and no file imports a circle.
const { baseRules, options } = require('../../dependency-cruiser.base.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...baseRules,
    {
      name: 'contracts-import-nothing',
      comment: 'Contracts may import only class-validator and class-transformer (the browser imports them too).',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'], pathNot: 'node_modules/(class-validator|class-transformer)/' },
    },
  ],
  options,
};
