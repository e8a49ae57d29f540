import { createSecretKey, KeyObject } from 'node:crypto';

export const JWT_KEY = Symbol('JWT_KEY');

/** Built once: jsonwebtoken re-parses a string secret on every verify. */
export function buildJwtKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}
