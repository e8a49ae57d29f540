import { describe, expect, it } from 'vitest';
import { hasSaneTimeClaims } from './token-claims';

const NOW = 1_800_000_000;
const TTL = 3600;

describe('hasSaneTimeClaims', () => {
  it('accepts the claims Cartograph signs', () => {
    expect(hasSaneTimeClaims({ iat: NOW, exp: NOW + TTL }, NOW, TTL)).toBe(true);
    expect(hasSaneTimeClaims({ iat: NOW - 10, exp: NOW + TTL - 10, nbf: NOW - 10 }, NOW, TTL)).toBe(true);
  });

  it.each([
    ['no exp', { iat: NOW }],
    ['no iat', { exp: NOW + 60 }],
    ['a string exp', { iat: NOW, exp: String(NOW + 60) }],
    ['an infinite exp', { iat: NOW, exp: Number.POSITIVE_INFINITY }],
    ['iat in the future', { iat: NOW + 3600, exp: NOW + 3700 }],
    ['exp before iat', { iat: NOW, exp: NOW - 1 }],
    ['a lifetime longer than configured', { iat: NOW, exp: NOW + TTL + 1 }],
    ['nbf in the future', { iat: NOW, exp: NOW + 60, nbf: NOW + 600 }],
    ['a non-numeric nbf', { iat: NOW, exp: NOW + 60, nbf: 'soon' }],
  ])('refuses %s', (_label, claims) => {
    expect(hasSaneTimeClaims(claims, NOW, TTL)).toBe(false);
  });

  it('tolerates a minute of clock skew on iat', () => {
    expect(hasSaneTimeClaims({ iat: NOW + 59, exp: NOW + 120 }, NOW, TTL)).toBe(true);
  });
});
