import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const check = require(join(__dirname, '..', '..', 'scripts', 'check-node.cjs')) as {
  isSupported(version: string): boolean;
  refusal(version: string): string;
  EX_UNAVAILABLE: number;
};

export const { isSupported, refusal, EX_UNAVAILABLE } = check;

/**
 * A Node.js older than Cartograph supports, as machines still ship it (Debian 12: 18, these
 * machines: 20), or why there is none here.
 */
export function olderNode(): { binary: string; version: string } | { missing: string } {
  const candidates = ['/usr/bin/node', '/usr/local/bin/node', '/bin/node'];
  for (const binary of candidates.filter((path) => existsSync(path))) {
    const version = spawnSync(binary, ['-p', 'process.version'], { encoding: 'utf8' }).stdout?.trim();
    if (version && !isSupported(version)) return { binary, version };
  }
  return { missing: `no Node.js older than the supported versions at ${candidates.join(', ')}` };
}
