// One lint configuration for the whole monorepo (each package runs `eslint .` through turbo).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/bench-builds/**', '**/node_modules/**', '**/test-results/**', '**/coverage/**', '**/.turbo/**', '**/.data/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // NestJS modules are classes with decorators and no members.
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/api/**/*.ts', 'scripts/**/*.mjs', 'apps/web/bench/**/*.mjs', 'apps/web/build/**/*.mjs', '**/*.config.{js,ts,mjs}', 'apps/web/e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The embedded stand-in does not apply positional update paths or arrayFilters (the conformance test,
    // apps/api/test/stand-in-conformance.e2e-spec.ts, shows it): address array elements by index instead.
    files: ['apps/api/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/\\.\\$(\\[|\\.|$)/], TemplateElement[value.raw=/\\.\\$(\\[|\\.|$)/]',
          message: 'Positional update paths ($, $[], $[id]) are not applied by the embedded stand-in: update the element by its index.',
        },
        {
          selector: 'Property[key.name="arrayFilters"]',
          message: 'arrayFilters are not applied by the embedded stand-in: update the element by its index.',
        },
      ],
    },
  },
  {
    // dependency-cruiser configurations (CommonJS).
    files: ['**/*.cjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['apps/api/**/*.js'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
