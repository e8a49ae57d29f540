-- Every statement the repositories send to PostgreSQL, as the driver receives it.
-- Written by `npm run sql:snapshot`; src/database/statements.spec.ts fails when it is stale.

-- building-reports.rollups
SELECT device_id, slot, positioned_ms FROM position_rollups WHERE organization_id = $1 AND building_id = $2 AND slot >= $3 AND slot < $4;

-- building-revisions.bump
INSERT INTO "building_revisions" ("building_id", "revision") VALUES ($1, 1)
         ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.bump-organization
INSERT INTO "building_revisions" ("building_id", "revision")
       SELECT "id", 1 FROM "buildings" WHERE "organization_id" = $1
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.category-buildings
SELECT DISTINCT "building_id" FROM "pois" WHERE "category_id" = $1;

-- building-revisions.current
SELECT "revision" FROM "building_revisions" WHERE "building_id" = $1;

-- building-tracking.read
SELECT "scans", "positions", "reset_after_seconds" FROM "building_tracking" WHERE "building_id" = $1;

-- building-tracking.write
INSERT INTO "building_tracking" ("building_id", "organization_id", "scans", "positions", "reset_after_seconds", "version", "updated_at")
         VALUES ($1, $2, $3, $4, $5, 1, $6)
         ON CONFLICT ("building_id") DO UPDATE SET "scans" = excluded."scans", "positions" = excluded."positions", "reset_after_seconds" = excluded."reset_after_seconds",
           "version" = "building_tracking"."version" + 1, "updated_at" = excluded."updated_at";

-- credential-owners.key-by-hash
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."key_hash" = $1;

-- credential-owners.key-by-id
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."id" = $1;

-- credential-owners.session
SELECT s."user_id", u."organization_id", u."email", u."role", u."building_scope", s."permission", s."api_key_id", k."permission" AS "key_permission", s."revoked_at"
     FROM "auth_sessions" s
     INNER JOIN "users" u ON u."id" = s."user_id"
     LEFT JOIN "api_keys" k ON k."id" = s."api_key_id"
     WHERE s."id" = $1;

-- delivery-leases.due
SELECT id, endpoint_id FROM (
  SELECT d.id, d.endpoint_id, d.next_attempt_at,
         ROW_NUMBER() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS n
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled = $1
   WHERE d.status IN ('pending', 'failed') AND d.next_attempt_at <= $2
     AND (d.lease_expires_at IS NULL OR d.lease_expires_at < $2)
) x
WHERE n <= $3
ORDER BY next_attempt_at, id
LIMIT $4;

-- delivery-leases.lease
UPDATE webhook_deliveries
   SET lease_owner = $1, lease_expires_at = $2, updated_at = $3
 WHERE id = ANY(CAST($4 AS uuid[]))
   AND status IN ('pending', 'failed') AND (lease_expires_at IS NULL OR lease_expires_at < $3)
RETURNING id, endpoint_id, message_id, payload, attempts;

-- delivery-leases.leased-elsewhere
SELECT endpoint_id, COUNT(*) AS n
  FROM webhook_deliveries
 WHERE endpoint_id = ANY(CAST($1 AS uuid[]))
   AND status IN ('pending', 'failed') AND lease_expires_at > $2 AND lease_owner <> $3
 GROUP BY endpoint_id;

-- delivery-leases.record-attempt
-- not sent to PostgreSQL

-- delivery-leases.record-batch
WITH v AS (
  SELECT * FROM unnest(CAST($1 AS uuid[]), CAST($2 AS varchar[]), CAST($3 AS timestamptz[]), CAST($4 AS int[]),
                       CAST($5 AS int[]), CAST($6 AS text[]), CAST($7 AS timestamptz[]), CAST($8 AS timestamptz[]),
                       CAST($9 AS uuid[]), CAST($10 AS int[]))
    AS v(id, status, next_attempt_at, attempts, last_status_code, last_error, last_attempt_at, updated_at, attempt_id, duration_ms)
), u AS (
  UPDATE webhook_deliveries AS d
     SET status = v.status, next_attempt_at = v.next_attempt_at, attempts = v.attempts, lease_owner = NULL, lease_expires_at = NULL,
         last_status_code = v.last_status_code, last_error = v.last_error, last_attempt_at = v.last_attempt_at, updated_at = v.updated_at
    FROM v
   WHERE d.id = v.id AND d.lease_owner = $11
  RETURNING d.id
)
INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, instance)
SELECT v.attempt_id, v.id, v.attempts, v.last_attempt_at, v.duration_ms, v.last_status_code, v.last_error, $11
  FROM v JOIN u ON u.id = v.id
