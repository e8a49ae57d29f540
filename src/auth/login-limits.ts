import { createHash } from 'node:crypto';
import { LoginLimits } from '../config/auth.config';

export type { LoginLimits };

/** How long an address counts as one the account logs in from (it skips the account backoff). */
export const FAMILIAR_ADDRESS_DAYS = 30;

/**
 * The wait the account dimension imposes after `failures` consecutive failures: none up to
 * the threshold, then 1 s doubling with every further failure, capped. A backoff delays
 * guessing from many addresses without ever locking the account outright.
 */
export function accountBackoffSeconds(failures: number, limits: Pick<LoginLimits, 'accountBackoffAfter' | 'accountMaxBackoffSeconds'>): number {
  if (failures < limits.accountBackoffAfter) return 0;
  const exponent = Math.min(failures - limits.accountBackoffAfter, 30);
  return Math.min(2 ** exponent, limits.accountMaxBackoffSeconds);
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A counter's key; long ones are hashed to fit the column (only absurd e-mails are that long). */
export function throttleKey(kind: 'ip' | 'pair' | 'account' | 'known', ...parts: string[]): string {
  const key = `${kind}:${parts.join('|')}`;
  return key.length <= 200 ? key : `${kind}#${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Seconds until a fixed window ends, as an attempt sees it: the window opened at `startedMs` (the
 * database's row) and lasts `windowMs`. A concurrent attempt whose clock was read a moment later may
 * have opened it, after this attempt's `nowMs`; the window is taken as open from now at the latest,
 * so the wait is never longer than the window (a burst once answered Retry-After 61 for 60 s).
 */
export function windowRetrySeconds(startedMs: number, nowMs: number, windowMs: number): number {
  return (Math.min(startedMs, nowMs) + windowMs - nowMs) / 1000;
}
