import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../secrets';
import { ApiKeyCipher } from './api-key-cipher';

const SERVER_SECRET = 's'.repeat(40);

describe('ApiKeyCipher', () => {
  it('opens what it sealed, and the sealed form never contains the secret', () => {
    const cipher = new ApiKeyCipher(SERVER_SECRET);
    const { secret } = generateApiKey();
    const sealed = cipher.seal(secret, 'key-1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(sealed).not.toContain(secret.slice(4, 20));
    expect(cipher.open(sealed, 'key-1')).toBe(secret);
  });

  it('uses a fresh nonce for every seal', () => {
    const cipher = new ApiKeyCipher(SERVER_SECRET);
    expect(cipher.seal('cgk_same', 'key-1')).not.toBe(cipher.seal('cgk_same', 'key-1'));
  });

  it('does not open under another server secret, for another row, or once tampered with', () => {
    const cipher = new ApiKeyCipher(SERVER_SECRET);
    const sealed = cipher.seal('cgk_secret', 'key-1');
    expect(new ApiKeyCipher('t'.repeat(40)).open(sealed, 'key-1')).toBeNull();
    expect(cipher.open(sealed, 'key-2')).toBeNull();
    const [version, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(cipher.open([version, iv, flipped.toString('base64url'), tag].join('.'), 'key-1')).toBeNull();
    expect(cipher.open('v2.a.b.c', 'key-1')).toBeNull();
    expect(cipher.open('garbage', 'key-1')).toBeNull();
  });
});
