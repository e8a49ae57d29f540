import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { SqlDialect } from '../../database/sql-dialect';
import { SqlRunner } from '../../database/sql-runner';
import { onlyOn, perDialect, statement } from '../../database/statements';
import { DeliveryStatus } from './webhook-delivery.entity';

/** What the worker keeps of a leased delivery: what an attempt sends and what its record needs. */
export interface LeasedDelivery {
  id: string;
  endpointId: string;
  messageId: string;
  payload: string;
  attempts: number;
  leaseExpiresAt: Date;
}

export interface DueDelivery {
  id: string;
  endpointId: string;
}

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

// Due deliveries of enabled endpoints, oldest first, at most `per_endpoint` of each endpoint:
// a backlog of one endpoint (a slow one, or one far behind) never hides another's deliveries
// from the claim.
const DUE = statement(
  'delivery-leases.due',
  `SELECT id, endpoint_id FROM (
  SELECT d.id, d.endpoint_id, d.next_attempt_at,
         ROW_NUMBER() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS n
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled = :enabled
   WHERE d.status IN ('pending', 'failed') AND d.next_attempt_at <= :now
     AND (d.lease_expires_at IS NULL OR d.lease_expires_at < :now)
) x
WHERE n <= :per_endpoint
ORDER BY next_attempt_at, id
LIMIT :limit`,
);

// Unexpired leases other instances hold on these endpoints (the in-flight cap is per endpoint, across instances).
const ELSEWHERE = statement(
  'delivery-leases.leased-elsewhere',
  perDialect(
    (dialect) => `SELECT endpoint_id, COUNT(*) AS n
  FROM webhook_deliveries
 WHERE ${dialect.anyOf('endpoint_id', 'endpoints', 'uuid')}
   AND status IN ('pending', 'failed') AND lease_expires_at > :now AND lease_owner <> :instance
 GROUP BY endpoint_id`,
  ),
);

// Leases the picked deliveries (still free: the guard repeats the due query's) and returns what the attempts need.
const LEASE = statement(
  'delivery-leases.lease',
  perDialect(
    (dialect) => `UPDATE webhook_deliveries
   SET lease_owner = :instance, lease_expires_at = :expires, updated_at = :now
 WHERE ${dialect.anyOf('id', 'ids', 'uuid')}
   AND status IN ('pending', 'failed') AND (lease_expires_at IS NULL OR lease_expires_at < :now)
RETURNING id, endpoint_id, message_id, payload, attempts`,
  ),
);

// Gives leased deliveries back unattempted (shutdown, a lease too short to start an attempt in, a disabled endpoint).
const RELEASE = statement(
  'delivery-leases.release',
  perDialect(
    (dialect) => `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
 WHERE ${dialect.anyOf('id', 'ids', 'uuid')} AND lease_owner = :instance`,
  ),
);

// PostgreSQL: every outcome of a batch in one statement (one round trip): the lease-guarded
// update, and the attempt log rows of exactly the deliveries it updated.
const RECORD_BATCH = statement(
  'delivery-leases.record-batch',
  onlyOn(
    'postgres',
    `WITH v AS (
  SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:statuses AS varchar[]), CAST(:next_attempts AS timestamptz[]), CAST(:attempts AS int[]),
                       CAST(:status_codes AS int[]), CAST(:errors AS text[]), CAST(:started AS timestamptz[]), CAST(:finished AS timestamptz[]),
                       CAST(:attempt_ids AS uuid[]), CAST(:durations AS int[]))
    AS v(id, status, next_attempt_at, attempts, last_status_code, last_error, last_attempt_at, updated_at, attempt_id, duration_ms)
), u AS (
  UPDATE webhook_deliveries AS d
     SET status = v.status, next_attempt_at = v.next_attempt_at, attempts = v.attempts, lease_owner = NULL, lease_expires_at = NULL,
         last_status_code = v.last_status_code, last_error = v.last_error, last_attempt_at = v.last_attempt_at, updated_at = v.updated_at
    FROM v
   WHERE d.id = v.id AND d.lease_owner = :instance
  RETURNING d.id
)
INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, instance)
SELECT v.attempt_id, v.id, v.attempts, v.last_attempt_at, v.duration_ms, v.last_status_code, v.last_error, :instance
  FROM v JOIN u ON u.id = v.id
RETURNING delivery_id`,
  ),
);

// SQLite: statements prepared once, run per outcome on the one connection (microseconds each), in the caller's transaction.
const RECORD_ONE = statement(
  'delivery-leases.record-one',
  onlyOn(
    'sqlite',
    `UPDATE webhook_deliveries
   SET status = :status, next_attempt_at = :next_attempt_at, attempts = :attempts, lease_owner = NULL, lease_expires_at = NULL,
       last_status_code = :status_code, last_error = :error, last_attempt_at = :started, updated_at = :finished
 WHERE id = :id AND lease_owner = :instance
RETURNING id`,
  ),
);
const RECORD_ATTEMPT = statement(
  'delivery-leases.record-attempt',
  onlyOn(
    'sqlite',
    `INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, instance)
VALUES (:attempt_id, :id, :attempts, :started, :duration_ms, :status_code, :error, :instance)
RETURNING id`,
  ),
);

