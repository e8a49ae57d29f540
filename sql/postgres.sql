-- Every statement the repositories send to PostgreSQL, as the driver receives it.
-- Written by `npm run sql:snapshot`; src/database/statements.spec.ts fails when it is stale.

-- login-failures.count
UPDATE "login_failures" SET "failures" = "failures" + 1, "window_started_at" = $1 WHERE "key" = $2;

-- login-failures.count-in-window
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES ($1, $2, 1)
       ON CONFLICT ("key") DO UPDATE SET
         "failures" = CASE WHEN "login_failures"."window_started_at" <= $3 THEN 1 ELSE "login_failures"."failures" + 1 END,
         "window_started_at" = CASE WHEN "login_failures"."window_started_at" <= $3 THEN $2 ELSE "login_failures"."window_started_at" END
       RETURNING "failures", "window_started_at";

-- login-failures.ensure
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES ($1, $2, 0) ON CONFLICT ("key") DO NOTHING;

-- login-failures.familiar
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES ($1, $2, 0)
         ON CONFLICT ("key") DO UPDATE SET "window_started_at" = $2;

-- login-failures.forget
DELETE FROM "login_failures" WHERE "key" IN ($1, $2);

-- login-failures.give-back
UPDATE "login_failures" SET "failures" = "failures" - 1 WHERE "key" = $1 AND "failures" > 0;

-- login-failures.lock
SELECT "failures", "window_started_at" FROM "login_failures" WHERE "key" = $1 FOR UPDATE;

-- login-failures.purge
DELETE FROM "login_failures" WHERE "key" IN (SELECT "key" FROM "login_failures" WHERE ("key" NOT LIKE 'known%' AND "window_started_at" < $1) OR "window_started_at" < $2 FOR UPDATE SKIP LOCKED);

-- login-failures.seen-since
SELECT 1 AS "one" FROM "login_failures" WHERE "key" = $1 AND "window_started_at" > $2;
