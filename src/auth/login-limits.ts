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
