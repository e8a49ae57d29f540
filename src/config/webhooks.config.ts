import { registerAs } from '@nestjs/config';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../delivery/webhooks/retry-schedule';
import { ConfigurationError, Env, readBoolean, readInteger, readString } from './env';

export interface WebhooksConfig {
  /** Refuse private, loopback and carrier-grade NAT targets too (link-local and metadata are always refused). */
  blockPrivateNetworks: boolean;
  /** Delays of the attempts after the event, in ms (contract 7.5; tests use seconds). */
  retrySchedule: number[];
  /** An attempt that has no 2xx within this many ms failed. */
  attemptTimeoutMs: number;
  maxEndpointsPerOrganization: number;
}

export function readWebhooksConfig(env: Env): WebhooksConfig {
  let retrySchedule: number[];
  try {
    retrySchedule = parseRetrySchedule(readString(env, 'WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE));
  } catch (e) {
    throw new ConfigurationError(`WEBHOOK_RETRY_SCHEDULE: ${(e as Error).message}`);
  }
  return {
    blockPrivateNetworks: readBoolean(env, 'WEBHOOK_BLOCK_PRIVATE_NETWORKS', false),
    retrySchedule,
    attemptTimeoutMs: readInteger(env, 'WEBHOOK_TIMEOUT_MS', 15_000, { min: 100, max: 60_000 }),
    maxEndpointsPerOrganization: readInteger(env, 'WEBHOOK_MAX_ENDPOINTS', 100, { min: 1, max: 10_000 }),
  };
}

export const webhooksConfig = registerAs('webhooks', (): WebhooksConfig => readWebhooksConfig(process.env));
