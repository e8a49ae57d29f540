import { randomUUID } from 'node:crypto';
import { PreparedQueries } from '../../database/prepared-queries';
import { sqliteTime } from './delivery-claims';
import { DeliveryStatus } from './webhook-delivery.entity';

/** One finished attempt, as the outbox and its attempt log store it. */
export interface RecordedOutcome {
  deliveryId: string;
  /** The attempt's number (1 for the first). */
  attempt: number;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  statusCode: number | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
}

// PostgreSQL: every outcome of a batch in one statement (one round trip): the lease-guarded
// update, and the attempt log rows of exactly the deliveries it updated.
const POSTGRES_RECORD = `
WITH v AS (
  SELECT * FROM unnest(CAST($1 AS uuid[]), CAST($2 AS varchar[]), CAST($3 AS timestamptz[]), CAST($4 AS int[]), CAST($5 AS int[]),
                       CAST($6 AS text[]), CAST($7 AS timestamptz[]), CAST($8 AS timestamptz[]), CAST($9 AS uuid[]), CAST($10 AS int[]))
    AS v(id, status, next_attempt_at, attempts, last_status_code, last_error, last_attempt_at, updated_at, attempt_id, duration_ms)
), u AS (
  UPDATE webhook_deliveries AS d
     SET status = v.status, next_attempt_at = v.next_attempt_at, attempts = v.attempts, lease_owner = NULL, lease_expires_at = NULL,
         last_status_code = v.last_status_code, last_error = v.last_error, last_attempt_at = v.last_attempt_at, updated_at = v.updated_at
    FROM v
   WHERE d.id = v.id AND d.lease_owner = $11
  RETURNING d.id
)
INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, instance)
SELECT v.attempt_id, v.id, v.attempts, v.last_attempt_at, v.duration_ms, v.last_status_code, v.last_error, $11
  FROM v JOIN u ON u.id = v.id
RETURNING delivery_id`;

// SQLite: statements prepared once, run per outcome on the one connection (microseconds each), in the caller's transaction.
const SQLITE_UPDATE = `
UPDATE webhook_deliveries
   SET status = ?, next_attempt_at = ?, attempts = ?, lease_owner = NULL, lease_expires_at = NULL,
       last_status_code = ?, last_error = ?, last_attempt_at = ?, updated_at = ?
 WHERE id = ? AND lease_owner = ?
RETURNING id`;
const SQLITE_ATTEMPT = `
INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, instance)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id`;

/**
 * Writes the outcomes of finished attempts: each delivery's new state, only while `instance`
 * still holds its lease (another instance that took a lapsed lease over wins), and an attempt
 * log row for each one written. Runs inside the caller's transaction. Returns the ids of the
 * deliveries written.
 *
 * Hand-written statements rather than TypeORM's update and insert builders: building those
 * cost more CPU than the webhook attempt itself.
 */
export async function recordOutcomes(queries: PreparedQueries, postgres: boolean, instance: string, outcomes: readonly RecordedOutcome[]): Promise<Set<string>> {
  const written = new Set<string>();
  if (outcomes.length === 0) return written;
  if (postgres) {
    const column = <T>(pick: (o: RecordedOutcome) => T) => outcomes.map(pick);
    const iso = (date: Date | null) => (date ? date.toISOString() : null);
    const rows = (await queries.execute('cg_webhook_record_outcomes', POSTGRES_RECORD, [
      column((o) => o.deliveryId),
      column((o) => o.status),
      column((o) => iso(o.nextAttemptAt)),
      column((o) => o.attempt),
      column((o) => o.statusCode),
      column((o) => o.error),
      column((o) => iso(o.startedAt)),
      column((o) => iso(o.finishedAt)),
      column(() => randomUUID()),
      column((o) => o.durationMs),
      instance,
    ])) as Array<{ delivery_id: string }>;
    for (const row of rows) written.add(row.delivery_id);
    return written;
  }
  for (const o of outcomes) {
    const updated = await queries.execute('cg_webhook_record_outcome', SQLITE_UPDATE, [
      o.status,
      sqliteTime(o.nextAttemptAt),
      o.attempt,
      o.statusCode,
      o.error,
      sqliteTime(o.startedAt),
      sqliteTime(o.finishedAt),
      o.deliveryId,
      instance,
    ]);
    if (updated.length === 0) continue;
    written.add(o.deliveryId);
    await queries.execute('cg_webhook_record_attempt', SQLITE_ATTEMPT, [
      randomUUID(),
      o.deliveryId,
      o.attempt,
      sqliteTime(o.startedAt),
      o.durationMs,
      o.statusCode,
      o.error,
      instance,
    ]);
  }
  return written;
}
