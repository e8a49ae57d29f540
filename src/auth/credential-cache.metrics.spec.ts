import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerCredentialCacheMetrics } from './credential-cache.metrics';
import { CredentialCacheService, liveCredentialCaches } from './credential-cache.service';

describe('credential cache metrics', () => {
  it('exposes the hit rate and size of the live caches', async () => {
    const registry = new Registry();
    registerCredentialCacheMetrics(registry);
    registerCredentialCacheMetrics(registry);
    const fake = { stats: () => ({ hits: 7, misses: 3, stores: 3, evictions: 1, invalidations: 2, racesLost: 0, entries: 2, bytes: 1234 }) };
    liveCredentialCaches.add(fake as unknown as CredentialCacheService);
    try {
      const text = await registry.metrics();
      expect(text).toContain('cartograph_credential_cache_lookups_total{result="hit"} 7');
      expect(text).toContain('cartograph_credential_cache_lookups_total{result="miss"} 3');
      expect(text).toContain('cartograph_credential_cache_removals_total{reason="evict"} 1');
      expect(text).toContain('cartograph_credential_cache_entries 2');
      expect(text).toContain('cartograph_credential_cache_bytes 1234');
    } finally {
      liveCredentialCaches.delete(fake as unknown as CredentialCacheService);
    }
  });
});
