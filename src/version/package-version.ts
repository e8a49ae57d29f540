import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let cached: string | undefined;

/** The application's version, from its package.json (plain code: start-up and the CLI read it before anything loads). */
export function packageVersion(): string {
  cached ??= readPackageVersion();
  return cached;
}

function readPackageVersion(): string {
  // src/version (ts) and dist/src/version (js) are both two levels below the package root.
  for (const candidate of [join(__dirname, '..', '..', 'package.json'), join(__dirname, '..', '..', '..', 'package.json')]) {
    try {
      const manifest = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'cartograph' && manifest.version) return manifest.version;
    } catch {
      // try the next candidate
    }
  }
  throw new Error('Cannot find the package.json of cartograph');
}
