import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's mosquitto, which .ci/run installs: the external broker of the MQTT tests. */
export const MOSQUITTO = '/usr/sbin/mosquitto';

const MOSQUITTO_PASSWD = '/usr/bin/mosquitto_passwd';

export const mosquittoMissing = (): string | null => (existsSync(MOSQUITTO) ? null : `${MOSQUITTO} is not installed (apt-get install mosquitto; .ci/run does)`);

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

/** Who may connect (user → password) and what each may do (a mosquitto ACL file's text); without them, anonymous. */
export interface MosquittoSecurity {
  users: Record<string, string>;
  acl: string;
}

export interface Mosquitto {
  /** mqtt://127.0.0.1:{port}, without credentials. */
  url: string;
  port: number;
  /** The URL with a user's credentials. */
  urlFor(user: string, password: string): string;
  /** Rewrites the users and the ACL, and has mosquitto read them again (SIGHUP). */
  reload(security: MosquittoSecurity): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a mosquitto of this test's own on a free port (no persistence), and waits until it takes connections. */
export async function startMosquitto(security?: MosquittoSecurity): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), 'cartograph-mosquitto-'));
  // Started as root, mosquitto reads its password and ACL files as the `mosquitto` user: let it (test-only secrets).
  chmodSync(dir, 0o755);
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  const passwords = join(dir, 'passwd');
  const acl = join(dir, 'acl');
  const writeSecurity = (next: MosquittoSecurity) => {
    writeFileSync(passwords, '');
    for (const [user, password] of Object.entries(next.users)) {
      const result = spawnSync(MOSQUITTO_PASSWD, ['-b', passwords, user, password], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`mosquitto_passwd failed: ${result.stderr}`);
    }
    writeFileSync(acl, next.acl);
    chmodSync(passwords, 0o644);
    chmodSync(acl, 0o644);
  };
  if (security) writeSecurity(security);
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\npersistence false\nlog_dest stderr\n` +
      (security ? `allow_anonymous false\npassword_file ${passwords}\nacl_file ${acl}\n` : 'allow_anonymous true\n'),
  );
  const child: ChildProcess = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited: ${output}`);
    if (await reachable(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mosquitto did not listen on ${port}: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    urlFor: (user, password) => `mqtt://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    async reload(next) {
      if (!security) throw new Error('this mosquitto was started anonymous');
      writeSecurity(next);
      child.kill('SIGHUP');
      // mosquitto reads the files again on its next loop; give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
