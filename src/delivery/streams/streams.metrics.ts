import { Counter, Gauge, Registry } from 'prom-client';
import { metricsRegistry } from '../../common/metrics/metrics.registry';
import { STREAM_END_REASONS, STREAM_KINDS } from './sse-stream';

const METRIC_PREFIX = 'cartograph_streams_';

export interface StreamCounts {
  /** Open streams by kind (`positions`, `events`). */
  open: Map<string, number>;
  /** Streams the server ended, by reason. */
  ended: Map<string, number>;
}

/** Live registries of this process (one per app; tests run several). */
export const liveStreamRegistries = new Set<{ counts(): StreamCounts }>();

function totals(): StreamCounts {
  const sum: StreamCounts = { open: new Map(), ended: new Map() };
  for (const registry of liveStreamRegistries) {
    const counts = registry.counts();
    for (const [kind, n] of counts.open) sum.open.set(kind, (sum.open.get(kind) ?? 0) + n);
    for (const [reason, n] of counts.ended) sum.ended.set(reason, (sum.ended.get(reason) ?? 0) + n);
  }
  return sum;
}

/** Open live streams and the ones the server ended, on `registry` (the one `/metrics` serves unless told), read at scrape time. Idempotent. */
export function registerStreamMetrics(registry: Registry = metricsRegistry): void {
  if (registry.getSingleMetric(`${METRIC_PREFIX}open`)) return;
  new Gauge({
    name: `${METRIC_PREFIX}open`,
    help: 'Server-Sent Events streams open on this instance, by kind',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      // Every kind has a series from the start (0 when none is open), so a panel or an alert sees it.
      for (const kind of STREAM_KINDS) this.set({ kind }, 0);
      for (const [kind, n] of totals().open) this.set({ kind }, n);
    },
  });
  new Counter({
    name: `${METRIC_PREFIX}ended_by_server_total`,
    help: 'Streams the server ended, by reason (shutdown, credential_revoked, too_slow)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const reason of STREAM_END_REASONS) this.inc({ reason }, 0);
      for (const [reason, n] of totals().ended) this.inc({ reason }, n);
    },
  });
}
