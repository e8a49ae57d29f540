import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { loginsThrottled } from '../common/metrics/operations.metrics';
import { authConfig, AuthConfig } from '../config/auth.config';
import { TransactionRunner } from '../database/transactions';
import { LoginFailuresRepository } from './login-failures.repository';
import { accountBackoffSeconds, FAMILIAR_ADDRESS_DAYS, LoginLimits, normalizeEmail, throttleKey, windowRetrySeconds } from './login-limits';

/** A login attempt that has been counted; a success gives the reservation back. */
export interface LoginAttempt {
  ipKey: string;
  pairKey: string;
  accountKey: string;
  knownKey: string;
}

const PURGE_INTERVAL_MS = 60_000;

/**
 * Limits password guessing (NIST SP 800-63B 5.2.2, OWASP Authentication Cheat Sheet) in three
 * dimensions, all counted in the database so every instance sees the same numbers:
 *
 * - per (account, address) and per address, in fixed windows: an address that keeps failing
 *   is refused (429) until its window ends;
 * - per account alone, consecutive failures from anywhere: past a threshold each further
 *   attempt must wait an exponentially growing, capped delay. Never a hard block, and
 *   addresses the account has logged in from recently skip it, so an attacker's failures
 *   elsewhere cannot lock the owner out.
 *
 * Each attempt is counted atomically BEFORE the password is hashed (check-then-act would let
 * a parallel burst through): the counters are incremented in one transaction and the
 * attempt refused, the increments rolled back, when a limit is passed. A success then gives
 * the reservation back.
 */
@Injectable()
export class LoginThrottleService {
  private readonly limits: LoginLimits;
  private readonly logger = new Logger('LoginThrottle');
  private lastPurge = 0;

  constructor(
    @Inject(authConfig.KEY) config: AuthConfig,
    private readonly transactions: TransactionRunner,
    private readonly counters: LoginFailuresRepository,
  ) {
    this.limits = config.loginLimits;
  }

  /** Counts the attempt, or refuses it with 429 and `Retry-After` (nothing counted then). */
  async reserveAttempt(ip: string, email: string, now = new Date()): Promise<LoginAttempt> {
    this.purgeStaleSometimes(now);
    const account = normalizeEmail(email);
    const attempt: LoginAttempt = {
      ipKey: throttleKey('ip', ip),
      pairKey: throttleKey('pair', account, ip),
      accountKey: throttleKey('account', account),
      knownKey: throttleKey('known', account, ip),
    };
    await this.transactions.run(async (manager) => {
      // Always in this order (address, pair, account), so concurrent attempts cannot deadlock.
      const address = await this.countInWindow(manager, attempt.ipKey, now);
      const pair = await this.countInWindow(manager, attempt.pairKey, now);
      const windowRetry = Math.max(
        address.failures > this.limits.perAddress ? address.retryAfterSeconds : 0,
        pair.failures > this.limits.perAccountAndAddress ? pair.retryAfterSeconds : 0,
      );
      if (windowRetry > 0) {
        loginsThrottled.inc({ limit: address.failures > this.limits.perAddress ? 'address' : 'account_address' });
        throw ApiError.tooManyRequests(windowRetry);
      }
      if (await this.isFamiliarAddress(manager, attempt.knownKey, now)) return;
      await this.countForAccount(manager, attempt.accountKey, now);
    });
    return attempt;
  }

  /** The password was right: the attempt was no failure, and the address becomes familiar. */
  async recordSuccess(attempt: LoginAttempt, now = new Date()): Promise<void> {
    await this.transactions.run((manager) => this.counters.recordSuccess(manager, attempt, now));
  }

  /** Increments a fixed-window counter (restarting an expired window) and returns the new count. */
  private async countInWindow(manager: EntityManager, key: string, now: Date): Promise<{ failures: number; retryAfterSeconds: number }> {
    const windowMs = this.limits.windowSeconds * 1000;
    const windowStart = new Date(now.getTime() - windowMs);
    const row = await this.counters.countInWindow(manager, key, now, windowStart);
    const started = parseDatabaseTimestamp(row.window_started_at) ?? now;
    return { failures: Number(row.failures), retryAfterSeconds: windowRetrySeconds(started.getTime(), now.getTime(), windowMs) };
  }

  private async isFamiliarAddress(manager: EntityManager, knownKey: string, now: Date): Promise<boolean> {
    const since = new Date(now.getTime() - FAMILIAR_ADDRESS_DAYS * 24 * 3600 * 1000);
    return this.counters.seenSince(manager, knownKey, since);
  }

  /** Counts a consecutive failure on the account, unless its backoff says to wait first. */
  private async countForAccount(manager: EntityManager, key: string, now: Date): Promise<void> {
    const row = await this.counters.lockAccount(manager, key, now);
    const failures = Number(row.failures);
    const lastAttempt = parseDatabaseTimestamp(row.window_started_at) ?? now;
    const waitMs = lastAttempt.getTime() + accountBackoffSeconds(failures, this.limits) * 1000 - now.getTime();
    if (waitMs > 0) {
      loginsThrottled.inc({ limit: 'account_backoff' });
      throw ApiError.tooManyRequests(waitMs / 1000);
    }
    await this.counters.countAccountFailure(manager, key, now);
  }

  /**
   * Forgets counters nobody needs any more, now and then, in the background: windows long
   * over, accounts without an attempt for a day (their count starts afresh), and familiar
   * addresses not used for 30 days.
   */
  private purgeStaleSometimes(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    const dayAgo = new Date(now.getTime() - Math.max(this.limits.windowSeconds * 1000, 24 * 3600 * 1000));
    const familiarSince = new Date(now.getTime() - FAMILIAR_ADDRESS_DAYS * 24 * 3600 * 1000);
    this.transactions
      .run((manager) => this.counters.purge(manager, dayAgo, familiarSince))
      .catch((error: unknown) => this.logger.warn(`Could not purge stale login counters: ${error instanceof Error ? error.message : String(error)}`));
  }
}
