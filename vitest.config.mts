import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    projects: [
      { test: { name: 'unit', include: ['src/**/*.spec.ts', 'web/src/**/*.spec.ts', 'bench/**/*.spec.ts'], environment: 'node' } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e-spec.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // expect.poll waits for what a client sees; its 1 s default is a wall-clock limit a loaded machine misses.
          expect: { poll: { timeout: 15_000 } },
          maxWorkers: 2,
        },
      },
      {
        // A real browser (Debian's chromium) against a test app: one file at a time.
        test: {
          name: 'browser',
          include: ['test/browser/**/*.browser-spec.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for what a person sees; its 1 s default is a wall-clock limit a loaded machine misses.
          expect: { poll: { timeout: 15_000 } },
          maxWorkers: 1,
        },
      },
    ],
  },
});
