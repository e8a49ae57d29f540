import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { authConfig, AuthConfig } from '../config/auth.config';
import { TransactionRunner } from '../database/transactions';

/**
 * Counts failed password logins per client address and per e-mail in fixed windows, and
 * refuses further attempts (429) before any password is hashed once a count reaches the limit.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  private keys(ip: string, email: string): string[] {
    return [`ip:${ip}`, `email:${email.trim().toLowerCase()}`.slice(0, 400)];
  }

  async assertAllowed(ip: string, email: string, now = new Date()): Promise<void> {
    const [ipKey, emailKey] = this.keys(ip, email);
    const [sql, parameters] = this.transactions.escape(
      'SELECT "window_started_at", "failures" FROM "login_failures" WHERE "key" IN (:ipKey, :emailKey)',
      { ipKey, emailKey },
    );
    const rows: Array<{ window_started_at: unknown; failures: number }> = await this.dataSource.query(sql, parameters);
    const windowMs = this.config.loginFailureWindowSeconds * 1000;
    let retryAfterMs = 0;
    for (const row of rows) {
      const started = parseDatabaseTimestamp(row.window_started_at);
      if (!started || Number(row.failures) < this.config.loginFailureLimit) continue;
      const remaining = started.getTime() + windowMs - now.getTime();
      retryAfterMs = Math.max(retryAfterMs, remaining);
    }
    if (retryAfterMs > 0) throw ApiError.tooManyRequests(retryAfterMs / 1000);
  }

  async recordFailure(ip: string, email: string, now = new Date()): Promise<void> {
    const windowStart = new Date(now.getTime() - this.config.loginFailureWindowSeconds * 1000);
    await this.transactions.run(async (manager) => {
      for (const key of this.keys(ip, email)) {
        // One statement, so concurrent failures on several instances all count.
        const [sql, parameters] = this.transactions.escape(
          `INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (:key, :now, 1)
           ON CONFLICT ("key") DO UPDATE SET
             "failures" = CASE WHEN "login_failures"."window_started_at" <= :windowStart THEN 1 ELSE "login_failures"."failures" + 1 END,
             "window_started_at" = CASE WHEN "login_failures"."window_started_at" <= :windowStart THEN :now ELSE "login_failures"."window_started_at" END`,
          { key, now, windowStart },
        );
        await manager.query(sql, parameters);
      }
    });
  }

  /** A successful login clears the e-mail's count; the address's count runs out with its window. */
  async recordSuccess(email: string): Promise<void> {
    const [, emailKey] = this.keys('', email);
    await this.transactions.run((manager) => manager.delete('login_failures', { key: emailKey }));
  }
}
