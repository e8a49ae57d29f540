import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';

/** The rate's window: messages of the current minute and, in part, of the one before. */
export const RATE_WINDOW_MS = 60_000;

export interface GatewayHealthRow {
  gateway_id: number;
  last_seen_ms: number | string;
  messages: number | string;
  messages_not_understood: number | string;
  records_not_understood: number | string;
  observations_stored: number | string;
  observations_duplicate: number | string;
  unknown_advertisers: number | string;
  last_reason: string | null;
  last_reason_ms: number | string | null;
  last_limit: string | null;
  last_limit_ms: number | string | null;
  window_start_ms: number | string;
  window_messages: number | string;
  previous_window_messages: number | string;
}

/** What one message did, to add to its gateway's health. */
export interface GatewayMessageOutcome {
  now: number;
  notUnderstood: boolean;
  recordsNotUnderstood: number;
  stored: number;
  duplicates: number;
  unknown: number;
  /** Why the message, or its last dropped record, was not understood. */
  reason: string | null;
  /** The limit the message exceeded (`message_size`, `batch_records`; `message_rate` and `connections` are noted by `noteLimit`). */
  limit: string | null;
}

const COLUMNS = `"gateway_id", "last_seen_ms", "messages", "messages_not_understood", "records_not_understood", "observations_stored", "observations_duplicate",
  "unknown_advertisers", "last_reason", "last_reason_ms", "last_limit", "last_limit_ms", "window_start_ms", "window_messages", "previous_window_messages"`;

const READ = statement('gateway-health.read', `SELECT ${COLUMNS} FROM "gateway_health" WHERE "gateway_id" = :gatewayId`);

/**
 * One statement per message, atomic on either database, so instances sharing one PostgreSQL add up:
 * the counters grow, the last reason and limit are replaced when the message has one, and the rate's
 * minute moves on (a message of an older minute, from an instance a little behind, counts in the current one).
 */
const RECORD = statement(
  'gateway-health.record',
  `INSERT INTO "gateway_health" ("gateway_id", "organization_id", "last_seen_ms", "messages", "messages_not_understood", "records_not_understood", "observations_stored",
     "observations_duplicate", "unknown_advertisers", "last_reason", "last_reason_ms", "last_limit", "last_limit_ms", "window_start_ms", "window_messages", "previous_window_messages")
   VALUES (:gatewayId, :organizationId, :now, 1, :notUnderstood, :recordsNotUnderstood, :stored, :duplicates, :unknown, :reason, :reasonMs, :limit, :limitMs, :windowStart, 1, 0)
   ON CONFLICT ("gateway_id") DO UPDATE SET
     "last_seen_ms" = CASE WHEN excluded."last_seen_ms" > "gateway_health"."last_seen_ms" THEN excluded."last_seen_ms" ELSE "gateway_health"."last_seen_ms" END,
     "messages" = "gateway_health"."messages" + 1,
     "messages_not_understood" = "gateway_health"."messages_not_understood" + excluded."messages_not_understood",
     "records_not_understood" = "gateway_health"."records_not_understood" + excluded."records_not_understood",
     "observations_stored" = "gateway_health"."observations_stored" + excluded."observations_stored",
     "observations_duplicate" = "gateway_health"."observations_duplicate" + excluded."observations_duplicate",
     "unknown_advertisers" = "gateway_health"."unknown_advertisers" + excluded."unknown_advertisers",
     "last_reason" = COALESCE(excluded."last_reason", "gateway_health"."last_reason"),
     "last_reason_ms" = COALESCE(excluded."last_reason_ms", "gateway_health"."last_reason_ms"),
     "last_limit" = COALESCE(excluded."last_limit", "gateway_health"."last_limit"),
     "last_limit_ms" = COALESCE(excluded."last_limit_ms", "gateway_health"."last_limit_ms"),
     "previous_window_messages" = CASE
       WHEN "gateway_health"."window_start_ms" >= excluded."window_start_ms" THEN "gateway_health"."previous_window_messages"
       WHEN "gateway_health"."window_start_ms" = excluded."window_start_ms" - ${RATE_WINDOW_MS} THEN "gateway_health"."window_messages"
       ELSE 0 END,
     "window_messages" = CASE WHEN "gateway_health"."window_start_ms" >= excluded."window_start_ms" THEN "gateway_health"."window_messages" + 1 ELSE 1 END,
     "window_start_ms" = CASE WHEN "gateway_health"."window_start_ms" >= excluded."window_start_ms" THEN "gateway_health"."window_start_ms" ELSE excluded."window_start_ms" END`,
);

