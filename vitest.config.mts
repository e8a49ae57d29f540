import { defineConfig } from 'vitest/config';

/**
 * The deployment and operations files: each builds, installs or starts whole servers (the image's
 * build steps, `npm start`, the machine's Node 20, backups and upgrades), about half the e2e run's
 * time. Their own project, so a developer's `--only=e2e` is fast; `npm test` (and CI) runs both.
 */
const OPS_FILES = ['deployment-files', 'deployment-image', 'deployment-node-version', 'deployment-npm-start', 'server-operations'].map((name) => `test/e2e/${name}.e2e-spec.ts`);

const serverTests = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // expect.poll waits for what a client sees; its 1 s default is a wall-clock limit a loaded machine misses.
  expect: { poll: { timeout: 15_000 } },
  maxWorkers: 2,
} as const;

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.spec.ts', 'web/src/**/*.spec.ts', 'bench/**/*.spec.ts'],
          environment: 'node',
          // vitest's 5 s default is a wall-clock limit: the seeded statistical specs (estimator, tracker) and the
          // source-reading ones take 2-5 s on an idle machine and timed out on a loaded one.
          testTimeout: 60_000,
        },
      },
      { test: { name: 'e2e', include: ['test/e2e/**/*.e2e-spec.ts'], exclude: OPS_FILES, ...serverTests } },
      { test: { name: 'ops', include: OPS_FILES, ...serverTests } },
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
