import { registerAs } from '@nestjs/config';
import { ConfigurationError, Env, readBoolean, readInteger, readString } from './env';

/** The default retry schedule of webhook deliveries (contract 7.5). */
export const DEFAULT_RETRY_SCHEDULE = '0s,5s,5m,30m,2h,5h,10h,14h,20h,24h';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `0s,5s,5m,...` into delays in ms; throws a message naming the bad entry. */
export function parseRetrySchedule(text: string): number[] {
  const entries = text.split(',').map((s) => s.trim());
  if (entries.length === 0 || entries.some((e) => e === '')) throw new Error(`retry schedule "${text}" has an empty entry`);
  return entries.map((entry) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(entry);
    if (!m) throw new Error(`retry schedule entry "${entry}" is not a duration such as 500ms, 5s, 5m, 2h or 1d`);
    return Math.round(Number(m[1]) * UNIT_MS[m[2]]);
  });
}

export interface WebhooksConfig {
  /**
   * Refuse private, loopback and carrier-grade NAT targets too (link-local and metadata are always
   * refused). On by default when NODE_ENV=production: a webhook is otherwise a way for a read-write
   * credential to call the services of the server's own network.
   */
  blockPrivateNetworks: boolean;
  /**
   * Keep the first 512 bytes of a failed delivery's answer in the deliveries log. Off by default:
   * the log then holds the status code and a short reason of ours, never what the receiver said.
   */
  recordResponseBodies: boolean;
  /** Delays of the attempts after the event, in ms (contract 7.5; tests use seconds). */
  retrySchedule: number[];
  /** An attempt that has no 2xx within this many ms failed. */
  attemptTimeoutMs: number;
  maxEndpointsPerOrganization: number;
  /** Whether this instance attempts deliveries (every instance can; leases keep them from sending one twice). */
  workerEnabled: boolean;
  /** How often the worker looks for due deliveries when nothing woke it. */
  pollIntervalMs: number;
  /** How long a claimed delivery stays this instance's; longer than an attempt can take, so only a crash lets it lapse. */
  leaseMs: number;
  /** How often a worker renews its heartbeat; the leases of one that missed four are given back by the others. */
  heartbeatMs: number;
  /** Attempts in flight at once on this instance, and per endpoint across all instances. */
  concurrency: number;
  perEndpointConcurrency: number;
  /**
   * Live streams (contract 7.4): the `: ping` interval, the open streams per organization on this instance, a slow
   * client's bound (at least 256 KiB, well above a socket's high-water mark, so only a client that stops reading reaches it).
   */
  streamHeartbeatMs: number;
  streamsPerOrganization: number;
  streamMaxBufferedBytes: number;
}

export function readWebhooksConfig(env: Env): WebhooksConfig {
  let retrySchedule: number[];
  try {
    retrySchedule = parseRetrySchedule(readString(env, 'WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE));
  } catch (e) {
    throw new ConfigurationError(`WEBHOOK_RETRY_SCHEDULE: ${(e as Error).message}`);
  }
  const attemptTimeoutMs = readInteger(env, 'WEBHOOK_TIMEOUT_MS', 15_000, { min: 100, max: 60_000 });
  return {
    blockPrivateNetworks: readBoolean(env, 'WEBHOOK_BLOCK_PRIVATE_NETWORKS', env.NODE_ENV?.trim() === 'production'),
    recordResponseBodies: readBoolean(env, 'WEBHOOK_RECORD_RESPONSE_BODIES', false),
    retrySchedule,
    attemptTimeoutMs,
    maxEndpointsPerOrganization: readInteger(env, 'WEBHOOK_MAX_ENDPOINTS', 100, { min: 1, max: 10_000 }),
    workerEnabled: readBoolean(env, 'WEBHOOK_WORKER', true),
    pollIntervalMs: readInteger(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, { min: 10, max: 60_000 }),
    leaseMs: Math.max(readInteger(env, 'WEBHOOK_LEASE_SECONDS', 60, { min: 1, max: 3600 }) * 1000, attemptTimeoutMs + 5000),
    heartbeatMs: readInteger(env, 'WEBHOOK_HEARTBEAT_MS', 3000, { min: 50, max: 60_000 }),
    concurrency: readInteger(env, 'WEBHOOK_CONCURRENCY', 64, { min: 1, max: 1000 }),
    perEndpointConcurrency: 4,
    streamHeartbeatMs: readInteger(env, 'STREAM_HEARTBEAT_MS', 15_000, { min: 10, max: 300_000 }),
    streamsPerOrganization: readInteger(env, 'STREAMS_PER_ORGANIZATION', 100, { min: 1, max: 100_000 }),
    streamMaxBufferedBytes: readInteger(env, 'STREAM_MAX_BUFFERED_BYTES', 1024 * 1024, { min: 256 * 1024, max: 256 * 1024 * 1024 }),
  };
}

export const webhooksConfig = registerAs('webhooks', (): WebhooksConfig => readWebhooksConfig(process.env));
