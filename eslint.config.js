// ESLint: the recommended rules of ESLint and typescript-eslint, plus the type-aware promise rules
// (the stores are asynchronous: a forgotten `await` is a lost write or an unhandled rejection).
// Formatting is Prettier's job.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'data/', 'bench/node_modules/', 'bench/results/', 'web/src/api-schema.d.ts']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `const { body: _body, ...rest } = x` drops a field on purpose; `_` marks what is unused by design.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // The service refuses control characters in headers, names and JSON text: those patterns match them on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // The browser app (its own web/tsconfig.json, found by the project service).
    files: ['web/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      // Scripts outside tsconfig.json's include get its default compiler options.
      parserOptions: { projectService: { allowDefaultProject: ['scripts/*.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's describe/it return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
