import { Env, readInteger } from './env';

/** Limits and retention of realtime positions (contract 6.1 and 6.2). */
export interface PositionsConfig {
  /** Default of `max_sec_threshold` on realtime reads. */
  defaultMaxSecThreshold: number;
  /** How far in the future a reported `time` may be. */
  maxFutureSeconds: number;
  /** How old a reported `time` may be. */
  maxAgeSeconds: number;
  /** Days of history kept; older days are dropped. */
  retentionDays: number;
  /** Rows a report may answer; beyond it 507 output_too_large (contract 8.1). */
  reportMaxRows: number;
}

export const MAX_SEC_THRESHOLD_LIMIT = 86_400;

export function readPositionsConfig(env: Env): PositionsConfig {
  return {
    defaultMaxSecThreshold: readInteger(env, 'POSITIONS_MAX_SEC_THRESHOLD', 60, { min: 1, max: MAX_SEC_THRESHOLD_LIMIT }),
    maxFutureSeconds: readInteger(env, 'POSITIONS_MAX_FUTURE_SECONDS', 60, { min: 0, max: 86_400 }),
    maxAgeSeconds: readInteger(env, 'POSITIONS_MAX_AGE_SECONDS', 7 * 86_400, { min: 60, max: 366 * 86_400 }),
    retentionDays: readInteger(env, 'POSITIONS_RETENTION_DAYS', 30, { min: 1, max: 3650 }),
    reportMaxRows: readInteger(env, 'REPORTS_MAX_ROWS', 2_000_000, { min: 1, max: 100_000_000 }),
  };
}
