// What every package's dependency-cruiser configuration shares: no import circles, every import
// resolves, TypeScript (type imports included) read through the package's tsconfig.

const baseRules = [
  {
    name: 'no-circular',
    comment: 'Modules must not import each other in a circle.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'not-to-unresolvable',
    comment: 'Every import resolves.',
    severity: 'error',
    from: {},
    to: { couldNotResolve: true },
  },
];

const options = {
  doNotFollow: { path: 'node_modules' },
  tsPreCompilationDeps: true,
  tsConfig: { fileName: 'tsconfig.json' },
  // Packages' "exports" (a subpath such as @taleloom/contracts/error-code), as Node resolves them.
  enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['require', 'import', 'node', 'default', 'types'] },
  exclude: { path: '(^|/)(dist|node_modules)/' },
};

module.exports = { baseRules, options };
