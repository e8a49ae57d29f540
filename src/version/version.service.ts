import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The newest entry of the seed's version history that this server implements. */
export const API_VERSION = '1.50.1';

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

@Injectable()
export class VersionService {
  private readonly response = { version: readPackageVersion(), api_version: API_VERSION };

  current(): { version: string; api_version: string } {
    return { ...this.response };
  }
}
