import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerAs } from '@nestjs/config';
import { readAppConfig } from './app.config';
import { ConfigurationError, Env, readInteger, readOptionalString } from './env';

export interface AuthConfig {
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  loginFailureLimit: number;
  loginFailureWindowSeconds: number;
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
    mkdirSync(dataDir, { recursive: true });
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
    throw new ConfigurationError(`The JWT secret from ${source} must be at least ${MIN_SECRET_LENGTH} characters long`, 'JWT_SECRET');
  }
  return secret;
}

export function readAuthConfig(env: Env): AuthConfig {
  return {
    jwtSecret: resolveJwtSecret(env, readAppConfig(env).dataDir),
    accessTokenTtlSeconds: readInteger(env, 'ACCESS_TOKEN_TTL_SECONDS', 4 * 24 * 3600, { min: 60 }),
    refreshTokenTtlSeconds: readInteger(env, 'REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600, { min: 60 }),
    loginFailureLimit: readInteger(env, 'LOGIN_FAILURE_LIMIT', 10, { min: 1 }),
    loginFailureWindowSeconds: readInteger(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 60, { min: 1 }),
  };
}

export const authConfig = registerAs('auth', (): AuthConfig => readAuthConfig(process.env));