/** A message dropped or a client refused before it was read (`message_rate`, `connections`): only the limit and when, and that the gateway was heard. */
const NOTE_LIMIT = statement(
  'gateway-health.note-limit',
  `INSERT INTO "gateway_health" ("gateway_id", "organization_id", "last_seen_ms", "last_limit", "last_limit_ms", "window_start_ms")
   VALUES (:gatewayId, :organizationId, :now, :limit, :now, :windowStart)
   ON CONFLICT ("gateway_id") DO UPDATE SET
     "last_seen_ms" = CASE WHEN excluded."last_seen_ms" > "gateway_health"."last_seen_ms" THEN excluded."last_seen_ms" ELSE "gateway_health"."last_seen_ms" END,
     "last_limit" = excluded."last_limit",
     "last_limit_ms" = excluded."last_limit_ms"`,
);

const TAGS_HEARD = statement(
  'gateway-health.tags-heard',
  `SELECT COUNT(DISTINCT "device_id") AS "tags" FROM "gateway_observations" WHERE "gateway_id" = :gatewayId AND "time" >= :since`,
);

/** Gateways of every organization not heard since `since` (never heard: registered before it). */
const SILENT = statement(
  'gateway-health.silent',
  `SELECT COUNT(*) AS "silent" FROM "gateways" g LEFT JOIN "gateway_health" h ON h."gateway_id" = g."id"
   WHERE (h."last_seen_ms" IS NULL AND g."created_at" < :sinceDate) OR h."last_seen_ms" < :since`,
);

const REMOVE = statement('gateway-health.remove', `DELETE FROM "gateway_health" WHERE "gateway_id" = :gatewayId`);

/** Each gateway's health (`gateway_health`): in the database, so every instance sees and adds to the same figures. */
@Injectable()
export class GatewayHealthRepository {
  constructor(private readonly sql: SqlRunner) {}

  async read(manager: EntityManager, gatewayId: number): Promise<GatewayHealthRow | null> {
    return (await this.sql.query<GatewayHealthRow>(manager, READ, { gatewayId }))[0] ?? null;
  }

  async record(manager: EntityManager, gatewayId: number, organizationId: string, outcome: GatewayMessageOutcome): Promise<void> {
    await this.sql.query(manager, RECORD, {
      gatewayId,
      organizationId,
      now: outcome.now,
      notUnderstood: outcome.notUnderstood ? 1 : 0,
      recordsNotUnderstood: outcome.recordsNotUnderstood,
      stored: outcome.stored,
      duplicates: outcome.duplicates,
      unknown: outcome.unknown,
      reason: outcome.reason === null ? null : outcome.reason.slice(0, 500),
      reasonMs: outcome.reason === null ? null : outcome.now,
      limit: outcome.limit,
      limitMs: outcome.limit === null ? null : outcome.now,
      windowStart: outcome.now - (outcome.now % RATE_WINDOW_MS),
    });
  }

  async noteLimit(manager: EntityManager, gatewayId: number, organizationId: string, limit: string, now: number): Promise<void> {
    await this.sql.query(manager, NOTE_LIMIT, { gatewayId, organizationId, limit, now, windowStart: now - (now % RATE_WINDOW_MS) });
  }

  async tagsHeard(manager: EntityManager, gatewayId: number, since: number): Promise<number> {
    const rows = await this.sql.query<{ tags: number | string }>(manager, TAGS_HEARD, { gatewayId, since });
    return Number(rows[0]?.tags ?? 0);
  }

  async countSilent(manager: EntityManager, since: number): Promise<number> {
    const rows = await this.sql.query<{ silent: number | string }>(manager, SILENT, { since, sinceDate: new Date(since) });
    return Number(rows[0]?.silent ?? 0);
  }

  async remove(manager: EntityManager, gatewayId: number): Promise<void> {
    await this.sql.query(manager, REMOVE, { gatewayId });
  }
}
