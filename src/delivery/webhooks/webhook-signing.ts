import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (contract 7.5). The reference implementation signs, so any
 * Standard Webhooks verifier accepts what we send; this file only adds secret generation and
 * rotation (one signature per secret still in force, space-separated, as the scheme allows).
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

/**
 * Headers for one delivery attempt. `secrets` are the endpoint's secrets in force at `at`: the
 * current one first, then a rotated-out one during its overlap window.
 */
export function signDelivery(secrets: readonly string[], messageId: string, at: Date, body: string): SignedHeaders {
  if (secrets.length === 0) throw new Error('signDelivery needs at least one secret');
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
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
