// The linter of `npm test` (docs/linting.md says why each rule is on and how to fix what it reports).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'bench/results/', 'console/', 'completions/', '.gw-test-*/'] },
  js.configs.recommended,
  // TypeScript: every rule of typescript-eslint's type-checked "recommended" set, with type information from
  // tsconfig.eslint.json (src/, test/ and the root config files).
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      // Off on purpose (docs/linting.md): an async function that does not await still turns a throw into a
      // rejection, which callers of a Promise-returning interface rely on; dropping `async` would change that.
      '@typescript-eslint/require-await': 'off',
      // Off on purpose: the decoders write String(field ?? '') over provider JSON, which the rule cannot prove is
      // a scalar; a typeof check instead would change what gw forwards when a provider sends a number.
      '@typescript-eslint/no-base-to-string': 'off',
      // A caught value or an abort reason is passed on as it came: it is whatever was thrown.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  // Tests read JSON answers (`await response.json()`, JSON.parse of audit lines) and check them with expect():
  // the assertion is the type check there, so the any-tracking rules and the method-reference rule (expect(mock.fn))
  // are off in test/. They stay errors in src/.
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  // Plain JavaScript (bench/, scripts/, the test fixtures run as child processes, this file): eslint's own
  // recommended rules, without type information (node's globals come from TypeScript's lib for .ts files).
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { sourceType: 'module', globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', fetch: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', performance: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly', module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }] },
  },
);
