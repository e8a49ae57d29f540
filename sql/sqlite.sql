-- Every statement the repositories send to SQLite, as the driver receives it.
-- Written by `npm run sql:snapshot`; src/database/statements.spec.ts fails when it is stale.

-- login-failures.count
UPDATE "login_failures" SET "failures" = "failures" + 1, "window_started_at" = ? WHERE "key" = ?;

-- login-failures.count-in-window
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (?, ?, 1)
       ON CONFLICT ("key") DO UPDATE SET
         "failures" = CASE WHEN "login_failures"."window_started_at" <= ? THEN 1 ELSE "login_failures"."failures" + 1 END,
         "window_started_at" = CASE WHEN "login_failures"."window_started_at" <= ? THEN ? ELSE "login_failures"."window_started_at" END
       RETURNING "failures", "window_started_at";

-- login-failures.ensure
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (?, ?, 0) ON CONFLICT ("key") DO NOTHING;

-- login-failures.familiar
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (?, ?, 0)
         ON CONFLICT ("key") DO UPDATE SET "window_started_at" = ?;

-- login-failures.forget
DELETE FROM "login_failures" WHERE "key" IN (?, ?);

-- login-failures.give-back
UPDATE "login_failures" SET "failures" = "failures" - 1 WHERE "key" = ? AND "failures" > 0;

-- login-failures.lock
SELECT "failures", "window_started_at" FROM "login_failures" WHERE "key" = ?;

-- login-failures.purge
DELETE FROM "login_failures" WHERE ("key" NOT LIKE 'known%' AND "window_started_at" < ?) OR "window_started_at" < ?;

-- login-failures.seen-since
SELECT 1 AS "one" FROM "login_failures" WHERE "key" = ? AND "window_started_at" > ?;
