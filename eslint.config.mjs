import tseslint from 'typescript-eslint';
import { folderLayers } from './eslint/folder-layers.mjs';

const cartograph = { rules: { 'folder-layers': folderLayers } };

export default tseslint.config(
  // Of web/, only the dashboard's sources are linted, and only for what they import (below).
  { ignores: ['dist/**', 'node_modules/**', 'web/*', '!web/src/', 'bench/**', 'scripts/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts', 'migrations/**/*.ts', 'test/**/*.ts'],
    extends: [tseslint.configs.recommended],
    plugins: { cartograph },
    rules: {
      'cartograph/folder-layers': 'error',
      // A leading underscore names what is there on purpose and unused (a parameter an interface imposes, a field taken out of a rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A timer cleared by a callback declared before it is set is read before it is assigned.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // class-validator's IsOptional and Swagger's PartialType let null through as well as undefined: a
    // null reaching a NOT NULL column is a 500. src/common/validation/optional.ts says which to use.
    files: ['src/**/*.ts'],
    ignores: ['src/common/validation/optional.ts', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['IsOptional'],
              message: 'Use Optional() (may be left out, never null) or Nullable() (null clears the field; document it nullable) from common/validation/optional.',
            },
            { name: '@nestjs/swagger', importNames: ['PartialType'], message: 'Use PartialUpdate() from common/validation/optional: PartialType lets null through every field.' },
            {
              name: '@nestjs/mapped-types',
              importNames: ['PartialType'],
              message: 'Use PartialUpdate() from common/validation/optional: PartialType lets null through every field.',
            },
          ],
        },
      ],
    },
  },
  {
    // The dashboard: only which server files it imports (eslint/layers.mjs WEB_IMPORTS). Its own style
    // is left to tsc (web/tsconfig.json).
    files: ['web/src/**/*.ts', 'web/src/**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { cartograph },
    rules: { 'cartograph/folder-layers': 'error' },
  },
  {
    // Tests read answers as loose JSON (the official client's too).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
