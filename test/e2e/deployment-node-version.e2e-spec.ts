import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { execForm, readStages } from '../support/dockerfile';
import { EX_UNAVAILABLE, isSupported, olderNode, refusal } from '../support/old-node';

/**
 * Every entry point refuses a Node.js that Cartograph cannot run on (these machines ship Node
 * 20, on which the SQLite module segfaults with no output): `npm install`/`npm ci` stop before
 * they install anything, and `npm start`, the CLI, `npm test`, the systemd unit's command and
 * the image's command print one line naming the version found, the versions needed and how to
 * get them, and exit 69 (EX_UNAVAILABLE).
 */

const root = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const manifest = JSON.parse(read('package.json')) as { engines: { node: string }; scripts: Record<string, string> };
const old = olderNode();
const npmCli = realpathSync(spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim());

/** `command` under the old Node: it is first on PATH, and nothing points npm at Node 24's headers. */
function underOldNode(binary: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(binary, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: [dirname(binary), '/usr/bin', '/bin'].join(delimiter), HOME: process.env.HOME ?? '/root', DATA_DIR: join(tmpdir(), 'cartograph-never-created') },
    timeout: 60_000,
  });
}

describe('the supported Node.js versions', () => {
  it('are the same in package.json, the lockfile, the check and .nvmrc, and every dependency installs on them', () => {
    const range = manifest.engines.node;
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string }; optional?: boolean }> };
    expect(lock.packages[''].engines?.node).toBe(range);
    const versions = ['18.19.1', '20.20.2', '22.12.0', '22.22.2', '22.22.3', '22.30.0', '23.11.0', '24.0.0', '24.14.9', '24.15.0', '24.21.0', '25.2.0', '26.0.0', '27.1.0'];
    for (const version of versions) expect(isSupported(`v${version}`), version).toBe(semver.satisfies(version, range));
    // engine-strict: npm would refuse a version that one dependency does not accept.
    for (const version of versions.filter((candidate) => semver.satisfies(candidate, range))) {
      for (const [name, entry] of Object.entries(lock.packages)) {
        if (entry.engines?.node && !entry.optional) expect(semver.satisfies(version, entry.engines.node), `${name} on Node ${version}`).toBe(true);
      }
    }
    expect(semver.satisfies(`${read('.nvmrc').trim()}.99.0`, range)).toBe(true);
    expect(isSupported(process.version)).toBe(true);
    expect(read('.npmrc')).toMatch(/^engine-strict=true$/m);
  });

  it('the image, the systemd unit and .ci/run name a supported Node.js', () => {
    for (const stage of readStages(join(root, 'Dockerfile'))) expect(isSupported(/^node:(\d+\.\d+\.\d+)/.exec(stage.image)![1])).toBe(true);
    const execStart = /^ExecStart=(\S+)/m.exec(read('deploy/cartograph.service'))![1];
    // /usr/bin/node is Debian's own (18 on Debian 12): the unit names the one docs/operations.md installs.
    expect(execStart).not.toBe('/usr/bin/node');
    const prefix = execStart.replace(/\/node_modules\/\.bin\/node$/, '');
    expect(read('docs/operations.md')).toContain(`npm install --prefix ${prefix} node@24`);
    expect(read('.ci/run')).toContain('node@24');
  });
});

