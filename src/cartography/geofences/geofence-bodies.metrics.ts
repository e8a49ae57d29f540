import { Registry } from 'prom-client';
import { registerCacheMetrics } from '../../common/metrics/cache-metrics';
import { GeofenceBodyCache } from './geofence-bodies';

const PREFIX = 'cartograph_geofence_body_cache_';

/** Live caches of this process (one per app; tests run several), read at scrape time. */
export const liveGeofenceBodyCaches = new Set<GeofenceBodyCache>();

function totals(): ReturnType<GeofenceBodyCache['stats']> {
  const sum = { hits: 0, misses: 0, entries: 0, bytes: 0 };
  for (const cache of liveGeofenceBodyCaches) {
    const stats = cache.stats();
    for (const name of Object.keys(sum) as Array<keyof typeof sum>) sum[name] += stats[name];
  }
  return sum;
}

/** The kept geofence bodies' hit rate and size on `registry`. Idempotent. */
export function registerGeofenceBodyMetrics(registry: Registry): void {
  registerCacheMetrics(
    registry,
    PREFIX,
    {
      lookups: 'GET /geofences/{id} lookups of kept bodies, by result (hit: no query, no serialization)',
      entries: 'Geofence bodies kept',
      bytes: 'Bytes of the geofence bodies kept',
    },
    totals,
  );
}
