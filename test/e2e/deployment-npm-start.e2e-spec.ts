import { existsSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunningProcess, startProcess } from '../support/server-process';
import { freshDatabase } from '../support/test-app';

/**
 * `npm start` as a user runs it in the checkout (built by npm ci's `prepare`): the server is
 * npm's direct child, never outlives npm, and its stdout carries the server's JSON lines.
 */

const root = join(__dirname, '..', '..');
const LISTENING = 'Cartograph listening (API docs at /api/docs)';

/** No such process, or a zombie: it has exited and waits for its new parent (init) to reap it. */
const isGone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

const portRefuses = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function npmStart(args: string[], env: Record<string, string>): Promise<{ npm: RunningProcess; server: number; port: number }> {
  expect(existsSync(join(root, 'dist/src/main.js')), 'the build (npm ci runs it)').toBe(true);
  const npm = startProcess('npm', ['start', ...args], {
    cwd: root,
    env: { ...env, NODE_ENV: 'production', JWT_SECRET: 'npm-start-test-secret-that-is-long-enough-0123456789', HOST: '127.0.0.1', PORT: '0', npm_config_update_notifier: 'false' },
  });
  const listening = await npm.waitForLine((line) => line.msg === LISTENING, 90_000);
  return { npm, server: listening.pid as number, port: Number(new URL(listening.url as string).port) };
}

describe('npm start', () => {
  it('SIGHUP to npm (a closed terminal, a service manager) leaves no server behind: it drains, exits and frees its port', async () => {
    const database = await freshDatabase();
    const { npm, server, port } = await npmStart(['--silent'], database.env);
    let killed = false;
    try {
      // npm is the server's parent: the server is what the start script execs.
      expect(server).not.toBe(npm.child.pid);
      expect(isGone(server)).toBe(false);
      expect(await portRefuses(port)).toBe(false);

      npm.child.kill('SIGHUP');
      // 'close' comes when every holder of npm's stdout is gone: npm and the server.
      const exit = await within(npm.exited, 45_000, 'npm and the server gone');
      expect(exit.signal ?? exit.code).toBeTruthy();
      // Its output closed as it exited; the kernel may take a moment more to finish the exit.
      expect(await eventually(async () => isGone(server) && (await portRefuses(port)), 10_000)).toBe(true);
      const messages = npm.json().map((line) => line.msg);
      // One clean stop: one SIGTERM (worker threads load the preload too, and must not send more).
      expect(messages).toEqual(expect.arrayContaining(['Cartograph stopped']));
      expect(messages).not.toContain('Second signal while stopping; exiting now');
      expect(npm.stderr()).toMatch(/^cartograph: the process that started the server \(pid \d+\) is gone; stopping the server\n$/);
    } finally {
      if (!isGone(server)) {
        killed = true;
        process.kill(server, 'SIGKILL');
      }
      await database.drop();
    }
    expect(killed, 'the server had to be killed by the test').toBe(false);
  }, 150_000);

  it("with --silent prints only the server's JSON lines on stdout; without it, npm's banner is all that is not JSON", async () => {
    const database = await freshDatabase();
    try {
      for (const args of [['--silent'], []]) {
        const { npm } = await npmStart(args, database.env);
        npm.child.kill('SIGTERM');
        expect(await within(npm.exited, 45_000, 'npm start stopped')).toEqual({ code: 0, signal: null });
        const notJson = npm.lines.filter((line) => {
          try {
            return typeof JSON.parse(line) !== 'object';
          } catch {
            return true;
          }
        });
        if (args.length > 0) {
          expect(notJson).toEqual([]);
        } else {
          // npm's banner (its two lines; the empty lines around them are dropped): nothing of the server.
          expect(notJson).toEqual(['> cartograph@0.1.0 start', expect.stringMatching(/^> .*node .*dist\/src\/main\.js$/)]);
        }
        expect(npm.json().map((line) => line.msg)).toEqual(expect.arrayContaining([LISTENING, 'Cartograph stopped']));
      }
    } finally {
      await database.drop();
    }
  }, 200_000);
});
