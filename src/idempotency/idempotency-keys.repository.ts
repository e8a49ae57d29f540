import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';

export interface KeyRow {
  request_hash: string;
  locked_until: unknown;
  wrote_at: unknown;
  status: number | string | null;
  response: string | null;
  expires_at: unknown;
}

const CLAIM = statement(
  'idempotency-keys.claim',
  `INSERT INTO "idempotency_keys" ("scope_hash", "organization_id", "request_hash", "locked_until", "created_at", "expires_at")
         VALUES (:scope, :organizationId, :fingerprint, :lockedUntil, :now, :expiresAt)
         ON CONFLICT ("scope_hash") DO NOTHING RETURNING "scope_hash"`,
);
// PostgreSQL locks the key's row for the claim's transaction; SQLite's one writer already holds the database.
const LOCK = statement('idempotency-keys.lock', {
  postgres: `SELECT * FROM "idempotency_keys" WHERE "scope_hash" = :scope FOR UPDATE`,
  sqlite: `SELECT * FROM "idempotency_keys" WHERE "scope_hash" = :scope`,
});
const RESTART = statement(
  'idempotency-keys.restart',
  `UPDATE "idempotency_keys" SET "request_hash" = :fingerprint, "locked_until" = :lockedUntil, "wrote_at" = NULL, "status" = NULL,
         "response" = NULL, "created_at" = CASE WHEN "expires_at" <= :now THEN :now ELSE "created_at" END,
         "expires_at" = CASE WHEN "expires_at" <= :now THEN :expiresAt ELSE "expires_at" END
       WHERE "scope_hash" = :scope`,
);
const WRITTEN = statement('idempotency-keys.written', `UPDATE "idempotency_keys" SET "wrote_at" = :now WHERE "scope_hash" = :scope`);
const COMPLETE = statement('idempotency-keys.complete', `UPDATE "idempotency_keys" SET "status" = :status, "response" = :response WHERE "scope_hash" = :scope`);
const RELEASE = statement('idempotency-keys.release', `UPDATE "idempotency_keys" SET "locked_until" = :now WHERE "scope_hash" = :scope AND "status" IS NULL`);
const PURGE = statement('idempotency-keys.purge', `DELETE FROM "idempotency_keys" WHERE "expires_at" <= :now`);

export interface KeyClaim {
  scope: string;
  organizationId: string;
  fingerprint: string;
  lockedUntil: Date;
  now: Date;
  expiresAt: Date;
}

/** The `idempotency_keys` table: claims with a lease, the stored answers, the purge. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** Whether this claim created the key (the request executes). */
  async claim(manager: EntityManager, claim: KeyClaim): Promise<boolean> {
    return (await this.sql.query(manager, CLAIM, { ...claim })).length > 0;
  }

  /** The key's row, locked for the caller's transaction. */
  async lock(manager: EntityManager, scope: string): Promise<KeyRow> {
    const [row] = await this.sql.query<KeyRow>(manager, LOCK, { scope });
    return row;
  }

  async restart(manager: EntityManager, claim: KeyClaim): Promise<void> {
    await this.sql.query(manager, RESTART, { scope: claim.scope, fingerprint: claim.fingerprint, lockedUntil: claim.lockedUntil, now: claim.now, expiresAt: claim.expiresAt });
  }

  async markWritten(manager: EntityManager, scope: string, now: Date): Promise<void> {
    await this.sql.query(manager, WRITTEN, { scope, now });
  }

  async complete(manager: EntityManager, scope: string, status: number, response: string): Promise<void> {
    await this.sql.query(manager, COMPLETE, { scope, status, response });
  }

  async release(manager: EntityManager, scope: string, now: Date): Promise<void> {
    await this.sql.query(manager, RELEASE, { scope, now });
  }

  async purge(manager: EntityManager, now: Date): Promise<void> {
    await this.sql.query(manager, PURGE, { now });
  }
}