RETURNING delivery_id;

-- delivery-leases.record-one
-- not sent to PostgreSQL

-- delivery-leases.release
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
 WHERE id = ANY(CAST($1 AS uuid[])) AND lease_owner = $2;

-- device-tracks.read[2]
SELECT "device_id", "time", "state" FROM "device_tracks" WHERE "organization_id" = $1 AND "device_id" IN ($2, $3);

-- device-tracks.remove
DELETE FROM "device_tracks" WHERE "organization_id" = $1 AND "device_id" = $2;

-- device-tracks.write[2]
INSERT INTO "device_tracks" ("organization_id", "device_id", "time", "state") VALUES ($1, $2, $3, $4), ($1, $5, $6, $7)
         ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time" = excluded."time", "state" = excluded."state";

-- event-log.after
SELECT seq, body FROM geofence_events WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3;

-- event-log.bounds
SELECT (SELECT MIN(seq) FROM geofence_events WHERE organization_id = $1) AS oldest,
                (SELECT seq FROM geofence_event_counters WHERE organization_id = $1) AS last;

-- event-log.by-ids[2]
SELECT id, seq, body FROM geofence_events WHERE organization_id = $1 AND id IN ($2, $3);

-- event-log.committed-seq
SELECT seq FROM geofence_event_counters WHERE organization_id = $1;

-- event-log.occurred-in
SELECT id, body FROM geofence_events WHERE organization_id = $1 AND occurred_at >= $2 AND occurred_at <= $3 ORDER BY seq LIMIT $4;

-- event-log.one
SELECT body, building_id FROM geofence_events WHERE organization_id = $1 AND id = $2;

-- event-log.page[0:0:0:0:0:0:0:0:0:ASC]
SELECT body FROM geofence_events WHERE organization_id = $1 ORDER BY seq ASC LIMIT $2;

-- event-log.page[0:1:0:0:0:0:0:0:0:DESC]
SELECT body FROM geofence_events WHERE organization_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3;

-- event-log.page[1:0:1:1:2:2:2:2:2:ASC]
SELECT body FROM geofence_events WHERE organization_id = $1 AND seq > $2 AND type IN ($3, $4) AND geofence_id IN ($5, $6) AND device_id IN ($7, $8) AND user_id IN ($9, $10) AND building_id IN ($11, $12) AND occurred_at >= $13 AND occurred_at <= $14 ORDER BY seq ASC LIMIT $15;

-- event-retention.delete-through
DELETE FROM geofence_events WHERE organization_id = $1 AND seq <= $2;

-- event-retention.oldest[5000]
SELECT seq, CASE WHEN detected_at < $1 THEN 1 ELSE 0 END AS expired FROM geofence_events WHERE organization_id = $2 ORDER BY seq LIMIT 5000;

-- event-retention.organizations
SELECT organization_id FROM geofence_event_counters;

-- fix-places.places[0:2]
SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = $1 AND b.deleted_at IS NULL AND b.id IN ($2, $3);

-- fix-places.places[2:0]
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = $1 AND f.deleted_at IS NULL AND b.organization_id = $1 AND b.deleted_at IS NULL AND f.id IN ($2, $3);

-- fix-places.places[2:2]
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = $1 AND f.deleted_at IS NULL AND b.organization_id = $1 AND b.deleted_at IS NULL AND f.id IN ($2, $3) UNION ALL SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = $1 AND b.deleted_at IS NULL AND b.id IN ($4, $5);

-- fix-places.users[2]
SELECT id FROM users WHERE organization_id = $1 AND id IN ($2, $3);

-- geofence-state.all-deadlines-forward
UPDATE geofence_states SET next_deadline_at = $1 WHERE organization_id = $2 AND next_deadline_at > $1;

-- geofence-state.all-fences-with-pairs
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = $1;

-- geofence-state.deadlines-forward
UPDATE geofence_states SET next_deadline_at = $1 WHERE organization_id = $2 AND next_deadline_at > $1 AND geofence_id = ANY(CAST($3 AS uuid[]));

-- geofence-state.due
SELECT organization_id, device_id FROM geofence_states WHERE next_deadline_at <= $1 ORDER BY next_deadline_at LIMIT $2;

-- geofence-state.fences-with-pairs
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = $1 AND geofence_id = ANY(CAST($2 AS uuid[]));

