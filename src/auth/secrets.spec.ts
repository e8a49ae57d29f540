import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, generateRefreshToken, hashesEqual, looksLikeApiKey, looksLikeRefreshToken, maskApiKey, REFRESH_TOKEN_PREFIX, sha256Hex } from './secrets';

const nodeSha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const BASE64URL_43 = /^[A-Za-z0-9_-]{43}$/;

describe('generateApiKey', () => {
  it('starts with cgk_ followed by 43 base64url characters (32 random bytes)', () => {
    const { secret } = generateApiKey();
    expect(API_KEY_PREFIX).toBe('cgk_');
    expect(secret.startsWith('cgk_')).toBe(true);
    const body = secret.slice(4);
    expect(body).toMatch(BASE64URL_43);
    expect(Buffer.from(body, 'base64url').length).toBeGreaterThanOrEqual(32);
  });

  it('hashes the whole secret (prefix included) with SHA-256, in hex', () => {
    const { secret, hash } = generateApiKey();
    expect(hash).toBe(nodeSha256(secret));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(nodeSha256(secret.slice(4)));
  });

  it('never repeats itself over many generations', () => {
    const secrets = new Set<string>();
    const hashes = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const { secret, hash } = generateApiKey();
      secrets.add(secret);
      hashes.add(hash);
    }
    expect(secrets.size).toBe(2000);
    expect(hashes.size).toBe(2000);
  });

  it('varies at every position, so no part of the body is fixed', () => {
    const bodies = Array.from({ length: 200 }, () => generateApiKey().secret.slice(4));
    // Each of the 43 positions varies across 200 keys (a fixed or counter-like part would not).
    for (let position = 0; position < 43; position++) {
      expect(new Set(bodies.map((body) => body[position])).size).toBeGreaterThan(1);
    }
  });
});

describe('generateRefreshToken', () => {
  it('starts with cgr_ followed by 43 base64url characters and hashes with SHA-256', () => {
    const { secret, hash } = generateRefreshToken();
    expect(REFRESH_TOKEN_PREFIX).toBe('cgr_');
    expect(secret.startsWith('cgr_')).toBe(true);
    expect(secret.slice(4)).toMatch(BASE64URL_43);
    expect(hash).toBe(nodeSha256(secret));
  });

  it('is recognised as a refresh token, not as an API key', () => {
    const { secret } = generateRefreshToken();
    expect(looksLikeRefreshToken(secret)).toBe(true);
    expect(looksLikeApiKey(secret)).toBe(false);
  });
});

describe('sha256Hex', () => {
  it('matches node:crypto on known and non-ASCII input', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('contraseña ☃')).toBe(nodeSha256('contraseña ☃'));
  });
});

describe('looksLikeApiKey', () => {
  const valid = `cgk_${'A'.repeat(20)}-_${'z9'.repeat(10)}b`;

  it('accepts generated keys', () => {
    for (let i = 0; i < 50; i++) expect(looksLikeApiKey(generateApiKey().secret)).toBe(true);
  });

  it('accepts a hand-made key of the right shape', () => {
    expect(valid.length).toBe(47);
    expect(looksLikeApiKey(valid)).toBe(true);
  });

  it.each([
    ['one character short', valid.slice(0, -1)],
    ['one character long', `${valid}A`],
    ['the wrong prefix', `cgr_${valid.slice(4)}`],
    ['an upper-case prefix', `CGK_${valid.slice(4)}`],
    ['no prefix', valid.slice(4)],
    ['a base64 "+"', `${valid.slice(0, -1)}+`],
    ['a base64 "/"', `${valid.slice(0, -1)}/`],
    ['padding', `${valid.slice(0, -1)}=`],
    ['a space', `${valid.slice(0, -1)} `],
    ['a trailing newline', `${valid}\n`],
    ['a leading space', ` ${valid}`],
    ['a non-ASCII letter', `${valid.slice(0, -1)}é`],
    ['the prefix alone', 'cgk_'],
    ['an empty string', ''],
  ])('rejects a key with %s', (_name, value) => {
    expect(looksLikeApiKey(value)).toBe(false);
  });
});

describe('maskApiKey', () => {
  it('shows the prefix, the first and last four characters, and hides the middle', () => {
    const { secret } = generateApiKey();
    const body = secret.slice(4);
    const masked = maskApiKey(secret);
    expect(masked).toBe(`cgk_${body.slice(0, 4)}********${body.slice(-4)}`);
    expect(masked).not.toContain(body.slice(4, -4));
    expect(masked).not.toBe(secret);
  });

  it('never reveals more than 8 characters of the secret body, over many keys', () => {
    for (let i = 0; i < 200; i++) {
      const { secret } = generateApiKey();
      const body = secret.slice(4);
      const middle = body.slice(4, -4);
      const masked = maskApiKey(secret);
      expect(masked.replace(/\*/g, '').length).toBe(4 + 8);
      // No 5-character window of the hidden middle appears in the mask.
      for (let start = 0; start + 5 <= middle.length; start++) {
        expect(masked).not.toContain(middle.slice(start, start + 5));
      }
    }
  });

  it('is deterministic for a known key', () => {
    expect(maskApiKey('cgk_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq')).toBe('cgk_ABCD********nopq');
  });
});

describe('hashesEqual', () => {
  const hash = sha256Hex('cgk_one');
  const other = sha256Hex('cgk_two');

  it('is true for equal hashes', () => {
    expect(hashesEqual(hash, hash)).toBe(true);
    expect(hashesEqual(hash, `${hash}`.slice(0))).toBe(true);
  });

  it('is false for different hashes of the same length', () => {
    expect(hashesEqual(hash, other)).toBe(false);
    // Differs in the last hex digit only.
    const lastFlipped = `${hash.slice(0, -1)}${hash.endsWith('0') ? '1' : '0'}`;
    expect(hashesEqual(hash, lastFlipped)).toBe(false);
  });

  it('is false (without throwing) for hashes of different lengths', () => {
    expect(hashesEqual(hash, hash.slice(0, 62))).toBe(false);
    expect(hashesEqual(hash, `${hash}00`)).toBe(false);
    expect(hashesEqual(hash, '')).toBe(false);
  });

  it('is false when one side is not hex', () => {
    expect(hashesEqual(hash, 'z'.repeat(64))).toBe(false);
    expect(hashesEqual('not hex at all', hash)).toBe(false);
  });

  it('is false for two different non-hex strings', () => {
    expect(hashesEqual('zz', 'yy')).toBe(false);
  });

  it('is false for two strings that differ only after a non-hex character', () => {
    expect(hashesEqual(`${hash.slice(0, 10)}zz`, `${hash.slice(0, 10)}yy`)).toBe(false);
  });

  it('is false for two odd-length strings that differ in their last digit', () => {
    expect(hashesEqual('abc', 'abd')).toBe(false);
  });
});
