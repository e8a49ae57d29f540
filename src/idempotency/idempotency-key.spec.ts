import { describe, expect, it } from 'vitest';
import { idempotencyScope, isValidIdempotencyKey, requestFingerprint, ResponseSealer } from './idempotency-key';

describe('idempotency keys', () => {
  it('accepts 1 to 255 visible ASCII characters only', () => {
    expect(isValidIdempotencyKey('0b6f3c1e-8a0c-4c53-9d3b-0c2f0d0f1a2b')).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).toBe(true);
    for (const key of ['', 'x'.repeat(256), 'with space', 'tab\t', 'é', '\u0000']) expect(isValidIdempotencyKey(key)).toBe(false);
  });

  it('scopes a key by organization, owner, method and path, unambiguously', () => {
    const base = idempotencyScope('org', 'user', 'POST', '/api/v1/buildings', 'k');
    expect(idempotencyScope('org', 'user', 'POST', '/api/v1/buildings', 'k')).toBe(base);
    expect(idempotencyScope('org2', 'user', 'POST', '/api/v1/buildings', 'k')).not.toBe(base);
    expect(idempotencyScope('org', 'user2', 'POST', '/api/v1/buildings', 'k')).not.toBe(base);
    expect(idempotencyScope('org', 'user', 'POST', '/api/v1/floors', 'k')).not.toBe(base);
    expect(idempotencyScope('or', 'guser', 'POST', '/api/v1/buildings', 'k')).not.toBe(base);
  });

  it('fingerprints the query and body', () => {
    const base = requestFingerprint('', { name: 'A' });
    expect(requestFingerprint('', { name: 'A' })).toBe(base);
    expect(requestFingerprint('', { name: 'B' })).not.toBe(base);
    expect(requestFingerprint('x=1', { name: 'A' })).not.toBe(base);
    expect(requestFingerprint('', undefined, '1024')).not.toBe(requestFingerprint('', undefined, '1025'));
  });

  it('seals answers so that only the holder of the secret reads them', () => {
    const sealer = new ResponseSealer('a-secret-that-is-long-enough-0000000000');
    const response = { status: 201, contentType: 'application/json', etag: '"1"', body: Buffer.from('{"apikey":"secret"}').toString('base64') };
    const sealed = sealer.seal(response, 'scope-1');
    expect(sealed).not.toContain('secret');
    expect(sealed).not.toContain(response.body);
    expect(sealer.open(sealed, 'scope-1')).toEqual(response);
    // Another secret, or the answer moved under another key's scope: not opened.
    expect(new ResponseSealer('another-secret-that-is-long-enough-000').open(sealed, 'scope-1')).toBeNull();
    expect(sealer.open(sealed, 'scope-2')).toBeNull();
  });
});
