import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateDirectory, ensurePrivateSqliteFiles } from './private-files';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('private data files', () => {
  const roots: string[] = [];
  const root = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cartograph-private-'));
    roots.push(dir);
    return dir;
  };
  afterEach(() => roots.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('creates a missing data directory 0700 and narrows an existing 0755 one', () => {
    const fresh = join(root(), 'a', 'data');
    ensurePrivateDirectory(fresh);
    expect(modeOf(fresh)).toBe(0o700);
    const existing = join(root(), 'data');
    mkdirSync(existing, { mode: 0o755 });
    ensurePrivateDirectory(existing);
    expect(modeOf(existing)).toBe(0o700);
  });

  it('creates the database file 0600 and narrows existing database, WAL and SHM files', () => {
    const dir = root();
    const fresh = join(dir, 'fresh.sqlite');
    ensurePrivateSqliteFiles(fresh);
    expect(modeOf(fresh)).toBe(0o600);
    const old = join(dir, 'old.sqlite');
    for (const path of [old, `${old}-wal`, `${old}-shm`]) writeFileSync(path, '', { mode: 0o644 });
    ensurePrivateSqliteFiles(old);
    for (const path of [old, `${old}-wal`, `${old}-shm`]) expect(modeOf(path)).toBe(0o600);
  });
});
