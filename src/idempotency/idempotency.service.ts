import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { authConfig, AuthConfig } from '../config/auth.config';
import { TransactionRunner } from '../database/transactions';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, ResponseSealer, StoredResponse } from './idempotency-key';

export interface IdempotentRequest {
  scope: string;
  organizationId: string;
  fingerprint: string;
}

/** Either this attempt executes the request, or the stored answer is replayed. */
export type ClaimOutcome = { execute: true } | { execute: false; response: StoredResponse };

interface KeyRow {
  request_hash: string;
  locked_until: unknown;
  wrote_at: unknown;
  status: number | string | null;
  response: string | null;
  expires_at: unknown;
}

const PURGE_INTERVAL_MS = 60_000;

/**
 * Stores and replays the answers to create requests sent with an `Idempotency-Key`, in the
 * database so that every instance sees every key. A key is claimed with a lease before the
 * request executes: of two concurrent attempts one executes and the other is told 409.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');
  private readonly sealer: ResponseSealer;
  private lastPurge = 0;

  constructor(
    private readonly transactions: TransactionRunner,
    @Inject(authConfig.KEY) config: AuthConfig,
  ) {
    this.sealer = new ResponseSealer(config.sealingSecret);
  }

  async claim(request: IdempotentRequest, now = new Date()): Promise<ClaimOutcome> {
    this.purgeExpiredSometimes(now);
    return this.transactions.run(async (manager) => {
      const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
      const inserted = await this.query(
        manager,
        `INSERT INTO "idempotency_keys" ("scope_hash", "organization_id", "request_hash", "locked_until", "created_at", "expires_at")
         VALUES (:scope, :organizationId, :fingerprint, :lockedUntil, :now, :expiresAt)
         ON CONFLICT ("scope_hash") DO NOTHING RETURNING "scope_hash"`,
        { ...request, lockedUntil, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
      );
      if (inserted.length > 0) return { execute: true };
      const lock = manager.connection.options.type === 'postgres' ? ' FOR UPDATE' : '';
      const [row] = await this.query<KeyRow>(manager, `SELECT * FROM "idempotency_keys" WHERE "scope_hash" = :scope${lock}`, request);
      if ((parseDatabaseTimestamp(row.expires_at)?.getTime() ?? 0) <= now.getTime()) {
        // An expired key starts afresh, as if never used.
        await this.restart(manager, request, now, lockedUntil);
        return { execute: true };
      }
      if (row.request_hash !== request.fingerprint) {
        throw ApiError.validation('This Idempotency-Key was already used with a different request', [
          { message: 'was used with another request body or query in the last 24 hours; use a new key', code: 'reused', fields: 'Idempotency-Key' },
        ]);
      }
      const stored = row.status !== null && row.response !== null ? this.sealer.open(row.response, request.scope) : null;
      if (stored) return { execute: false, response: stored };
      if ((parseDatabaseTimestamp(row.locked_until)?.getTime() ?? 0) > now.getTime()) {
        throw new ApiError(409, ErrorCode.Conflict, 'A request with this Idempotency-Key is still being processed; retry shortly', [], { 'Retry-After': '1' });
      }
      if (row.wrote_at !== null) {
        throw ApiError.conflict('A request with this Idempotency-Key was executed, but its answer could not be stored; read the resource instead of retrying');
      }
      // The earlier attempt ended without writing anything (it failed, or its instance died): run it again.
      await this.restart(manager, request, now, lockedUntil);
      return { execute: true };
    });
  }

  /** Called inside the transaction of the write itself: the request is known to have executed. */
  async markWritten(manager: EntityManager, scope: string): Promise<void> {
    await this.query(manager, `UPDATE "idempotency_keys" SET "wrote_at" = :now WHERE "scope_hash" = :scope`, { scope, now: new Date() });
  }

  async complete(scope: string, response: StoredResponse): Promise<void> {
    await this.transactions.run((manager) =>
      this.query(manager, `UPDATE "idempotency_keys" SET "status" = :status, "response" = :response WHERE "scope_hash" = :scope`, {
        scope,
        status: response.status,
        response: this.sealer.seal(response, scope),
      }),
    );
  }

  /** The attempt failed: give the lease up so that a retry need not wait for it to run out. */
  async release(scope: string): Promise<void> {
    try {
      await this.transactions.run((manager) =>
        this.query(manager, `UPDATE "idempotency_keys" SET "locked_until" = :now WHERE "scope_hash" = :scope AND "status" IS NULL`, { scope, now: new Date() }),
      );
    } catch (error) {
      // Typically the database is down: the lease then runs out by itself.
      this.logger.warn(`Could not release an idempotency key: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async restart(manager: EntityManager, request: IdempotentRequest, now: Date, lockedUntil: Date): Promise<void> {
    await this.query(
      manager,
      `UPDATE "idempotency_keys" SET "request_hash" = :fingerprint, "locked_until" = :lockedUntil, "wrote_at" = NULL, "status" = NULL,
         "response" = NULL, "created_at" = CASE WHEN "expires_at" <= :now THEN :now ELSE "created_at" END,
         "expires_at" = CASE WHEN "expires_at" <= :now THEN :expiresAt ELSE "expires_at" END
       WHERE "scope_hash" = :scope`,
      { ...request, lockedUntil, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
    );
  }

  /** Expired keys are deleted now and then, in the background, by whichever instance passes by. */
  private purgeExpiredSometimes(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    this.transactions
      .run((manager) => this.query(manager, `DELETE FROM "idempotency_keys" WHERE "expires_at" <= :now`, { now }))
      .catch((error: unknown) => this.logger.warn(`Could not purge expired idempotency keys: ${error instanceof Error ? error.message : String(error)}`));
  }

  private query<T = unknown>(manager: EntityManager, sql: string, parameters: object): Promise<T[]> {
    const [escaped, values] = this.transactions.escape(sql, parameters as Record<string, unknown>);
    return manager.query(escaped, values) as Promise<T[]>;
  }
}
