import tseslint from 'typescript-eslint';
import { folderLayers } from './eslint/folder-layers.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'web/**', 'bench/**', 'scripts/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts', 'migrations/**/*.ts', 'test/**/*.ts'],
    extends: [tseslint.configs.recommended],
    plugins: { cartograph: { rules: { 'folder-layers': folderLayers } } },
    rules: {
      'cartograph/folder-layers': 'error',
      // A leading underscore names what is there on purpose and unused (a parameter an interface imposes, a field taken out of a rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A timer cleared by a callback declared before it is set is read before it is assigned.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read answers as loose JSON (the official client's too).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
