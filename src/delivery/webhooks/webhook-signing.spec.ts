import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, isWebhookSecret, secretsInForce, signDelivery } from './webhook-signing';

/** The scheme's formula, computed independently of the library that signs. */
function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

describe('webhook signing', () => {
  it('generates whsec_ secrets of 32 random bytes, different each time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(isWebhookSecret(a)).toBe(true);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
    expect(isWebhookSecret('whsec_short')).toBe(false);
    expect(isWebhookSecret('sk_' + a.slice(6))).toBe(false);
  });

  it('signs HMAC-SHA256 over "{id}.{timestamp}.{body}" with the secret bytes, verifiable by a Standard Webhooks receiver', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'geofence.enter', timestamp: '2026-11-23T01:00:00.000Z', data: { id: 'evt_1', name: 'ñandú €' } });
    const at = new Date();
    const headers = signDelivery([secret], 'evt_1', at, body);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).toBe(expectedSignature(secret, 'evt_1', headers['webhook-timestamp'], body));
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('a changed body, id or timestamp fails verification', () => {
    const secret = generateWebhookSecret();
    const headers = signDelivery([secret], 'evt_2', new Date(), '{"a":1}');
    const wh = new Webhook(secret);
    expect(() => wh.verify('{"a":2}', { ...headers })).toThrow(WebhookVerificationError);
    expect(() => wh.verify('{"a":1}', { ...headers, 'webhook-id': 'evt_3' })).toThrow(WebhookVerificationError);
    expect(() => wh.verify('{"a":1}', { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) })).toThrow(WebhookVerificationError);
  });

  it('during a rotation both the new and the old secret verify; afterwards only the new one', () => {
    const previous = generateWebhookSecret();
    const current = generateWebhookSecret();
    const rotatedAt = new Date();
    const secrets = { current, previous, previousExpiresAt: new Date(rotatedAt.getTime() + 24 * 3600 * 1000) };

    const during = signDelivery(secretsInForce(secrets, rotatedAt), 'evt_4', rotatedAt, '{}');
    expect(during['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify('{}', { ...during })).not.toThrow();
    expect(() => new Webhook(previous).verify('{}', { ...during })).not.toThrow();

    const after = new Date(rotatedAt.getTime() + 24 * 3600 * 1000);
    expect(secretsInForce(secrets, after)).toEqual([current]);
    const afterHeaders = signDelivery(secretsInForce(secrets, after), 'evt_4', new Date(), '{}');
    expect(() => new Webhook(previous).verify('{}', { ...afterHeaders })).toThrow(WebhookVerificationError);
  });
});
