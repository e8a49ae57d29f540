import { describe, expect, it } from 'vitest';
import { GeofenceBody, GeofenceBodyCache } from './geofence-bodies';

const body = (buildingId: number, text = 'x', organizationId = 'org'): GeofenceBody => ({ organizationId, buildingId, version: 1, body: Buffer.from(text) });

describe('GeofenceBodyCache', () => {
  it('keeps a body until its building changes; other buildings keep theirs', () => {
    const cache = new GeofenceBodyCache({ maxBytes: 1000, maxAgeMs: 60_000 });
    expect(cache.set('a', body(1), cache.ticket())).toBe(true);
    expect(cache.set('b', body(2), cache.ticket())).toBe(true);
    expect(cache.get('a')?.body.toString()).toBe('x');
    cache.invalidateBuildings([1]);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.stats()).toEqual({ hits: 2, misses: 1, entries: 1, bytes: 1 });
  });

  it('refuses a store whose read started before an invalidation (of any building) or a flush', () => {
    const cache = new GeofenceBodyCache({ maxBytes: 1000, maxAgeMs: 60_000 });
    const before = cache.ticket();
    cache.invalidateBuildings([7]);
    expect(cache.set('a', body(1), before)).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    const again = cache.ticket();
    cache.clear();
    expect(cache.set('a', body(1), again)).toBe(false);
    expect(cache.set('a', body(1), cache.ticket())).toBe(true);
  });

  it('a body stored again under another building is dropped with the new building, not the old one', () => {
    const cache = new GeofenceBodyCache({ maxBytes: 1000, maxAgeMs: 60_000 });
    cache.set('a', body(1, 'old'), cache.ticket());
    cache.set('a', body(2, 'new'), cache.ticket());
    cache.invalidateBuildings([1]);
    expect(cache.get('a')?.body.toString()).toBe('new');
    cache.invalidateBuildings([2]);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats().bytes).toBe(0);
  });

  it('keeps within its byte bound, least recently used first, and keeps no body over a quarter of it', () => {
    const cache = new GeofenceBodyCache({ maxBytes: 40, maxAgeMs: 60_000 });
    for (const id of ['a', 'b', 'c', 'd']) cache.set(id, body(1, id.repeat(10)), cache.ticket());
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('e', body(1, 'e'.repeat(10)), cache.ticket());
    expect(cache.get('b')).toBeUndefined();
    for (const id of ['a', 'c', 'd', 'e']) expect(cache.get(id)).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 4, bytes: 40 });
    expect(cache.set('big', body(1, 'z'.repeat(11)), cache.ticket())).toBe(false);
    expect(cache.get('big')).toBeUndefined();
  });

  it('stops serving a body after its maximum age', () => {
    let now = 1_000;
    const cache = new GeofenceBodyCache({ maxBytes: 1000, maxAgeMs: 60_000 }, () => now);
    cache.set('a', body(1), cache.ticket());
    now += 59_999;
    expect(cache.get('a')).toBeDefined();
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('a flush drops everything', () => {
    const cache = new GeofenceBodyCache({ maxBytes: 1000, maxAgeMs: 60_000 });
    cache.set('a', body(1), cache.ticket());
    cache.set('b', body(2), cache.ticket());
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
