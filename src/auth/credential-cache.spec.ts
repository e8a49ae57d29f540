import { describe, expect, it } from 'vitest';
import { CredentialCache, CredentialCacheOptions } from './credential-cache';
import { ApiPermission } from '../access/permissions';
import { CredentialKind, Principal } from '../access/principal';
import { Role } from '../access/roles';

const principal = (userId: string, extra: Partial<Principal> = {}): Principal => ({
  userId,
  organizationId: 'org',
  email: `${userId}@example.com`,
  role: Role.User,
  permission: ApiPermission.ReadWrite,
  credential: CredentialKind.PasswordToken,
  apiKeyId: null,
  sessionId: 's',
  buildingIds: null,
  ...extra,
});

function cacheAt(options: Partial<CredentialCacheOptions> = {}) {
  const clock = { now: 1_000_000 };
  const cache = new CredentialCache({ maxAgeMs: 30_000, maxEntries: 100, maxBytes: 1_000_000, ...options }, () => clock.now);
  return { cache, clock };
}

describe('CredentialCache', () => {
  it('serves what was stored, as a copy that callers may decorate', () => {
    const { cache } = cacheAt();
    expect(cache.set('t1', principal('u1', { ip: '10.0.0.1' }), null, cache.ticket())).toBe(true);
    const first = cache.get('t1')!;
    expect(first.userId).toBe('u1');
    expect(first.ip).toBeUndefined();
    first.ip = '10.0.0.2';
    expect(cache.get('t1')!.ip).toBeUndefined();
    expect(cache.get('t2')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 1, stores: 1, entries: 1 });
  });

  it("stops serving at the credential's expiry", () => {
    const { cache, clock } = cacheAt();
    cache.set('t1', principal('u1'), clock.now + 5_000, cache.ticket());
    clock.now += 4_999;
    expect(cache.get('t1')).toBeDefined();
    clock.now += 1;
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
  });

  it('stops serving at the maximum age even when the credential lives longer', () => {
    const { cache, clock } = cacheAt({ maxAgeMs: 10_000 });
    cache.set('k1', principal('u1'), null, cache.ticket());
    cache.set('t1', principal('u1'), clock.now + 3_600_000, cache.ticket());
    clock.now += 9_999;
    expect(cache.get('k1')).toBeDefined();
    clock.now += 1;
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('t1')).toBeUndefined();
  });

  it('does not store an already expired credential', () => {
    const { cache, clock } = cacheAt();
    expect(cache.set('t1', principal('u1'), clock.now, cache.ticket())).toBe(false);
    expect(cache.get('t1')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const { cache } = cacheAt({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) cache.set(key, principal(`u-${key}`), null, cache.ticket());
    cache.get('a');
    cache.set('d', principal('u-d'), null, cache.ticket());
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 3, evictions: 1 });
  });

  it('keeps its estimated memory under maxBytes', () => {
    const { cache } = cacheAt({ maxBytes: 5_000 });
    for (let i = 0; i < 50; i++) cache.set(`token-${i}`.padEnd(400, 'x'), principal(`u${i}`), null, cache.ticket());
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(5_000);
    expect(stats.entries).toBeGreaterThan(0);
    expect(stats.entries).toBeLessThan(50);
    expect(cache.set('huge'.padEnd(10_000, 'x'), principal('big'), null, cache.ticket())).toBe(false);
  });

  it("drops every entry of a revoked user and no one else's", () => {
    const { cache } = cacheAt();
    cache.set('token-a', principal('u1'), null, cache.ticket());
    cache.set('key-a', principal('u1', { credential: CredentialKind.ApiKey }), null, cache.ticket());
    cache.set('token-b', principal('u2'), null, cache.ticket());
    cache.invalidateUser('u1');
    expect(cache.get('token-a')).toBeUndefined();
    expect(cache.get('key-a')).toBeUndefined();
    expect(cache.get('token-b')).toBeDefined();
    expect(cache.stats()).toMatchObject({ invalidations: 2, entries: 1 });
  });

  it('forgets the revocation index of evicted and replaced entries', () => {
    const { cache } = cacheAt({ maxEntries: 1 });
    cache.set('shared', principal('u1'), null, cache.ticket());
    cache.set('shared', principal('u2'), null, cache.ticket());
    cache.invalidateUser('u1');
    expect(cache.get('shared')?.userId).toBe('u2');
    cache.set('other', principal('u3'), null, cache.ticket());
    cache.invalidateUser('u2');
    expect(cache.get('other')?.userId).toBe('u3');
  });

  it('refuses to store what was verified before a revocation that landed meanwhile', () => {
    const { cache } = cacheAt();
    const ticket = cache.ticket();
    cache.invalidateUser('someone-else');
    expect(cache.set('t1', principal('u1'), null, ticket)).toBe(false);
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.stats().racesLost).toBe(1);
    expect(cache.set('t1', principal('u1'), null, cache.ticket())).toBe(true);
  });

  it('flushes everything on clear', () => {
    const { cache } = cacheAt();
    const ticket = cache.ticket();
    cache.set('t1', principal('u1'), null, ticket);
    cache.set('t2', principal('u2'), null, ticket);
    cache.clear();
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.get('t2')).toBeUndefined();
    expect(cache.set('t3', principal('u3'), null, ticket)).toBe(false);
  });

  it('is off with a maximum age of 0', () => {
    const { cache } = cacheAt({ maxAgeMs: 0 });
    expect(cache.enabled).toBe(false);
    expect(cache.set('t1', principal('u1'), null, cache.ticket())).toBe(false);
    expect(cache.get('t1')).toBeUndefined();
  });
});
