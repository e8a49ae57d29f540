import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  if (configured) {
    if (configured.length < MIN_SECRET_LENGTH) {
      throw new ConfigurationError(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters long`);
    }
    return configured;
  }
  if (env.NODE_ENV === 'production') {
    throw new ConfigurationError('JWT_SECRET is required when NODE_ENV=production');
  }
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  chmodSync(file, 0o600);
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
