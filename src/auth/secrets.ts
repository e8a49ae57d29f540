import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Recognisable prefixes make leaked secrets easy to find by secret scanners. */
export const API_KEY_PREFIX = 'cgk_';
export const REFRESH_TOKEN_PREFIX = 'cgr_';
const SECRET_BYTES = 32;
const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Constant-time comparison of two SHA-256 hex digests; anything else is unequal. */
export function hashesEqual(a: string, b: string): boolean {
  if (!SHA256_HEX.test(a) || !SHA256_HEX.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

export interface GeneratedSecret {
  secret: string;
  hash: string;
}

function generate(prefix: string): GeneratedSecret {
  const secret = `${prefix}${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { secret, hash: sha256Hex(secret) };
}

export const generateApiKey = (): GeneratedSecret => generate(API_KEY_PREFIX);
export const generateRefreshToken = (): GeneratedSecret => generate(REFRESH_TOKEN_PREFIX);

/** Cheap shape check before any database work. */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX) && SECRET_FORMAT.test(value.slice(API_KEY_PREFIX.length));
}

export function looksLikeRefreshToken(value: string): boolean {
  return value.startsWith(REFRESH_TOKEN_PREFIX) && SECRET_FORMAT.test(value.slice(REFRESH_TOKEN_PREFIX.length));
}

/** What the owner sees of a key after creation: `cgk_AbCd…wXyZ`. */
export function maskApiKey(secret: string): string {
  const body = secret.slice(API_KEY_PREFIX.length);
  return `${API_KEY_PREFIX}${body.slice(0, 4)}${'*'.repeat(8)}${body.slice(-4)}`;
}
