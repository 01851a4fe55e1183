// typescript-eslint's recommended rules over the project's TypeScript, with the type-aware
// checks that catch what strict TypeScript does not (promises left floating, awaits of non-promises).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'vendor/', 'dist/', '.cache/', 'content/', 'test/fixtures/', '**/*.d.mts', '**/*.d.cts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // The content checks look for control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    rules: {
      // Only public, documented Node APIs: internals and process-wide V8 flags break on the next Node.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'binding', message: 'process.binding is a Node internal (DEP0111).' },
        { object: 'v8', property: 'setFlagsFromString', message: 'V8 flags are set before a process starts.' },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: {
      globals: { module: 'readonly', process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
  },
  {
    // CommonJS on purpose (the command line's entry, cli.cjs, says why): `require` is its import.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
