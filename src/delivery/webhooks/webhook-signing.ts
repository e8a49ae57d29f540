import { createHmac, createSecretKey, KeyObject, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (contract 7.5): `v1,` and the base64 HMAC-SHA256, keyed with the
 * secret's bytes, of "{id}.{timestamp}.{body}"; one signature per secret still in force,
 * space-separated, as the scheme allows. Node's HMAC rather than the reference library's
 * pure-JavaScript SHA-256 (the tests verify with the library), with keys decoded once.
 */
export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function isWebhookSecret(value: string): boolean {
  if (!value.startsWith(SECRET_PREFIX)) return false;
  const body = value.slice(SECRET_PREFIX.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(body) && Buffer.from(body, 'base64').length >= 24;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The HMAC keys of `whsec_` secrets (their base64 part decoded), made once to sign many deliveries with. */
export function signingKeys(secrets: readonly string[]): KeyObject[] {
  return secrets.map((secret) => createSecretKey(Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')));
}

/**
 * Headers for one delivery attempt. `keys` are the endpoint's secrets in force at `at`
 * (`signingKeys`): the current one first, then a rotated-out one during its overlap window.
 */
export function signWithKeys(keys: readonly KeyObject[], messageId: string, at: Date, body: string): SignedHeaders {
  if (keys.length === 0) throw new Error('signing needs at least one secret');
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signed = `${messageId}.${timestamp}.${body}`;
  const signatures = keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`);
  return { 'webhook-id': messageId, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}

/** `signWithKeys` for secrets in their `whsec_` form. */
export function signDelivery(secrets: readonly string[], messageId: string, at: Date, body: string): SignedHeaders {
  if (secrets.length === 0) throw new Error('signDelivery needs at least one secret');
  return signWithKeys(signingKeys(secrets), messageId, at, body);
}

export interface EndpointSecrets {
  current: string;
  previous?: string | null;
  /** Until when the previous secret still signs (rotation overlap). */
  previousExpiresAt?: Date | null;
}

/** The secrets that sign at `at`: the previous one only while its overlap lasts. */
export function secretsInForce(secrets: EndpointSecrets, at: Date): string[] {
  const inForce = [secrets.current];
  if (secrets.previous && secrets.previousExpiresAt && at.getTime() < secrets.previousExpiresAt.getTime()) inForce.push(secrets.previous);
  return inForce;
}