-- geofence-state.holders
SELECT DISTINCT device_id FROM geofence_states WHERE organization_id = $1 AND geofence_id = ANY(CAST($2 AS uuid[]));

-- geofence-state.take-seq
INSERT INTO geofence_event_counters (organization_id, seq) VALUES ($1, $2)
         ON CONFLICT (organization_id) DO UPDATE SET seq = geofence_event_counters.seq + excluded.seq RETURNING seq;

-- geofence-state.visit-update[dwell+exit]
UPDATE geofence_visits SET dwell_fired = $1, exited_at = $2, exit_reason = $3 WHERE id = $4 AND organization_id = $5;

-- geofence-state.visit-update[dwell]
UPDATE geofence_visits SET dwell_fired = $1 WHERE id = $2 AND organization_id = $3;

-- geofence-state.visit-update[exit]
UPDATE geofence_visits SET exited_at = $1, exit_reason = $2 WHERE id = $3 AND organization_id = $4;

-- geofences.by-id
SELECT * FROM "geofences" WHERE "id" = $1 AND "organization_id" = $2;

-- geofences.search-count[0:-:0:0:0]
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2;

-- geofences.search-count[2:2:2:1:1]
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2 AND "building_id" IN ($3, $4) AND "building_id" IN ($5, $6) AND "floor_id" IN ($7, $8) AND "code" = $9 AND "name_lower" LIKE $10 ESCAPE '\';

-- geofences.search-page[0:-:0:0:0:created_at:ASC]
SELECT * FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2 ORDER BY "created_at" ASC, "id" ASC LIMIT $3 OFFSET $4;

-- geofences.search-page[2:2:2:1:1:name_lower:DESC]
SELECT * FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2 AND "building_id" IN ($3, $4) AND "building_id" IN ($5, $6) AND "floor_id" IN ($7, $8) AND "code" = $9 AND "name_lower" LIKE $10 ESCAPE '\' ORDER BY "name_lower" DESC, "id" ASC LIMIT $11 OFFSET $12;

-- heatmaps.drop-before
DELETE FROM heatmap_days WHERE organization_id = $1 AND day < $2;

-- heatmaps.grid
SELECT CAST(floor(x / $1) AS INTEGER) AS cx, CAST(floor(y / $1) AS INTEGER) AS cy, COUNT(*) AS n
  FROM position_history
  WHERE organization_id = $2 AND building_id = $3 AND floor_id = $4 AND "time" >= $5 AND "time" < $6 AND x IS NOT NULL AND y IS NOT NULL
  GROUP BY 1, 2;

