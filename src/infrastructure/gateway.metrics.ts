import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../common/metrics/metrics.registry';

const PREFIX = 'cartograph_gateway_';

/** Every outcome of a gateway message: each series exists from the start, at 0. */
export const MESSAGE_OUTCOMES = ['accepted', 'not_understood', 'too_large', 'unknown_gateway', 'rate_limited'] as const;
export type GatewayMessageOutcomeLabel = (typeof MESSAGE_OUTCOMES)[number];
/** MQTT clients this instance refused (embedded broker), by reason: bounded labels only. */
export const MQTT_REFUSALS = ['not_authorized', 'connections', 'oversized_packet'] as const;
export const mqttConnectionsRefused =
  (metricsRegistry.getSingleMetric(`${PREFIX}mqtt_connections_refused_total`) as Counter<'outcome'> | undefined) ??
  zeroed(
    new Counter({
      name: `${PREFIX}mqtt_connections_refused_total`,
      help: 'MQTT connections the embedded broker refused or closed, by reason (outcome)',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
    MQTT_REFUSALS,
  );

export const OBSERVATION_OUTCOMES = ['stored', 'duplicate', 'unknown_tag', 'not_understood'] as const;

/** Gateway messages taken by this instance (HTTP and MQTT), by outcome. */
export const gatewayMessages =
  (metricsRegistry.getSingleMetric(`${PREFIX}messages_total`) as Counter<'outcome'> | undefined) ??
  zeroed(
    new Counter({ name: `${PREFIX}messages_total`, help: 'Gateway messages taken by this instance, by outcome', labelNames: ['outcome'], registers: [metricsRegistry] }),
    MESSAGE_OUTCOMES,
  );

/** Observations in those messages, by what became of them (unknown_tag: an advertiser that is no tag, counted and not stored). */
export const gatewayObservations =
  (metricsRegistry.getSingleMetric(`${PREFIX}observations_total`) as Counter<'outcome'> | undefined) ??
  zeroed(
    new Counter({
      name: `${PREFIX}observations_total`,
      help: 'Observations in gateway messages taken by this instance, by outcome',
      labelNames: ['outcome'],
      registers: [metricsRegistry],
    }),
    OBSERVATION_OUTCOMES,
  );

/** Where the silent count comes from: the database, connected at start (GatewayIngestService). */
let silentSource: (() => Promise<number>) | null = null;
export function countSilentGatewaysWith(source: (() => Promise<number>) | null): void {
  silentSource = source;
}

/** Registered gateways of every organization without a message for 5 minutes: the same figure on every instance (read from the database at each scrape). */
export const gatewaysSilent =
  (metricsRegistry.getSingleMetric('cartograph_gateways_silent') as Gauge | undefined) ??
  new Gauge({
    name: 'cartograph_gateways_silent',
    help: 'Registered gateways (all organizations) without a message for 5 minutes, or never heard 5 minutes after registration',
    registers: [metricsRegistry],
    async collect() {
      if (!silentSource) return;
      try {
        this.set(await silentSource());
      } catch {
        // The database is down: the last figure stays; the database's own series say why.
      }
    },
  });

function zeroed<M extends Counter<'outcome'>>(counter: M, outcomes: readonly string[]): M {
  for (const outcome of outcomes) counter.inc({ outcome }, 0);
  return counter;
}
