import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from './env';
import { readStorageConfig } from './storage.config';
import { configurationErrors, loadEnvFile, withoutEnvFileArgument } from './validation';

describe('configurationErrors', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cartograph-validation-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finds nothing wrong with the defaults', () => {
    expect(configurationErrors({ DATA_DIR: dataDir })).toEqual([]);
  });

  it('reports a wrong dashboard basemap at start, before the application loads', () => {
    expect(configurationErrors({ DATA_DIR: dataDir, DASHBOARD_BASEMAP_URL: 'ftp://tiles.example.org/{z}/{x}/{y}' })).toEqual([
      'DASHBOARD_BASEMAP_URL must be an http(s) URL template with {z}, {x} and {y}: ftp://tiles.example.org/{z}/{x}/{y}',
    ]);
  });

  it('reports every wrong setting once, in one message each, even several in one area', () => {
    expect(
      configurationErrors({
        DATA_DIR: dataDir,
        PORT: '-1',
        LOG_REQUESTS: 'maybe',
        LOG_LEVEL: 'chatty',
        DATABASE_URL: 'mysql://x',
        LOG_QUERIES: 'sometimes',
        IMAGE_STORAGE: 'cloud',
        DATABASE_STARTUP_TIMEOUT_SECONDS: 'soon',
        NODE_ENV: 'production',
      }),
    ).toEqual([
      'PORT must be an integer between 0 and 65535, got "-1"',
      'LOG_REQUESTS must be true or false, got "maybe"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "chatty"',
      'LOG_QUERIES must be true or false, got "sometimes"',
      'DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)',
      'DATABASE_STARTUP_TIMEOUT_SECONDS must be an integer between 0 and 3600, got "soon"',
      'IMAGE_STORAGE must be local or database',
      'JWT_SECRET is required when NODE_ENV=production',
    ]);
  });

  it('says a too-short JWT_SECRET in production is too short, not also missing', () => {
    expect(configurationErrors({ DATA_DIR: dataDir, NODE_ENV: 'production', JWT_SECRET: 'short', ACCESS_TOKEN_TTL_SECONDS: '1' })).toEqual([
      'ACCESS_TOKEN_TTL_SECONDS must be an integer between 60 and 9007199254740991, got "1"',
      'JWT_SECRET is too short (5 characters): it must be at least 32 characters long (generate one with: openssl rand -base64 48)',
    ]);
    expect(configurationErrors({ DATA_DIR: dataDir, NODE_ENV: 'production' })).toEqual(['JWT_SECRET is required when NODE_ENV=production']);
  });

  it('names DATA_DIR when it cannot be written (no raw EACCES), once, and creates nothing elsewhere', () => {
    const blocked = join(dataDir, 'file');
    writeFileSync(blocked, '');
    // Set aside, DATA_DIR would default to ./data: validation must not create that instead.
    const cwd = process.cwd();
    process.chdir(dataDir);
    let errors: string[];
    try {
      errors = configurationErrors({ DATA_DIR: join(blocked, 'data') });
    } finally {
      process.chdir(cwd);
    }
    expect(existsSync(join(dataDir, 'data'))).toBe(false);
    expect(errors).toEqual([
      `DATA_DIR ${join(blocked, 'data')} cannot be written: a file is in the way of the folder. The server keeps its SQLite database, uploaded images, the generated JWT secret there: make the folder writable by this user (uid ${process.getuid!()}), or set DATA_DIR to one it can write`,
    ]);
  });

  it('needs no DATA_DIR on PostgreSQL with JWT_SECRET set and images in the database', () => {
    const blocked = join(dataDir, 'file');
    writeFileSync(blocked, '');
    expect(configurationErrors({ DATA_DIR: join(blocked, 'data'), DATABASE_URL: 'postgres://db/x', JWT_SECRET: 'x'.repeat(40), NODE_ENV: 'production' })).toEqual([]);
  });

  it('does not mistake another error for a configuration error', () => {
    expect(() =>
      configurationErrors({}, [
        () => {
          throw new TypeError('bug');
        },
      ]),
    ).toThrow(TypeError);
  });
});

describe('image storage', () => {
  it('defaults to local files on SQLite and to the database on PostgreSQL', () => {
    expect(readStorageConfig({}).images).toBe('local');
    expect(readStorageConfig({ DATABASE_URL: 'postgres://db/cartograph' }).images).toBe('database');
  });

  it('refuses local files with PostgreSQL unless the directory is declared shared', () => {
    expect(() => readStorageConfig({ DATABASE_URL: 'postgres://db/c', IMAGE_STORAGE: 'local' })).toThrow(
      /IMAGE_STORAGE=local with PostgreSQL loses images on every other instance/,
    );
    expect(readStorageConfig({ DATABASE_URL: 'postgres://db/c', IMAGE_STORAGE: 'local', IMAGE_STORAGE_LOCAL_SHARED: 'true' }).images).toBe('local');
    expect(readStorageConfig({ IMAGE_STORAGE: 'database' }).images).toBe('database');
  });
});

describe('loadEnvFile', () => {
  let dir: string;
  const touched = ['CARTOGRAPH_TEST_FROM_FILE', 'CARTOGRAPH_TEST_BOTH'];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cartograph-envfile-'));
    writeFileSync(join(dir, 'a.env'), 'CARTOGRAPH_TEST_FROM_FILE=file\nCARTOGRAPH_TEST_BOTH="from file"\n');
  });
  afterEach(() => {
    for (const name of touched) delete process.env[name];
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads --env-file <path>, --env-file=<path> or CARTOGRAPH_ENV_FILE; the environment wins over the file', () => {
    process.env.CARTOGRAPH_TEST_BOTH = 'from env';
    expect(loadEnvFile(['--env-file', join(dir, 'a.env')], {})).toBe(join(dir, 'a.env'));
    expect(process.env.CARTOGRAPH_TEST_FROM_FILE).toBe('file');
    expect(process.env.CARTOGRAPH_TEST_BOTH).toBe('from env');
    expect(loadEnvFile([`--env-file=${join(dir, 'a.env')}`], {})).toBe(join(dir, 'a.env'));
    expect(loadEnvFile([], { CARTOGRAPH_ENV_FILE: join(dir, 'a.env') })).toBe(join(dir, 'a.env'));
    expect(loadEnvFile([], {})).toBeUndefined();
  });

  it('names the file it cannot read', () => {
    expect(() => loadEnvFile([], { CARTOGRAPH_ENV_FILE: join(dir, 'missing.env') })).toThrow(ConfigurationError);
    expect(() => loadEnvFile(['--env-file'], {})).toThrow('--env-file needs a path');
  });

  it('removes the option from the command arguments', () => {
    expect(withoutEnvFileArgument(['--env-file', 'x.env', 'migrate', 'up'])).toEqual(['migrate', 'up']);
    expect(withoutEnvFileArgument(['--env-file=x.env', 'help'])).toEqual(['help']);
    expect(withoutEnvFileArgument(['help'])).toEqual(['help']);
  });
});
