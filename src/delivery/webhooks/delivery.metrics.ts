import { Counter, Gauge, Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { metricsRegistry } from '../../common/metrics/metrics.registry';
import type { AttemptOutcome } from './retry-schedule';
import { WebhookDelivery } from './webhook-delivery.entity';

const PREFIX = 'cartograph_webhook_';

/** Every outcome an attempt can have (a new one fails to compile until it is listed): each has its series from the start, at 0. */
const OUTCOMES = Object.keys({ succeeded: true, failed: true, endpoint_gone: true } satisfies Record<AttemptOutcome['kind'], true>) as Array<AttemptOutcome['kind']>;

/** Attempts made by this instance, by outcome (succeeded, failed, endpoint_gone). */
export const webhookAttempts =
  (metricsRegistry.getSingleMetric(`${PREFIX}attempts_total`) as Counter<'outcome'> | undefined) ??
  withOutcomes(
    new Counter({ name: `${PREFIX}attempts_total`, help: 'Webhook delivery attempts made by this instance, by outcome', labelNames: ['outcome'], registers: [metricsRegistry] }),
    (counter, outcome) => counter.inc({ outcome }, 0),
  );

/** How long receivers took to answer (or to fail), by outcome. */
export const webhookAttemptDuration =
  (metricsRegistry.getSingleMetric(`${PREFIX}attempt_duration_seconds`) as Histogram<'outcome'> | undefined) ??
  withOutcomes(
    new Histogram({
      name: `${PREFIX}attempt_duration_seconds`,
      help: 'Webhook delivery attempts made by this instance, time from sending to the answer (or the failure), by outcome',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [metricsRegistry],
    }),
    (histogram, outcome) => histogram.zero({ outcome }),
  );

function withOutcomes<M>(metric: M, zero: (metric: M, outcome: AttemptOutcome['kind']) => void): M {
  for (const outcome of OUTCOMES) zero(metric, outcome);
  return metric;
}

/** Deliveries this instance gave up on (no attempt left, or 410). */
export const webhookDead =
  (metricsRegistry.getSingleMetric(`${PREFIX}dead_total`) as Counter | undefined) ??
  new Counter({ name: `${PREFIX}dead_total`, help: 'Webhook deliveries that became dead on this instance', registers: [metricsRegistry] });

let source: DataSource | null = null;

/**
 * The queue as the database sees it (every instance reports the same figures): deliveries
 * waiting, and how long the oldest has waited. Read at scrape time, on the due index.
 */
export function registerDeliveryQueueMetrics(dataSource: DataSource): void {
  source = dataSource;
  if (metricsRegistry.getSingleMetric(`${PREFIX}queue_depth`)) return;
  new Gauge({
    name: `${PREFIX}queue_depth`,
    help: 'Webhook deliveries waiting for an attempt (pending or failed with a retry scheduled)',
    registers: [metricsRegistry],
    async collect() {
      if (!source?.isInitialized) return;
      this.set(await source.getRepository(WebhookDelivery).count({ where: [{ status: 'pending' }, { status: 'failed' }] }));
    },
  });
  new Gauge({
    name: `${PREFIX}oldest_pending_age_seconds`,
    help: 'Age of the oldest webhook delivery still waiting (0 when none)',
    registers: [metricsRegistry],
    async collect() {
      if (!source?.isInitialized) return;
      const oldest = await source
        .getRepository(WebhookDelivery)
        .createQueryBuilder('d')
        .select('MIN(d.createdAt)', 'oldest')
        .where('d.status IN (:...statuses)', { statuses: ['pending', 'failed'] })
        .getRawOne<{ oldest: string | Date | null }>();
      const at = oldest?.oldest
        ? new Date(typeof oldest.oldest === 'string' && !oldest.oldest.endsWith('Z') && !oldest.oldest.includes('+') ? `${oldest.oldest.replace(' ', 'T')}Z` : oldest.oldest)
        : null;
      this.set(at ? Math.max(0, (Date.now() - at.getTime()) / 1000) : 0);
    },
  });
}