-- heatmaps.keep
INSERT INTO heatmap_days (organization_id, floor_id, cell_cm, day, building_fixes, cells, computed_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (organization_id, floor_id, cell_cm, day) DO UPDATE SET building_fixes = excluded.building_fixes, cells = excluded.cells, computed_at = excluded.computed_at;

-- heatmaps.kept
SELECT day, building_fixes, cells FROM heatmap_days WHERE organization_id = $1 AND floor_id = $2 AND cell_cm = $3 AND day >= $4 AND day < $5;

-- heatmaps.slot-sums
SELECT slot, SUM(fixes) AS fixes FROM position_rollups
  WHERE organization_id = $1 AND building_id = $2 AND slot >= $3 AND slot < $4 GROUP BY slot;

-- idempotency-keys.claim
INSERT INTO "idempotency_keys" ("scope_hash", "organization_id", "request_hash", "locked_until", "created_at", "expires_at")
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ("scope_hash") DO NOTHING RETURNING "scope_hash";

-- idempotency-keys.complete
UPDATE "idempotency_keys" SET "status" = $1, "response" = $2 WHERE "scope_hash" = $3;

-- idempotency-keys.lock
SELECT * FROM "idempotency_keys" WHERE "scope_hash" = $1 FOR UPDATE;

-- idempotency-keys.purge
DELETE FROM "idempotency_keys" WHERE "expires_at" <= $1;

-- idempotency-keys.release
UPDATE "idempotency_keys" SET "locked_until" = $1 WHERE "scope_hash" = $2 AND "status" IS NULL;

-- idempotency-keys.restart
UPDATE "idempotency_keys" SET "request_hash" = $1, "locked_until" = $2, "wrote_at" = NULL, "status" = NULL,
         "response" = NULL, "created_at" = CASE WHEN "expires_at" <= $3 THEN $3 ELSE "created_at" END,
         "expires_at" = CASE WHEN "expires_at" <= $3 THEN $4 ELSE "expires_at" END
       WHERE "scope_hash" = $5;

-- idempotency-keys.written
UPDATE "idempotency_keys" SET "wrote_at" = $1 WHERE "scope_hash" = $2;

-- image-blobs.read
SELECT "bytes" FROM "image_blobs" WHERE "image_id" = $1;

-- image-blobs.remove
DELETE FROM "image_blobs" WHERE "image_id" = $1;

-- image-blobs.write
INSERT INTO "image_blobs" ("image_id", "bytes") VALUES ($1, $2);

-- live-fences.by-ids
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, g.geometric, r.rules FROM geofences g
           LEFT JOIN geofence_rules r ON r.geofence_id = g.id
           WHERE g.organization_id = $1 AND (g.deleted = $2 OR $3 = 1) AND g.id = ANY(CAST($4 AS uuid[]));

-- live-fences.floor-revisions[4]
SELECT f."id", f."building_id", b."latitude", b."longitude", b."version" AS "building_version", COALESCE(v."revision", 0) AS "revision"
       FROM "floors" f
       JOIN "buildings" b ON b."id" = f."building_id" AND b."deleted_at" IS NULL
       LEFT JOIN "building_revisions" v ON v."building_id" = f."building_id"
       WHERE f."organization_id" = $1 AND f."deleted_at" IS NULL AND f."id" IN ($2, $3, $4, $5);

-- live-fences.of-floor
SELECT g."id", g."name", g."code", g."building_id", g."floor_id", g."geometric", r."rules" FROM "geofences" g
       LEFT JOIN "geofence_rules" r ON r."geofence_id" = g."id"
       WHERE g."organization_id" = $1 AND g."deleted" = $2 AND g."floor_id" = $3;

-- live-fences.settings
SELECT "rules" FROM "geofencing_settings" WHERE "organization_id" = $1;

-- live-positions.changed-since
SELECT d.id, d.code, d.user_id, d.last_time AT TIME ZONE 'UTC', d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at AT TIME ZONE 'UTC', d.updated_at AT TIME ZONE 'UTC'
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE d.organization_id = $1 AND d.updated_at >= $2 AND d.last_time IS NOT NULL ORDER BY d.updated_at, d.id;

-- live-positions.latest[0:0:0:any]
SELECT d.id, d.code, d.user_id, d.last_time AT TIME ZONE 'UTC', d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at AT TIME ZONE 'UTC', d.updated_at AT TIME ZONE 'UTC' FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = $1 AND d.last_time >= $2 ORDER BY d.id;

-- live-positions.latest[2:2:2:in]
SELECT d.id, d.code, d.user_id, d.last_time AT TIME ZONE 'UTC', d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at AT TIME ZONE 'UTC', d.updated_at AT TIME ZONE 'UTC' FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = $1 AND d.last_time >= $2 AND d.building_id IN ($3, $4) AND d.user_id IN ($5, $6) AND d.id IN ($7, $8) AND d.floor_id IS NOT NULL ORDER BY d.id;

-- live-positions.pois[2]
SELECT id, floor_id, x, y, radius FROM pois WHERE organization_id = $1 AND radius IS NOT NULL AND floor_id IN ($2, $3);

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

-- occupancy.counts[0:0]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[0:2]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 AND g.floor_id IN ($3, $4) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:0]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 AND g.building_id IN ($3, $4) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:2]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 AND g.building_id IN ($3, $4) AND g.floor_id IN ($5, $6) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.occupants
SELECT device_id, state FROM geofence_states WHERE geofence_id = $1 AND organization_id = $2 AND phase IN ('inside', 'pending_exit') ORDER BY device_id;

-- occupancy.visit-count[0:0]
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2;

-- occupancy.visit-count[1:1]
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2 AND entered_at <= $3 AND (exited_at IS NULL OR exited_at >= $4);

-- occupancy.visits[0:0]
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2 ORDER BY entered_at DESC, id LIMIT $3 OFFSET $4;

-- occupancy.visits[1:1]
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2 AND entered_at <= $3 AND (exited_at IS NULL OR exited_at >= $4) ORDER BY entered_at DESC, id LIMIT $5 OFFSET $6;