/**
 * The leases of `webhook_deliveries`: the claim's statements (run in the caller's transaction,
 * which on PostgreSQL holds the claim lock, so no two instances pick at once), the records of
 * finished attempts, the give-back. Hand-written and prepared once: TypeORM's builders cost more
 * CPU per claim or record than the webhook attempt itself.
 */
@Injectable()
export class DeliveryLeasesRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly dialect: SqlDialect,
  ) {}

  private time(date: Date): Date | string {
    return this.dialect.timestamp(date.getTime());
  }

  /** Due deliveries, oldest first, at most `perEndpoint` of one endpoint and `limit` in all. */
  async due(now: Date, perEndpoint: number, limit: number): Promise<DueDelivery[]> {
    const rows = await this.sql.prepared<{ id: string; endpoint_id: string }>(DUE)({ enabled: this.dialect.boolean(true), now: this.time(now), per_endpoint: perEndpoint, limit });
    return rows.map((row) => ({ id: row.id, endpointId: row.endpoint_id }));
  }

  /** Per endpoint, the deliveries whose unexpired lease another instance holds. */
  async leasedElsewhere(endpointIds: readonly string[], now: Date, instance: string): Promise<Map<string, number>> {
    const rows = await this.sql.prepared<{ endpoint_id: string; n: string | number }>(ELSEWHERE)({ endpoints: this.dialect.list(endpointIds), now: this.time(now), instance });
    return new Map(rows.map((row) => [row.endpoint_id, Number(row.n)]));
  }

  async lease(ids: readonly string[], instance: string, now: Date, leaseExpiresAt: Date): Promise<LeasedDelivery[]> {
    const rows = await this.sql.prepared<{ id: string; endpoint_id: string; message_id: string; payload: string; attempts: number }>(LEASE)({
      instance,
      expires: this.time(leaseExpiresAt),
      now: this.time(now),
      ids: this.dialect.list(ids),
    });
    return rows.map((row) => ({ id: row.id, endpointId: row.endpoint_id, messageId: row.message_id, payload: row.payload, attempts: Number(row.attempts), leaseExpiresAt }));
  }

  /** Gives deliveries back unattempted, those `instance` still holds. */
  async release(manager: EntityManager, ids: readonly string[], instance: string): Promise<void> {
    if (ids.length > 0) await this.sql.query(manager, RELEASE, { ids: this.dialect.list(ids), instance });
  }

  /**
   * Writes the outcomes of finished attempts: each delivery's new state, only while `instance`
   * still holds its lease (another instance that took a lapsed lease over wins), and an attempt
   * log row for each one written. Runs inside the caller's transaction. Returns the ids of the
   * deliveries written.
   */
  async record(instance: string, outcomes: readonly RecordedOutcome[]): Promise<Set<string>> {
    const written = new Set<string>();
    if (outcomes.length === 0) return written;
    if (this.dialect.kind === 'postgres') {
      const iso = (date: Date | null) => (date ? date.toISOString() : null);
      const rows = await this.sql.prepared<{ delivery_id: string }>(RECORD_BATCH)({
        ids: outcomes.map((o) => o.deliveryId),
        statuses: outcomes.map((o) => o.status),
        next_attempts: outcomes.map((o) => iso(o.nextAttemptAt)),
        attempts: outcomes.map((o) => o.attempt),
        status_codes: outcomes.map((o) => o.statusCode),
        errors: outcomes.map((o) => o.error),
        started: outcomes.map((o) => iso(o.startedAt)),
        finished: outcomes.map((o) => iso(o.finishedAt)),
        attempt_ids: outcomes.map(() => randomUUID()),
        durations: outcomes.map((o) => o.durationMs),
        instance,
      });
      for (const row of rows) written.add(row.delivery_id);
      return written;
    }
    const update = this.sql.prepared<{ id: string }>(RECORD_ONE);
    const insert = this.sql.prepared<{ id: string }>(RECORD_ATTEMPT);
    for (const o of outcomes) {
      const row = {
        id: o.deliveryId,
        status: o.status,
        next_attempt_at: o.nextAttemptAt ? this.time(o.nextAttemptAt) : null,
        attempts: o.attempt,
        status_code: o.statusCode,
        error: o.error,
        started: this.time(o.startedAt),
        finished: this.time(o.finishedAt),
        duration_ms: o.durationMs,
        attempt_id: randomUUID(),
        instance,
      };
      if ((await update(row)).length === 0) continue;
      written.add(o.deliveryId);
      await insert(row);
    }
    return written;
  }
}
