// The web app's layering, checked by `pnpm lint` (dependency-cruiser). docs/architecture.md describes it.
// Imports flow one way: lib -> components -> features -> app. A feature never imports another
// feature: screens compose features in app/routes. Unit tests may also use app/ and src/test/.
const { baseRules, options } = require('../../dependency-cruiser.base.cjs');
const TEST_FILE = '\\.(test|spec)\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // Modules a build plugin makes (virtual:antd.css, build/antd-styles.ts) resolve in Vite only.
    ...baseRules.map((rule) => (rule.name === 'not-to-unresolvable' ? { ...rule, to: { ...rule.to, pathNot: '^virtual:' } } : rule)),
    {
      name: 'no-cross-feature',
      comment: 'A feature does not import another feature: share through components, lib or contracts, or compose them in app/routes.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'features-not-to-app',
      comment: 'Features are composed by app/, never the other way (unit tests may render through app/providers).',
      severity: 'error',
      from: { path: '^src/features/', pathNot: TEST_FILE },
      to: { path: '^src/(app|test)/' },
    },
    {
      name: 'components-are-feature-free',
      comment: 'src/components is shared, feature-free UI: it imports lib, never features or app.',
      severity: 'error',
      from: { path: '^src/components/', pathNot: TEST_FILE },
      to: { path: '^src/(features|app|test)/' },
    },
    {
      name: 'lib-is-the-ground-floor',
      comment: 'src/lib imports no component, feature or screen.',
      severity: 'error',
      from: { path: '^src/lib/', pathNot: TEST_FILE },
      to: { path: '^src/(components|features|app|test)/' },
    },
    {
      name: 'no-test-code-in-app',
      comment: 'App code does not import test helpers.',
      severity: 'error',
      from: { path: '^src/', pathNot: [TEST_FILE, '^src/test/'] },
      to: { path: ['^src/test/', TEST_FILE, '^e2e/'] },
    },
  ],
  options,
};
