import { Counter, Registry } from 'prom-client';
import { registerCacheMetrics } from '../common/metrics/cache-metrics';
import { metricsRegistry } from '../common/metrics/metrics.registry';
import { CredentialCacheStats } from './credential-cache';
import { liveCredentialCaches } from './credential-cache.service';

const METRIC_PREFIX = 'cartograph_credential_cache_';

/** The sum of every live cache of this process (one per app; tests run several). */
function totals(): CredentialCacheStats {
  const sum: CredentialCacheStats = { hits: 0, misses: 0, stores: 0, evictions: 0, invalidations: 0, racesLost: 0, entries: 0, bytes: 0 };
  for (const cache of liveCredentialCaches) {
    const stats = cache.stats();
    for (const name of Object.keys(sum) as Array<keyof CredentialCacheStats>) sum[name] += stats[name];
  }
  return sum;
}

/**
 * Registers the credential cache's hit rate and size on `registry` (the one `/metrics` serves
 * unless told), read from the caches at scrape time. Idempotent.
 */
export function registerCredentialCacheMetrics(registry: Registry = metricsRegistry): void {
  if (registry.getSingleMetric(`${METRIC_PREFIX}removals_total`)) return;
  registerCacheMetrics(
    registry,
    METRIC_PREFIX,
    {
      lookups: 'Credential cache lookups, by result (hit: no strategy, no database)',
      entries: 'Credentials whose principal is cached',
      bytes: 'Estimated memory held by the credential cache',
    },
    totals,
  );
  new Counter({
    name: `${METRIC_PREFIX}removals_total`,
    help: 'Credential cache entries dropped, by reason (evict: for room; invalidate: a revocation or a flush)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      const { evictions, invalidations } = totals();
      this.reset();
      this.inc({ reason: 'evict' }, evictions);
      this.inc({ reason: 'invalidate' }, invalidations);
    },
  });
}
