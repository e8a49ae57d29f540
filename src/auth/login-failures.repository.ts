import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';

export interface FailureCounter {
  failures: number | string;
  window_started_at: unknown;
}

const COUNT_IN_WINDOW = statement(
  'login-failures.count-in-window',
  `INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (:key, :now, 1)
       ON CONFLICT ("key") DO UPDATE SET
         "failures" = CASE WHEN "login_failures"."window_started_at" <= :windowStart THEN 1 ELSE "login_failures"."failures" + 1 END,
         "window_started_at" = CASE WHEN "login_failures"."window_started_at" <= :windowStart THEN :now ELSE "login_failures"."window_started_at" END
       RETURNING "failures", "window_started_at"`,
);
const SEEN_SINCE = statement('login-failures.seen-since', `SELECT 1 AS "one" FROM "login_failures" WHERE "key" = :key AND "window_started_at" > :since`);
const ENSURE = statement('login-failures.ensure', `INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (:key, :now, 0) ON CONFLICT ("key") DO NOTHING`);
// PostgreSQL locks the row for the attempt's transaction; SQLite's one writer already holds the database.
const LOCK = statement('login-failures.lock', {
  postgres: `SELECT "failures", "window_started_at" FROM "login_failures" WHERE "key" = :key FOR UPDATE`,
  sqlite: `SELECT "failures", "window_started_at" FROM "login_failures" WHERE "key" = :key`,
});
const COUNT = statement('login-failures.count', `UPDATE "login_failures" SET "failures" = "failures" + 1, "window_started_at" = :now WHERE "key" = :key`);
const GIVE_BACK = statement('login-failures.give-back', `UPDATE "login_failures" SET "failures" = "failures" - 1 WHERE "key" = :key AND "failures" > 0`);
const FORGET = statement('login-failures.forget', `DELETE FROM "login_failures" WHERE "key" IN (:first, :second)`);
const FAMILIAR = statement(
  'login-failures.familiar',
  `INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (:key, :now, 0)
         ON CONFLICT ("key") DO UPDATE SET "window_started_at" = :now`,
);
const STALE = `("key" NOT LIKE 'known%' AND "window_started_at" < :dayAgo) OR "window_started_at" < :familiarSince`;
// SKIP LOCKED: rows an attempt holds are left for next time, so the purge never waits on (or deadlocks with) a login.
const PURGE = statement('login-failures.purge', {
  postgres: `DELETE FROM "login_failures" WHERE "key" IN (SELECT "key" FROM "login_failures" WHERE ${STALE} FOR UPDATE SKIP LOCKED)`,
  sqlite: `DELETE FROM "login_failures" WHERE ${STALE}`,
});

/** The failed-login counters (`login_failures`): fixed windows, the account's consecutive failures, familiar addresses. */
@Injectable()
export class LoginFailuresRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** Increments a fixed-window counter, restarting one that began at or before `windowStart`. */
  async countInWindow(manager: EntityManager, key: string, now: Date, windowStart: Date): Promise<FailureCounter> {
    const [row] = await this.sql.query<FailureCounter>(manager, COUNT_IN_WINDOW, { key, now, windowStart });
    return row;
  }

  async seenSince(manager: EntityManager, key: string, since: Date): Promise<boolean> {
    return (await this.sql.query(manager, SEEN_SINCE, { key, since })).length > 0;
  }

  /** The account's counter, created at 0 if new, locked for the caller's transaction. */
  async lockAccount(manager: EntityManager, key: string, now: Date): Promise<FailureCounter> {
    await this.sql.query(manager, ENSURE, { key, now });
    const [row] = await this.sql.query<FailureCounter>(manager, LOCK, { key });
    return row;
  }

  async countAccountFailure(manager: EntityManager, key: string, now: Date): Promise<void> {
    await this.sql.query(manager, COUNT, { key, now });
  }

  /** A success: the address's reservation given back, the pair's and the account's counters forgotten, the address familiar from now. */
  async recordSuccess(manager: EntityManager, keys: { ipKey: string; pairKey: string; accountKey: string; knownKey: string }, now: Date): Promise<void> {
    await this.sql.query(manager, GIVE_BACK, { key: keys.ipKey });
    await this.sql.query(manager, FORGET, { first: keys.pairKey, second: keys.accountKey });
    await this.sql.query(manager, FAMILIAR, { key: keys.knownKey, now });
  }

  async purge(manager: EntityManager, dayAgo: Date, familiarSince: Date): Promise<void> {
    await this.sql.query(manager, PURGE, { dayAgo, familiarSince });
  }
}
