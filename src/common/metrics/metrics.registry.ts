import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's one Prometheus registry. Features register their own metrics here
 * (`new Counter({ name, help, registers: [metricsRegistry] })`); `/metrics` serves it.
 * Metrics are per instance: Prometheus scrapes each instance and sums.
 */
export const metricsRegistry = new Registry();

let defaultsCollected = false;

/** Process memory, CPU, event loop lag, GC and handles (prom-client's defaults); once a process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 10 });
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestsTotal = new Counter({
  name: 'cartograph_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'cartograph_http_request_duration_seconds',
  help: 'Time from request to response, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const databaseQueryDuration = new Histogram({
  name: 'cartograph_db_query_duration_seconds',
  help: 'Database query time of successful queries, by statement kind',
  labelNames: ['kind'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/** The bounded values of the `kind` label; each has its series from the start, at 0. */
const STATEMENT_KINDS = ['select', 'insert', 'update', 'delete', 'with', 'other'] as const;
for (const kind of STATEMENT_KINDS) databaseQueryDuration.zero({ kind });

/** What a connection pool reports; PostgreSQL's `pg.Pool` has these three counts. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const pools = new Set<() => PoolCounts | undefined>();

/** Registers a pool to report in `cartograph_db_pool_connections`; returns its unregistration. */
export function reportPool(read: () => PoolCounts | undefined): () => void {
  pools.add(read);
  return () => pools.delete(read);
}

new Gauge({
  name: 'cartograph_db_pool_connections',
  help: 'Database pool connections: total open, idle, and requests waiting for one (PostgreSQL)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const read of pools) {
      const counts = read();
      if (!counts) continue;
      total += counts.totalCount;
      idle += counts.idleCount;
      waiting += counts.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

/** The statement's kind from its first word: a bounded label, never the query text. */
export function statementKind(query: string): string {
  const word = /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase();
  return STATEMENT_KINDS.find((kind) => kind === word) ?? 'other';
}
