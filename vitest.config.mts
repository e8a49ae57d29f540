import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// unplugin-swc keeps decorator metadata (Nest DI, TypeORM, class-validator) exactly as tsc emits it.
const plugins = [swc.vite({ module: { type: 'es6' } })];

export default defineConfig({
  plugins,
  test: {
    environment: 'node',
    pool: 'forks',
    projects: [
      { plugins, test: { name: 'unit', include: ['src/**/*.spec.ts'], environment: 'node' } },
      {
        plugins,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e-spec.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file builds its own app on its own fresh database; two cores run two files at once.
          maxWorkers: 2,
        },
      },
    ],
  },
});
