import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { authConfig, AuthConfig } from '../config/auth.config';
import { TransactionRunner } from '../database/transactions';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { IdempotencyKeysRepository, KeyClaim } from './idempotency-keys.repository';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, ResponseSealer, StoredResponse } from './idempotency-key';

export interface IdempotentRequest {
  scope: string;
  organizationId: string;
  fingerprint: string;
}

/** Either this attempt executes the request, or the stored answer is replayed. */
export type ClaimOutcome = { execute: true } | { execute: false; response: StoredResponse };

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
    private readonly keys: IdempotencyKeysRepository,
    @Inject(authConfig.KEY) config: AuthConfig,
  ) {
    this.sealer = new ResponseSealer(config.sealingSecret);
  }

  async claim(request: IdempotentRequest, now = new Date()): Promise<ClaimOutcome> {
    this.purgeExpiredSometimes(now);
    return this.transactions.run(async (manager) => {
      const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
      const claim: KeyClaim = { ...request, lockedUntil, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
      if (await this.keys.claim(manager, claim)) return { execute: true };
      const row = await this.keys.lock(manager, request.scope);
      if ((parseDatabaseTimestamp(row.expires_at)?.getTime() ?? 0) <= now.getTime()) {
        // An expired key starts afresh, as if never used.
        await this.keys.restart(manager, claim);
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
      await this.keys.restart(manager, claim);
      return { execute: true };
    });
  }

  /** Called inside the transaction of the write itself: the request is known to have executed. */
  async markWritten(manager: EntityManager, scope: string): Promise<void> {
    await this.keys.markWritten(manager, scope, new Date());
  }

  async complete(scope: string, response: StoredResponse): Promise<void> {
    await this.transactions.run((manager) => this.keys.complete(manager, scope, response.status, this.sealer.seal(response, scope)));
  }

  /** The attempt failed: give the lease up so that a retry need not wait for it to run out. */
  async release(scope: string): Promise<void> {
    try {
      await this.transactions.run((manager) => this.keys.release(manager, scope, new Date()));
    } catch (error) {
      // Typically the database is down: the lease then runs out by itself.
      this.logger.warn(`Could not release an idempotency key: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Expired keys are deleted now and then, in the background, by whichever instance passes by. */
  private purgeExpiredSometimes(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    this.transactions
      .run((manager) => this.keys.purge(manager, now))
      .catch((error: unknown) => this.logger.warn(`Could not purge expired idempotency keys: ${error instanceof Error ? error.message : String(error)}`));
  }
}
