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
