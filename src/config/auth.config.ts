import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerAs } from '@nestjs/config';
import { readAppConfig } from './app.config';
import { dataDirectoryUses, usableDataDirectory } from './data-directory';
import { ConfigurationError, Env, readInteger, readOptionalString } from './env';

/** The login limits (see auth/login-throttle.service.ts). */
export interface LoginLimits {
  /** Failures per (account, address) in a window. */
  perAccountAndAddress: number;
  /** Failures per address in a window, whatever the accounts. */
  perAddress: number;
  windowSeconds: number;
  /** Consecutive failures on an account, from anywhere, before its backoff starts. */
  accountBackoffAfter: number;
  /** The longest the account backoff makes anyone wait between two attempts. */
  accountMaxBackoffSeconds: number;
}

export interface AuthConfig {
  jwtSecret: string;
  /**
   * Seals what the server must read back (positioning keys, webhook signing secrets): SEALING_SECRET, else the JWT
   * secret. Each use derives its own key from it (SecretBox), so none can open another's.
   */
  sealingSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  loginLimits: LoginLimits;
  /** What verified credentials proved is reused this long at most (0 turns the cache off). */
  credentialCacheMaxAgeSeconds: number;
  credentialCacheMaxEntries: number;
  credentialCacheMaxBytes: number;
}

const MIN_SECRET_LENGTH = 32;

/**
 * JWT_SECRET wins; outside production a secret is generated once and kept in DATA_DIR so
 * tokens survive restarts. Several instances must share JWT_SECRET (required in production).
 */
export function resolveJwtSecret(env: Env, dataDir: string): string {
  const configured = readOptionalString(env, 'JWT_SECRET');
  if (configured) return checkedSecret(configured, 'JWT_SECRET');
  if (env.NODE_ENV === 'production') {
    throw new ConfigurationError('JWT_SECRET is required when NODE_ENV=production', 'JWT_SECRET');
  }
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    usableDataDirectory(dataDir, dataDirectoryUses(env));
    // Written whole to a private file, then linked into place: linking fails if another
    // process got there first, and nobody ever reads a half-written secret.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return checkedSecret(readFileSync(file, 'utf8').trim(), file);
}

function checkedSecret(secret: string, source: string): string {
  if (secret.length < MIN_SECRET_LENGTH) {
    const from = source.includes('/') ? `The secret in ${source}` : source;
    throw new ConfigurationError(
      `${from} is too short (${secret.length} characters): it must be at least ${MIN_SECRET_LENGTH} characters long (generate one with: openssl rand -base64 48)`,
      source.includes('/') ? 'JWT_SECRET' : source,
    );
  }
  return secret;
}

export function readAuthConfig(env: Env): AuthConfig {
  // The plain settings first: every wrong one is reported before the secret (which may write DATA_DIR) is resolved.
  const settings = readAuthSettings(env);
  const jwtSecret = resolveJwtSecret(env, readAppConfig(env).dataDir);
  const sealingSecret = readOptionalString(env, 'SEALING_SECRET');
  return { ...settings, jwtSecret, sealingSecret: sealingSecret ? checkedSecret(sealingSecret, 'SEALING_SECRET') : jwtSecret };
}

function readAuthSettings(env: Env): Omit<AuthConfig, 'jwtSecret' | 'sealingSecret'> {
  return {
    accessTokenTtlSeconds: readInteger(env, 'ACCESS_TOKEN_TTL_SECONDS', 4 * 24 * 3600, { min: 60 }),
    refreshTokenTtlSeconds: readInteger(env, 'REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600, { min: 60 }),
    loginLimits: {
      perAccountAndAddress: readInteger(env, 'LOGIN_FAILURE_LIMIT', 10, { min: 1 }),
      perAddress: readInteger(env, 'LOGIN_ADDRESS_FAILURE_LIMIT', 50, { min: 1 }),
      windowSeconds: readInteger(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 60, { min: 1 }),
      accountBackoffAfter: readInteger(env, 'LOGIN_ACCOUNT_BACKOFF_AFTER', 20, { min: 1 }),
      accountMaxBackoffSeconds: readInteger(env, 'LOGIN_ACCOUNT_MAX_BACKOFF_SECONDS', 300, { min: 1, max: 86_400 }),
    },
    credentialCacheMaxAgeSeconds: readInteger(env, 'CREDENTIAL_CACHE_MAX_AGE_SECONDS', 30, { min: 0, max: 3600 }),
    credentialCacheMaxEntries: readInteger(env, 'CREDENTIAL_CACHE_MAX_ENTRIES', 10_000, { min: 1, max: 10_000_000 }),
    credentialCacheMaxBytes: readInteger(env, 'CREDENTIAL_CACHE_MAX_BYTES', 16 * 1024 * 1024, { min: 4096 }),
  };
}

export const authConfig = registerAs('auth', (): AuthConfig => readAuthConfig(process.env));