describe.skipIf('missing' in old)(`every entry point under an older Node.js (${'missing' in old ? old.missing : `${old.binary}, ${old.version}`})`, () => {
  const { binary, version } = old as { binary: string; version: string };
  const oneLine = `${refusal(version)}\n`;

  it("npm install and npm ci (the README's first command) stop before installing anything, naming the version found and the versions needed", () => {
    const clone = mkdtempSync(join(tmpdir(), 'cartograph-old-node-install-'));
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(join(root, file), join(clone, file));
      for (const command of ['install', 'ci']) {
        const run = underOldNode(binary, [npmCli, command, '--no-audit', '--no-fund'], clone);
        expect(run.status, `npm ${command}: ${run.stderr}`).toBe(1);
        expect(run.stderr).toContain('EBADENGINE');
        expect(run.stderr).toContain(`Required: {"node":"${manifest.engines.node}"}`);
        expect(run.stderr).toContain(`"node":"${version}"`);
        expect(run.stderr).not.toMatch(/Segmentation|SIGSEGV/);
        expect(readdirSync(clone).sort()).toEqual(['.npmrc', 'package-lock.json', 'package.json']);
        expect(readFileSync(join(clone, 'package-lock.json'), 'utf8')).toBe(read('package-lock.json'));
      }
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  }, 120_000);

  const entryPoints: Array<[string, () => SpawnSyncReturns<string>]> = [
    ['npm start', () => underOldNode(binary, [npmCli, 'start'], root)],
    ['npm start --silent', () => underOldNode(binary, [npmCli, 'start', '--silent'], root)],
    ['npm run cli -- help', () => underOldNode(binary, [npmCli, 'run', 'cli', '--', 'help'], root)],
    ['npm run migration:run', () => underOldNode(binary, [npmCli, 'run', 'migration:run'], root)],
    ['npm test', () => underOldNode(binary, [npmCli, 'test', '--', '--only=unit'], root)],
    ['node dist/src/cli.js help', () => underOldNode(binary, ['dist/src/cli.js', 'help'], root)],
    ['node dist/src/main.js', () => underOldNode(binary, ['dist/src/main.js'], root)],
    [
      "the systemd unit's ExecStart",
      () => {
        const [, ...args] = /^ExecStart=(.*)$/m.exec(read('deploy/cartograph.service'))![1].split(/\s+/);
        return underOldNode(binary, args, root);
      },
    ],
    [
      "the image's CMD",
      () => {
        const runtime = readStages(join(root, 'Dockerfile')).at(-1)!;
        const [command, ...args] = execForm(runtime.instructions.find((instruction) => instruction.keyword === 'CMD')!.args);
        expect(command).toBe('node');
        return underOldNode(binary, args, root);
      },
    ],
  ];

  it.each(entryPoints)('%s prints one line (found, needed, how to get it) and exits 69', (_, run) => {
    expect(existsSync(join(root, 'dist/src/main.js')), 'the build (npm ci runs it)').toBe(true);
    const result = run();
    expect(result.status, result.stderr).toBe(EX_UNAVAILABLE);
    expect(result.stderr).toBe(oneLine);
    expect(result.stderr).toContain(version);
    expect(result.stderr).toMatch(/Node\.js 24 LTS \(24\.15 or newer; 22\.22\.3\+ and 26\+ also work\)/);
    expect(result.stderr).toMatch(/nvm install.*node@24/);
    // Nothing of the server ran: no log line on stdout (npm's own banner aside).
    expect(result.stdout).not.toMatch(/^\{/m);
  });

  it('the same entry points run on this Node.js (the check passes without a word)', () => {
    const cli = spawnSync(process.execPath, ['dist/src/cli.js', 'help'], { cwd: root, encoding: 'utf8' });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toMatch(/^Usage: npm run cli/);
    const check = spawnSync(process.execPath, ['scripts/check-node.cjs'], { cwd: root, encoding: 'utf8' });
    expect([check.status, check.stdout, check.stderr]).toEqual([0, '', '']);
  });
});

describe('the README', () => {
  it('says, right under its two commands, what to do on a machine with an older Node.js', () => {
    const readme = read('README.md');
    const [, commands, after] = /^```sh\n([\s\S]*?)\n```\n([\s\S]*?)\n## /m.exec(readme)!;
    expect(commands).toMatch(/^npm install && npm start/m);
    expect(commands).toMatch(/^npm test/m);
    expect(after).toMatch(/Node\.js 24/);
    expect(after).toContain('nvm install');
    expect(after).toContain('npm install --prefix');
    expect(after).toMatch(/\b69\b/);
  });
});