-- radio-models.bump[model_revision]
INSERT INTO "radio_revisions" ("building_id", "model_revision") VALUES ($1, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "model_revision" = "radio_revisions"."model_revision" + 1;

-- radio-models.bump[reference_revision]
INSERT INTO "radio_revisions" ("building_id", "reference_revision") VALUES ($1, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "reference_revision" = "radio_revisions"."reference_revision" + 1;

-- radio-models.insert-if-absent
INSERT INTO "radio_models" ("floor_id", "organization_id", "building_id", "version", "scans", "statistics", "created_at", "updated_at")
       VALUES ($1, $2, $3, 1, $4, $5, $6, $7)
       ON CONFLICT ("floor_id") DO NOTHING RETURNING "floor_id";

-- report-fences.fence-building
SELECT building_id FROM geofences WHERE organization_id = $1 AND id = $2 AND deleted = $3;

-- report-fences.fences[0:0]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 ORDER BY id;

-- report-fences.fences[0:2]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 AND id IN ($2, $3) ORDER BY id;

-- report-fences.fences[2:0]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 AND building_id IN ($2, $3) ORDER BY id;

-- report-fences.fences[2:2]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 AND building_id IN ($2, $3) AND id IN ($4, $5) ORDER BY id;

-- report-fences.live-buildings[2]
SELECT id FROM buildings WHERE organization_id = $1 AND deleted_at IS NULL AND id IN ($2, $3);

-- report-visits.first-page
SELECT id, geofence_id, device_id, user_id, CAST(extract(epoch FROM entered_at) * 1000 AS double precision) AS entered_ms, CAST(extract(epoch FROM exited_at) * 1000 AS double precision) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = $1 AND organization_id = $2 AND entered_at >= $3 AND entered_at < $4
      ORDER BY entered_at, id LIMIT $5;

-- report-visits.next-page
SELECT id, geofence_id, device_id, user_id, CAST(extract(epoch FROM entered_at) * 1000 AS double precision) AS entered_ms, CAST(extract(epoch FROM exited_at) * 1000 AS double precision) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = $1 AND organization_id = $2 AND entered_at >= $3 AND entered_at < $4
        AND (entered_at > $3 OR id > $5)
      ORDER BY entered_at, id LIMIT $6;

-- report-visits.under-way-at-start
SELECT id, geofence_id, device_id, user_id, CAST(extract(epoch FROM entered_at) * 1000 AS double precision) AS entered_ms, CAST(extract(epoch FROM exited_at) * 1000 AS double precision) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = $1 AND organization_id = $2 AND entered_at < $3 AND (exited_at >= $3 OR exited_at IS NULL);

-- stream-leases.count
SELECT COUNT(*) AS open FROM stream_leases WHERE organization_id = $1;

-- stream-leases.delete
DELETE FROM stream_leases WHERE id = $1;

-- stream-leases.delete-all
DELETE FROM stream_leases;

-- stream-leases.delete-instance
DELETE FROM stream_leases WHERE instance_id = $1;

-- stream-leases.insert
INSERT INTO stream_leases (id, organization_id, kind, instance_id, expires_at) VALUES ($1, $2, $3, $4, $5);

-- stream-leases.purge-expired
DELETE FROM stream_leases WHERE organization_id = $1 AND expires_at <= $2;

-- stream-leases.renew
UPDATE stream_leases SET expires_at = $1 WHERE instance_id = $2;

-- stream-tickets.issue
INSERT INTO stream_tickets (ticket_hash, organization_id, user_id, principal, expires_at) VALUES ($1, $2, $3, $4, $5);

-- stream-tickets.sweep
DELETE FROM stream_tickets WHERE expires_at < $1;

-- stream-tickets.take
DELETE FROM stream_tickets WHERE ticket_hash = $1 AND expires_at > $2 RETURNING principal;

-- transmitter-sites.bump
INSERT INTO "infrastructure_revisions" ("building_id", "revision") VALUES ($1, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "infrastructure_revisions"."revision" + 1;

-- transmitter-sites.sites[2]
SELECT b."id", b."latitude", b."longitude", b."width", b."length", b."rotation",
              COALESCE(v."revision", 0) AS "building_revision", COALESCE(i."revision", 0) AS "infrastructure_revision",
              COALESCE(r."model_revision", 0) AS "model_revision", COALESCE(r."reference_revision", 0) AS "reference_revision",
              t."scans" AS "tracking_scans", t."positions" AS "tracking_positions", t."reset_after_seconds" AS "tracking_reset_after_seconds"
       FROM "buildings" b
       LEFT JOIN "building_revisions" v ON v."building_id" = b."id"
       LEFT JOIN "infrastructure_revisions" i ON i."building_id" = b."id"
       LEFT JOIN "radio_revisions" r ON r."building_id" = b."id"
       LEFT JOIN "building_tracking" t ON t."building_id" = b."id"
       WHERE b."organization_id" = $1 AND b."deleted_at" IS NULL AND b."id" IN ($2, $3);

-- user-positions.building-instant
SELECT device_id, user_id, CAST(date_part('epoch', "time") * 1000 AS bigint), floor_id, lat, lng FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" = $3 ORDER BY device_id;

-- user-positions.building-page[5000]
SELECT device_id, user_id, CAST(date_part('epoch', "time") * 1000 AS bigint), floor_id, lat, lng FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" >= $3 AND "time" < $4 ORDER BY "time", device_id LIMIT 5000;

-- user-positions.building-track-count[0,0,0]
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" >= $3 AND "time" < $4 LIMIT $5) capped;

-- user-positions.building-track-count[1,1,1]
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" >= $3 AND "time" < $4 AND device_id = $5 AND user_id = $6 AND floor_id = $7 LIMIT $8) capped;

-- user-positions.device-track-count
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = $1 AND device_id = $2 AND "time" >= $3 AND "time" < $4 LIMIT $5) capped;

-- user-positions.device-track-page[5000]
SELECT user_id, CAST(date_part('epoch', "time") * 1000 AS bigint), floor_id, lat, lng, building_id FROM position_history
     WHERE organization_id = $1 AND device_id = $2 AND "time" >= $3 AND "time" < $4 ORDER BY "time" LIMIT 5000;

-- user-positions.elsewhere
SELECT device_id, CAST(date_part('epoch', "time") * 1000 AS bigint), building_id FROM position_history WHERE organization_id = $1 AND building_id < $2 AND "time" >= $3 AND "time" < $4 UNION ALL SELECT device_id, CAST(date_part('epoch', "time") * 1000 AS bigint), building_id FROM position_history WHERE organization_id = $1 AND building_id > $2 AND "time" >= $3 AND "time" < $4 UNION ALL SELECT device_id, CAST(date_part('epoch', "time") * 1000 AS bigint), building_id FROM position_history WHERE organization_id = $1 AND building_id IS NULL AND "time" >= $3 AND "time" < $4 ORDER BY 2;

-- users.list-count[0:0:0:0:0:-:0:0]
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = $1;

-- users.list-count[1:2:2:2:2:with:1:2]
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = $1 AND "u"."id" = $2 AND "u"."id" IN ($3, $4) AND "u"."id" NOT IN ($5, $6) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN ($7, $8)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN ($9, $10)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE $11 ESCAPE '\' AND "u"."code" IN ($12, $13);

-- users.list-page[0:0:0:0:0:-:0:0:created_at:ASC]
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = $1 ORDER BY "u"."created_at" ASC NULLS LAST, "u"."id" ASC LIMIT $2 OFFSET $3;

-- users.list-page[0:0:0:0:0:without:0:0:full_name:ASC]
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = $1 AND NOT EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") ORDER BY "u"."full_name" ASC NULLS LAST, "u"."id" ASC LIMIT $2 OFFSET $3;

-- users.list-page[1:2:2:2:2:with:1:2:last_activity:DESC]
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = $1 AND "u"."id" = $2 AND "u"."id" IN ($3, $4) AND "u"."id" NOT IN ($5, $6) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN ($7, $8)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN ($9, $10)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE $11 ESCAPE '\' AND "u"."code" IN ($12, $13) ORDER BY "u"."last_activity" DESC NULLS LAST, "u"."id" ASC LIMIT $14 OFFSET $15;

-- worker-heartbeats.beat
INSERT INTO worker_heartbeats (instance, heartbeat_at) VALUES ($1, $2)
  ON CONFLICT (instance) DO UPDATE SET heartbeat_at = excluded.heartbeat_at;

-- worker-heartbeats.dead
SELECT instance FROM worker_heartbeats WHERE heartbeat_at < $1;

-- worker-heartbeats.forget
DELETE FROM worker_heartbeats WHERE instance = $1;

-- worker-heartbeats.forget-dead
DELETE FROM worker_heartbeats WHERE heartbeat_at < $1;

-- worker-heartbeats.release-all
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE status IN ('pending', 'failed') AND lease_owner IS NOT NULL;

-- worker-heartbeats.release-dead
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
  WHERE status IN ('pending', 'failed') AND lease_owner IN (SELECT instance FROM worker_heartbeats WHERE heartbeat_at < $1)
  RETURNING id;
