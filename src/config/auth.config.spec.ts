import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAuthConfig, resolveJwtSecret } from './auth.config';
import { ConfigurationError } from './env';

const STRONG = 'x'.repeat(32);

describe('resolveJwtSecret', () => {
  let root: string;
  let dataDir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cartograph-auth-config-'));
    dataDir = join(root, 'data', 'nested');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('uses JWT_SECRET when set, and writes nothing', () => {
    const secret = 'a-configured-secret-that-is-long-enough-1234';
    expect(resolveJwtSecret({ JWT_SECRET: secret }, dataDir)).toBe(secret);
    expect(() => statSync(join(dataDir, 'jwt-secret'))).toThrow();
  });

  it('uses JWT_SECRET in production', () => {
    expect(resolveJwtSecret({ JWT_SECRET: STRONG, NODE_ENV: 'production' }, dataDir)).toBe(STRONG);
  });

  it('prefers JWT_SECRET over a secret already kept in DATA_DIR', () => {
    const generated = resolveJwtSecret({}, dataDir);
    expect(resolveJwtSecret({ JWT_SECRET: STRONG }, dataDir)).toBe(STRONG);
    expect(generated).not.toBe(STRONG);
  });

  it('accepts exactly 32 characters and refuses 31', () => {
    expect(resolveJwtSecret({ JWT_SECRET: 'y'.repeat(32) }, dataDir)).toBe('y'.repeat(32));
    expect(() => resolveJwtSecret({ JWT_SECRET: 'y'.repeat(31) }, dataDir)).toThrow(ConfigurationError);
    expect(() => resolveJwtSecret({ JWT_SECRET: 'short' }, dataDir)).toThrow('JWT_SECRET is too short (5 characters): it must be at least 32 characters long');
  });

  it('refuses a short JWT_SECRET padded with spaces to 32', () => {
    expect(() => resolveJwtSecret({ JWT_SECRET: `  ${'z'.repeat(29)}  ` }, dataDir)).toThrow(ConfigurationError);
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => resolveJwtSecret({ NODE_ENV: 'production' }, dataDir)).toThrow(ConfigurationError);
    expect(() => resolveJwtSecret({ NODE_ENV: 'production', JWT_SECRET: '  ' }, dataDir)).toThrow('JWT_SECRET is required when NODE_ENV=production');
    expect(() => statSync(join(dataDir, 'jwt-secret'))).toThrow();
  });

  it('generates a strong secret once, into DATA_DIR/jwt-secret with mode 0600, creating the directory', () => {
    const first = resolveJwtSecret({ NODE_ENV: 'development' }, dataDir);
    const file = join(dataDir, 'jwt-secret');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(first).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('returns the same secret on a second call', () => {
    const first = resolveJwtSecret({}, dataDir);
    const second = resolveJwtSecret({}, dataDir);
    expect(second).toBe(first);
  });

  it('gives different secrets to different data directories', () => {
    const other = join(root, 'other');
    expect(resolveJwtSecret({}, dataDir)).not.toBe(resolveJwtSecret({}, other));
  });

  it('reads a secret someone else put in DATA_DIR', () => {
    resolveJwtSecret({}, dataDir);
    const kept = 'k'.repeat(64);
    writeFileSync(join(dataDir, 'jwt-secret'), `${kept}\n`);
    expect(resolveJwtSecret({}, dataDir)).toBe(kept);
  });

  it('does not accept an empty kept secret file as the JWT secret', () => {
    resolveJwtSecret({}, dataDir);
    writeFileSync(join(dataDir, 'jwt-secret'), '');
    let secret: string;
    try {
      secret = resolveJwtSecret({}, dataDir);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return;
    }
    expect(secret.length).toBeGreaterThanOrEqual(32);
  });
});

describe('readAuthConfig', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cartograph-auth-config-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('has the contract defaults (4-day access tokens)', () => {
    expect(readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root })).toEqual({
      jwtSecret: STRONG,
      sealingSecret: STRONG,
      accessTokenTtlSeconds: 345_600,
      refreshTokenTtlSeconds: 2_592_000,
      loginLimits: { perAccountAndAddress: 10, perAddress: 50, windowSeconds: 60, accountBackoffAfter: 20, accountMaxBackoffSeconds: 300 },
      credentialCacheMaxAgeSeconds: 30,
      credentialCacheMaxEntries: 10_000,
      credentialCacheMaxBytes: 16 * 1024 * 1024,
    });
  });

  it('seals with SEALING_SECRET when set (32 characters at least)', () => {
    const own = 'e'.repeat(32);
    expect(readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root, SEALING_SECRET: own }).sealingSecret).toBe(own);
    expect(() => readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root, SEALING_SECRET: 'short' })).toThrow(ConfigurationError);
  });

  it('bounds the credential cache settings; a maximum age of 0 turns the cache off', () => {
    expect(readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root, CREDENTIAL_CACHE_MAX_AGE_SECONDS: '0' }).credentialCacheMaxAgeSeconds).toBe(0);
    expect(() => readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root, CREDENTIAL_CACHE_MAX_AGE_SECONDS: '-1' })).toThrow(ConfigurationError);
    expect(() => readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root, CREDENTIAL_CACHE_MAX_ENTRIES: '0' })).toThrow(ConfigurationError);
  });

  it('keeps its generated secret in DATA_DIR', () => {
    const config = readAuthConfig({ DATA_DIR: root });
    expect(readFileSync(join(root, 'jwt-secret'), 'utf8').trim()).toBe(config.jwtSecret);
  });

  it('reads the TTLs and refuses a TTL under a minute', () => {
    expect(readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root, ACCESS_TOKEN_TTL_SECONDS: '120' }).accessTokenTtlSeconds).toBe(120);
    expect(() => readAuthConfig({ JWT_SECRET: STRONG, DATA_DIR: root, ACCESS_TOKEN_TTL_SECONDS: '59' })).toThrow(ConfigurationError);
  });
});
