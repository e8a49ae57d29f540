import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

const SERVER_SECRET = 'x'.repeat(48);

describe('SecretBox', () => {
  it('opens what it sealed, for the same owner', () => {
    const box = new SecretBox(SERVER_SECRET, 'webhook-secrets/v1');
    const sealed = box.seal('whsec_abc', 'row-1');
    expect(sealed).not.toContain('whsec_abc');
    expect(sealed.split('.')).toHaveLength(4);
    expect(box.open(sealed, 'row-1')).toBe('whsec_abc');
  });

  // Review rev1: an empty secret sealed to an empty ciphertext and then never opened.
  it('opens an empty secret and a long one, and refuses a sealed value with a part missing', () => {
    const box = new SecretBox(SERVER_SECRET, 'p');
    expect(box.open(box.seal('', 'o'), 'o')).toBe('');
    const long = 'é'.repeat(5000);
    expect(box.open(box.seal(long, 'o'), 'o')).toBe(long);
    const [v, iv, , tag] = box.seal('s', 'o').split('.');
    expect(box.open([v, iv, tag].join('.'), 'o')).toBeNull();
    expect(box.open([v, '', 'AA', tag].join('.'), 'o')).toBeNull();
  });

  it('seals the same secret differently each time (random IV)', () => {
    const box = new SecretBox(SERVER_SECRET, 'p');
    expect(box.seal('s', 'o')).not.toBe(box.seal('s', 'o'));
  });

  it('does not open for another owner, another purpose, another server secret, or after tampering', () => {
    const box = new SecretBox(SERVER_SECRET, 'webhook-secrets/v1');
    const sealed = box.seal('secret', 'row-1');
    expect(box.open(sealed, 'row-2')).toBeNull();
    expect(new SecretBox(SERVER_SECRET, 'positioning-api-keys/v1').open(sealed, 'row-1')).toBeNull();
    expect(new SecretBox('y'.repeat(48), 'webhook-secrets/v1').open(sealed, 'row-1')).toBeNull();
    const [v, iv, c, tag] = sealed.split('.');
    const flipped = Buffer.from(c, 'base64url');
    flipped[0] ^= 1;
    expect(box.open([v, iv, flipped.toString('base64url'), tag].join('.'), 'row-1')).toBeNull();
    expect(box.open('v2.a.b.c', 'row-1')).toBeNull();
    expect(box.open('garbage', 'row-1')).toBeNull();
  });
});
