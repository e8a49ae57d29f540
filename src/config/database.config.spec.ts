import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDatabaseConfig } from './database.config';
import { ConfigurationError } from './env';

describe('readDatabaseConfig', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cartograph-db-config-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uses SQLite at DATA_DIR/cartograph.sqlite without DATABASE_URL', () => {
    expect(readDatabaseConfig({ DATA_DIR: dataDir })).toEqual({
      kind: 'sqlite',
      path: join(dataDir, 'cartograph.sqlite'),
      busyTimeoutMs: 2000,
      logQueries: false,
    });
  });

  it('treats a blank DATABASE_URL as unset', () => {
    expect(readDatabaseConfig({ DATA_DIR: dataDir, DATABASE_URL: '  ' }).kind).toBe('sqlite');
  });

  it('resolves a relative DATA_DIR to an absolute path', () => {
    const config = readDatabaseConfig({ DATA_DIR: 'some/relative/dir' });
    expect(config.kind === 'sqlite' && config.path).toBe(resolve('some/relative/dir', 'cartograph.sqlite'));
  });

  it('defaults DATA_DIR to ./data', () => {
    const config = readDatabaseConfig({});
    expect(config.kind === 'sqlite' && config.path).toBe(resolve('data', 'cartograph.sqlite'));
  });

  it('reads the SQLite busy timeout and query logging', () => {
    expect(readDatabaseConfig({ DATA_DIR: dataDir, SQLITE_BUSY_TIMEOUT_MS: '500', LOG_QUERIES: 'true' })).toMatchObject({
      kind: 'sqlite',
      busyTimeoutMs: 500,
      logQueries: true,
    });
    expect(() => readDatabaseConfig({ DATA_DIR: dataDir, SQLITE_BUSY_TIMEOUT_MS: '60001' })).toThrow(ConfigurationError);
  });

  it('uses PostgreSQL for a postgres:// URL, with bounded timeouts', () => {
    const url = 'postgres://cartograph:pw@db.internal:5432/cartograph';
    expect(readDatabaseConfig({ DATABASE_URL: url, DATA_DIR: dataDir })).toEqual({
      kind: 'postgres',
      url,
      poolSize: 10,
      connectTimeoutMs: 2000,
      queryTimeoutMs: 2500,
      logQueries: false,
    });
  });

  it('accepts postgresql:// and trims the URL', () => {
    const url = 'postgresql://u@localhost/db';
    expect(readDatabaseConfig({ DATABASE_URL: ` ${url} ` })).toMatchObject({ kind: 'postgres', url });
  });

  it('reads the pool size and timeouts', () => {
    expect(
      readDatabaseConfig({
        DATABASE_URL: 'postgres://localhost/db',
        DATABASE_POOL_SIZE: '25',
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        DATABASE_QUERY_TIMEOUT_MS: '1500',
        LOG_QUERIES: 'true',
      }),
    ).toEqual({
      kind: 'postgres',
      url: 'postgres://localhost/db',
      poolSize: 25,
      connectTimeoutMs: 1000,
      queryTimeoutMs: 1500,
      logQueries: true,
    });
  });

  it.each([
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', '501'],
    ['DATABASE_CONNECT_TIMEOUT_MS', '99'],
    ['DATABASE_QUERY_TIMEOUT_MS', 'fast'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => readDatabaseConfig({ DATABASE_URL: 'postgres://localhost/db', [name]: value })).toThrow(ConfigurationError);
  });

  it.each(['mysql://root@localhost/db', 'sqlite:///tmp/db.sqlite', 'http://postgres://x', 'localhost:5432', 'POSTGRES://x/y'])('refuses DATABASE_URL=%s', (url) => {
    expect(() => readDatabaseConfig({ DATABASE_URL: url })).toThrow(ConfigurationError);
    expect(() => readDatabaseConfig({ DATABASE_URL: url })).toThrow('DATABASE_URL must be a postgres:// URL');
  });
});
