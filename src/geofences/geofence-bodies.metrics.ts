import { Counter, Gauge, Registry } from 'prom-client';
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
  if (registry.getSingleMetric(`${PREFIX}lookups_total`)) return;
  new Counter({
    name: `${PREFIX}lookups_total`,
    help: 'GET /geofences/{id} lookups of kept bodies, by result (hit: no query, no serialization)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const { hits, misses } = totals();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
  new Gauge({
    name: `${PREFIX}entries`,
    help: 'Geofence bodies kept',
    registers: [registry],
    collect() {
      this.set(totals().entries);
    },
  });
  new Gauge({
    name: `${PREFIX}bytes`,
    help: 'Bytes of the geofence bodies kept',
    registers: [registry],
    collect() {
      this.set(totals().bytes);
    },
  });
}
