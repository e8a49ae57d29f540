import { Counter, Gauge, Registry } from 'prom-client';

export interface CacheTotals {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/**
 * A process cache's lookups by result, entries and bytes on `registry` as
 * `<prefix>lookups_total{result}`, `<prefix>entries` and `<prefix>bytes`, read from `totals`
 * at scrape time. Idempotent.
 */
export function registerCacheMetrics(registry: Registry, prefix: string, help: { lookups: string; entries: string; bytes: string }, totals: () => CacheTotals): void {
  if (registry.getSingleMetric(`${prefix}lookups_total`)) return;
  new Counter({
    name: `${prefix}lookups_total`,
    help: help.lookups,
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
    name: `${prefix}entries`,
    help: help.entries,
    registers: [registry],
    collect() {
      this.set(totals().entries);
    },
  });
  new Gauge({
    name: `${prefix}bytes`,
    help: help.bytes,
    registers: [registry],
    collect() {
      this.set(totals().bytes);
    },
  });
}
