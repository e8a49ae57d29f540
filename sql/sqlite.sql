-- Every statement the repositories send to SQLite, as the driver receives it.
-- Written by `npm run sql:snapshot`; src/database/statements.spec.ts fails when it is stale.

-- building-reports.rollups
SELECT device_id, slot, positioned_ms FROM position_rollups WHERE organization_id = ? AND building_id = ? AND slot >= ? AND slot < ?;

-- building-revisions.bump
INSERT INTO "building_revisions" ("building_id", "revision") VALUES (?, 1)
         ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.bump-organization
INSERT INTO "building_revisions" ("building_id", "revision")
       SELECT "id", 1 FROM "buildings" WHERE "organization_id" = ?
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.category-buildings
SELECT DISTINCT "building_id" FROM "pois" WHERE "category_id" = ?;

-- building-revisions.current
SELECT "revision" FROM "building_revisions" WHERE "building_id" = ?;

-- building-tracking.read
SELECT "scans", "positions", "reset_after_seconds" FROM "building_tracking" WHERE "building_id" = ?;

-- building-tracking.write
INSERT INTO "building_tracking" ("building_id", "organization_id", "scans", "positions", "reset_after_seconds", "version", "updated_at")
         VALUES (?, ?, ?, ?, ?, 1, ?)
         ON CONFLICT ("building_id") DO UPDATE SET "scans" = excluded."scans", "positions" = excluded."positions", "reset_after_seconds" = excluded."reset_after_seconds",
           "version" = "building_tracking"."version" + 1, "updated_at" = excluded."updated_at";

-- credential-owners.key-by-hash
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."key_hash" = ?;

-- credential-owners.key-by-id
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."id" = ?;

-- credential-owners.session
SELECT s."user_id", u."organization_id", u."email", u."role", u."building_scope", s."permission", s."api_key_id", k."permission" AS "key_permission", s."revoked_at"
     FROM "auth_sessions" s
     INNER JOIN "users" u ON u."id" = s."user_id"
     LEFT JOIN "api_keys" k ON k."id" = s."api_key_id"
     WHERE s."id" = ?;

-- delivery-leases.due
SELECT id, endpoint_id FROM (
  SELECT d.id, d.endpoint_id, d.next_attempt_at,
         ROW_NUMBER() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS n
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled = ?
   WHERE d.status IN ('pending', 'failed') AND d.next_attempt_at <= ?
     AND (d.lease_expires_at IS NULL OR d.lease_expires_at < ?)
) x
WHERE n <= ?
ORDER BY next_attempt_at, id
LIMIT ?;

-- delivery-leases.lease
UPDATE webhook_deliveries
   SET lease_owner = ?, lease_expires_at = ?, updated_at = ?
 WHERE id IN (SELECT value FROM json_each(?))
   AND status IN ('pending', 'failed') AND (lease_expires_at IS NULL OR lease_expires_at < ?)
RETURNING id, endpoint_id, message_id, payload, attempts;

-- delivery-leases.leased-elsewhere
SELECT endpoint_id, COUNT(*) AS n
  FROM webhook_deliveries
 WHERE endpoint_id IN (SELECT value FROM json_each(?))
   AND status IN ('pending', 'failed') AND lease_expires_at > ? AND lease_owner <> ?
 GROUP BY endpoint_id;

-- delivery-leases.record-attempt
INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, instance)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- delivery-leases.record-batch
-- not sent to SQLite

-- delivery-leases.record-one
UPDATE webhook_deliveries
   SET status = ?, next_attempt_at = ?, attempts = ?, lease_owner = NULL, lease_expires_at = NULL,
       last_status_code = ?, last_error = ?, last_attempt_at = ?, updated_at = ?
 WHERE id = ? AND lease_owner = ?
RETURNING id;

-- delivery-leases.release
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
 WHERE id IN (SELECT value FROM json_each(?)) AND lease_owner = ?;

-- device-tracks.read[2]
SELECT "device_id", "time", "state" FROM "device_tracks" WHERE "organization_id" = ? AND "device_id" IN (?, ?);

-- device-tracks.remove
DELETE FROM "device_tracks" WHERE "organization_id" = ? AND "device_id" = ?;

-- device-tracks.write[2]
INSERT INTO "device_tracks" ("organization_id", "device_id", "time", "state") VALUES (?, ?, ?, ?), (?, ?, ?, ?)
         ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time" = excluded."time", "state" = excluded."state";

-- event-log.after
SELECT seq, body FROM geofence_events WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?;

-- event-log.bounds
SELECT (SELECT MIN(seq) FROM geofence_events WHERE organization_id = ?) AS oldest,
                (SELECT seq FROM geofence_event_counters WHERE organization_id = ?) AS last;

-- event-log.by-ids[2]
SELECT id, seq, body FROM geofence_events WHERE organization_id = ? AND id IN (?, ?);

-- event-log.committed-seq
SELECT seq FROM geofence_event_counters WHERE organization_id = ?;

-- event-log.occurred-in
SELECT id, body FROM geofence_events WHERE organization_id = ? AND occurred_at >= ? AND occurred_at <= ? ORDER BY seq LIMIT ?;

-- event-log.one
SELECT body, building_id FROM geofence_events WHERE organization_id = ? AND id = ?;

-- event-log.page[0:0:0:0:0:0:0:0:0:ASC]
SELECT body FROM geofence_events WHERE organization_id = ? ORDER BY seq ASC LIMIT ?;

-- event-log.page[0:1:0:0:0:0:0:0:0:DESC]
SELECT body FROM geofence_events WHERE organization_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?;

-- event-log.page[1:0:1:1:2:2:2:2:2:ASC]
SELECT body FROM geofence_events WHERE organization_id = ? AND seq > ? AND type IN (?, ?) AND geofence_id IN (?, ?) AND device_id IN (?, ?) AND user_id IN (?, ?) AND building_id IN (?, ?) AND occurred_at >= ? AND occurred_at <= ? ORDER BY seq ASC LIMIT ?;

-- event-retention.delete-through
DELETE FROM geofence_events WHERE organization_id = ? AND seq <= ?;

-- event-retention.oldest[5000]
SELECT seq, CASE WHEN detected_at < ? THEN 1 ELSE 0 END AS expired FROM geofence_events WHERE organization_id = ? ORDER BY seq LIMIT 5000;

-- event-retention.organizations
SELECT organization_id FROM geofence_event_counters;

-- fix-places.places[0:2]
SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = ? AND b.deleted_at IS NULL AND b.id IN (?, ?);

-- fix-places.places[2:0]
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = ? AND f.deleted_at IS NULL AND b.organization_id = ? AND b.deleted_at IS NULL AND f.id IN (?, ?);

-- fix-places.places[2:2]
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = ? AND f.deleted_at IS NULL AND b.organization_id = ? AND b.deleted_at IS NULL AND f.id IN (?, ?) UNION ALL SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = ? AND b.deleted_at IS NULL AND b.id IN (?, ?);

-- fix-places.users[2]
SELECT id FROM users WHERE organization_id = ? AND id IN (?, ?);

-- geofence-state.all-deadlines-forward
UPDATE geofence_states SET next_deadline_at = ? WHERE organization_id = ? AND next_deadline_at > ?;

-- geofence-state.all-fences-with-pairs
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = ?;

-- geofence-state.deadlines-forward
UPDATE geofence_states SET next_deadline_at = ? WHERE organization_id = ? AND next_deadline_at > ? AND geofence_id IN (SELECT value FROM json_each(?));

-- geofence-state.due
SELECT organization_id, device_id FROM geofence_states WHERE next_deadline_at <= ? ORDER BY next_deadline_at LIMIT ?;

-- geofence-state.fences-with-pairs
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = ? AND geofence_id IN (SELECT value FROM json_each(?));

-- geofence-state.holders
SELECT DISTINCT device_id FROM geofence_states WHERE organization_id = ? AND geofence_id IN (SELECT value FROM json_each(?));

-- geofence-state.take-seq
INSERT INTO geofence_event_counters (organization_id, seq) VALUES (?, ?)
         ON CONFLICT (organization_id) DO UPDATE SET seq = geofence_event_counters.seq + excluded.seq RETURNING seq;

-- geofence-state.visit-update[dwell+exit]
UPDATE geofence_visits SET dwell_fired = ?, exited_at = ?, exit_reason = ? WHERE id = ? AND organization_id = ?;

-- geofence-state.visit-update[dwell]
UPDATE geofence_visits SET dwell_fired = ? WHERE id = ? AND organization_id = ?;

-- geofence-state.visit-update[exit]
UPDATE geofence_visits SET exited_at = ?, exit_reason = ? WHERE id = ? AND organization_id = ?;

-- geofences.by-id
SELECT * FROM "geofences" WHERE "id" = ? AND "organization_id" = ?;

-- geofences.search-count[0:-:0:0:0]
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ?;

-- geofences.search-count[2:2:2:1:1]
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ? AND "building_id" IN (?, ?) AND "building_id" IN (?, ?) AND "floor_id" IN (?, ?) AND "code" = ? AND "name_lower" LIKE ? ESCAPE '\';

-- geofences.search-page[0:-:0:0:0:created_at:ASC]
SELECT * FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ? ORDER BY "created_at" ASC, "id" ASC LIMIT ? OFFSET ?;

-- geofences.search-page[2:2:2:1:1:name_lower:DESC]
SELECT * FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ? AND "building_id" IN (?, ?) AND "building_id" IN (?, ?) AND "floor_id" IN (?, ?) AND "code" = ? AND "name_lower" LIKE ? ESCAPE '\' ORDER BY "name_lower" DESC, "id" ASC LIMIT ? OFFSET ?;

-- heatmaps.drop-before
DELETE FROM heatmap_days WHERE organization_id = ? AND day < ?;

-- heatmaps.grid
SELECT CAST(floor(x / ?) AS INTEGER) AS cx, CAST(floor(y / ?) AS INTEGER) AS cy, COUNT(*) AS n
  FROM position_history
  WHERE organization_id = ? AND building_id = ? AND floor_id = ? AND "time" >= ? AND "time" < ? AND x IS NOT NULL AND y IS NOT NULL
  GROUP BY 1, 2;

-- heatmaps.keep
INSERT INTO heatmap_days (organization_id, floor_id, cell_cm, day, building_fixes, cells, computed_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (organization_id, floor_id, cell_cm, day) DO UPDATE SET building_fixes = excluded.building_fixes, cells = excluded.cells, computed_at = excluded.computed_at;

-- heatmaps.kept
SELECT day, building_fixes, cells FROM heatmap_days WHERE organization_id = ? AND floor_id = ? AND cell_cm = ? AND day >= ? AND day < ?;

-- heatmaps.slot-sums
SELECT slot, SUM(fixes) AS fixes FROM position_rollups
  WHERE organization_id = ? AND building_id = ? AND slot >= ? AND slot < ? GROUP BY slot;

-- idempotency-keys.claim
INSERT INTO "idempotency_keys" ("scope_hash", "organization_id", "request_hash", "locked_until", "created_at", "expires_at")
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT ("scope_hash") DO NOTHING RETURNING "scope_hash";

-- idempotency-keys.complete
UPDATE "idempotency_keys" SET "status" = ?, "response" = ? WHERE "scope_hash" = ?;

-- idempotency-keys.lock
SELECT * FROM "idempotency_keys" WHERE "scope_hash" = ?;

-- idempotency-keys.purge
DELETE FROM "idempotency_keys" WHERE "expires_at" <= ?;

-- idempotency-keys.release
UPDATE "idempotency_keys" SET "locked_until" = ? WHERE "scope_hash" = ? AND "status" IS NULL;

-- idempotency-keys.restart
UPDATE "idempotency_keys" SET "request_hash" = ?, "locked_until" = ?, "wrote_at" = NULL, "status" = NULL,
         "response" = NULL, "created_at" = CASE WHEN "expires_at" <= ? THEN ? ELSE "created_at" END,
         "expires_at" = CASE WHEN "expires_at" <= ? THEN ? ELSE "expires_at" END
       WHERE "scope_hash" = ?;

-- idempotency-keys.written
UPDATE "idempotency_keys" SET "wrote_at" = ? WHERE "scope_hash" = ?;

-- image-blobs.read
SELECT "bytes" FROM "image_blobs" WHERE "image_id" = ?;

-- image-blobs.remove
DELETE FROM "image_blobs" WHERE "image_id" = ?;

-- image-blobs.write
INSERT INTO "image_blobs" ("image_id", "bytes") VALUES (?, ?);

-- live-fences.by-ids
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, g.geometric, r.rules FROM geofences g
           LEFT JOIN geofence_rules r ON r.geofence_id = g.id
           WHERE g.organization_id = ? AND (g.deleted = ? OR ? = 1) AND g.id IN (SELECT value FROM json_each(?));

-- live-fences.floor-revisions[4]
SELECT f."id", f."building_id", b."latitude", b."longitude", b."version" AS "building_version", COALESCE(v."revision", 0) AS "revision"
       FROM "floors" f
       JOIN "buildings" b ON b."id" = f."building_id" AND b."deleted_at" IS NULL
       LEFT JOIN "building_revisions" v ON v."building_id" = f."building_id"
       WHERE f."organization_id" = ? AND f."deleted_at" IS NULL AND f."id" IN (?, ?, ?, ?);

-- live-fences.of-floor
SELECT g."id", g."name", g."code", g."building_id", g."floor_id", g."geometric", r."rules" FROM "geofences" g
       LEFT JOIN "geofence_rules" r ON r."geofence_id" = g."id"
       WHERE g."organization_id" = ? AND g."deleted" = ? AND g."floor_id" = ?;

-- live-fences.settings
SELECT "rules" FROM "geofencing_settings" WHERE "organization_id" = ?;

-- live-positions.changed-since
SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE d.organization_id = ? AND d.updated_at >= ? AND d.last_time IS NOT NULL ORDER BY d.updated_at, d.id;

-- live-positions.latest[0:0:0:any]
SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = ? AND d.last_time >= ? ORDER BY d.id;

-- live-positions.latest[2:2:2:in]
SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = ? AND d.last_time >= ? AND d.building_id IN (?, ?) AND d.user_id IN (?, ?) AND d.id IN (?, ?) AND d.floor_id IS NOT NULL ORDER BY d.id;

-- live-positions.pois[2]
SELECT id, floor_id, x, y, radius FROM pois WHERE organization_id = ? AND radius IS NOT NULL AND floor_id IN (?, ?);

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

-- occupancy.counts[0:0]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[0:2]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? AND g.floor_id IN (?, ?) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:0]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? AND g.building_id IN (?, ?) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:2]
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? AND g.building_id IN (?, ?) AND g.floor_id IN (?, ?) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.occupants
SELECT device_id, state FROM geofence_states WHERE geofence_id = ? AND organization_id = ? AND phase IN ('inside', 'pending_exit') ORDER BY device_id;

-- occupancy.visit-count[0:0]
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = ? AND organization_id = ?;

-- occupancy.visit-count[1:1]
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = ? AND organization_id = ? AND entered_at <= ? AND (exited_at IS NULL OR exited_at >= ?);

-- occupancy.visits[0:0]
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = ? AND organization_id = ? ORDER BY entered_at DESC, id LIMIT ? OFFSET ?;

-- occupancy.visits[1:1]
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = ? AND organization_id = ? AND entered_at <= ? AND (exited_at IS NULL OR exited_at >= ?) ORDER BY entered_at DESC, id LIMIT ? OFFSET ?;

-- radio-models.bump[model_revision]
INSERT INTO "radio_revisions" ("building_id", "model_revision") VALUES (?, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "model_revision" = "radio_revisions"."model_revision" + 1;

-- radio-models.bump[reference_revision]
INSERT INTO "radio_revisions" ("building_id", "reference_revision") VALUES (?, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "reference_revision" = "radio_revisions"."reference_revision" + 1;

-- radio-models.insert-if-absent
INSERT INTO "radio_models" ("floor_id", "organization_id", "building_id", "version", "scans", "statistics", "created_at", "updated_at")
       VALUES (?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT ("floor_id") DO NOTHING RETURNING "floor_id";

-- report-fences.fence-building
SELECT building_id FROM geofences WHERE organization_id = ? AND id = ? AND deleted = ?;

-- report-fences.fences[0:0]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? ORDER BY id;

-- report-fences.fences[0:2]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? AND id IN (?, ?) ORDER BY id;

-- report-fences.fences[2:0]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? AND building_id IN (?, ?) ORDER BY id;

-- report-fences.fences[2:2]
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? AND building_id IN (?, ?) AND id IN (?, ?) ORDER BY id;

-- report-fences.live-buildings[2]
SELECT id FROM buildings WHERE organization_id = ? AND deleted_at IS NULL AND id IN (?, ?);

-- report-visits.first-page
SELECT id, geofence_id, device_id, user_id, CAST(round((julianday(entered_at) - 2440587.5) * 86400000) AS INTEGER) AS entered_ms, CAST(round((julianday(exited_at) - 2440587.5) * 86400000) AS INTEGER) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = ? AND organization_id = ? AND entered_at >= ? AND entered_at < ?
      ORDER BY entered_at, id LIMIT ?;

-- report-visits.next-page
SELECT id, geofence_id, device_id, user_id, CAST(round((julianday(entered_at) - 2440587.5) * 86400000) AS INTEGER) AS entered_ms, CAST(round((julianday(exited_at) - 2440587.5) * 86400000) AS INTEGER) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = ? AND organization_id = ? AND entered_at >= ? AND entered_at < ?
        AND (entered_at > ? OR id > ?)
      ORDER BY entered_at, id LIMIT ?;

-- report-visits.under-way-at-start
SELECT id, geofence_id, device_id, user_id, CAST(round((julianday(entered_at) - 2440587.5) * 86400000) AS INTEGER) AS entered_ms, CAST(round((julianday(exited_at) - 2440587.5) * 86400000) AS INTEGER) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = ? AND organization_id = ? AND entered_at < ? AND (exited_at >= ? OR exited_at IS NULL);

-- stream-leases.count
SELECT COUNT(*) AS open FROM stream_leases WHERE organization_id = ?;

-- stream-leases.delete
DELETE FROM stream_leases WHERE id = ?;

-- stream-leases.delete-all
DELETE FROM stream_leases;

-- stream-leases.delete-instance
DELETE FROM stream_leases WHERE instance_id = ?;

-- stream-leases.insert
INSERT INTO stream_leases (id, organization_id, kind, instance_id, expires_at) VALUES (?, ?, ?, ?, ?);

-- stream-leases.purge-expired
DELETE FROM stream_leases WHERE organization_id = ? AND expires_at <= ?;

-- stream-leases.renew
UPDATE stream_leases SET expires_at = ? WHERE instance_id = ?;

-- stream-tickets.issue
INSERT INTO stream_tickets (ticket_hash, organization_id, user_id, principal, expires_at) VALUES (?, ?, ?, ?, ?);

-- stream-tickets.sweep
DELETE FROM stream_tickets WHERE expires_at < ?;

-- stream-tickets.take
DELETE FROM stream_tickets WHERE ticket_hash = ? AND expires_at > ? RETURNING principal;

-- transmitter-sites.bump
INSERT INTO "infrastructure_revisions" ("building_id", "revision") VALUES (?, 1)
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
       WHERE b."organization_id" = ? AND b."deleted_at" IS NULL AND b."id" IN (?, ?);

-- user-positions.building-instant
SELECT device_id, user_id, "time", floor_id, lat, lng FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" = ? ORDER BY device_id;

-- user-positions.building-page[5000]
SELECT device_id, user_id, "time", floor_id, lat, lng FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" >= ? AND "time" < ? ORDER BY "time", device_id LIMIT 5000;

-- user-positions.building-track-count[0,0,0]
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" >= ? AND "time" < ? LIMIT ?) capped;

-- user-positions.building-track-count[1,1,1]
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" >= ? AND "time" < ? AND device_id = ? AND user_id = ? AND floor_id = ? LIMIT ?) capped;

-- user-positions.device-track-count
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = ? AND device_id = ? AND "time" >= ? AND "time" < ? LIMIT ?) capped;

-- user-positions.device-track-page[5000]
SELECT user_id, "time", floor_id, lat, lng, building_id FROM position_history
     WHERE organization_id = ? AND device_id = ? AND "time" >= ? AND "time" < ? ORDER BY "time" LIMIT 5000;

-- user-positions.elsewhere
SELECT device_id, "time", building_id FROM position_history WHERE organization_id = ? AND building_id < ? AND "time" >= ? AND "time" < ? UNION ALL SELECT device_id, "time", building_id FROM position_history WHERE organization_id = ? AND building_id > ? AND "time" >= ? AND "time" < ? UNION ALL SELECT device_id, "time", building_id FROM position_history WHERE organization_id = ? AND building_id IS NULL AND "time" >= ? AND "time" < ? ORDER BY 2;

-- users.list-count[0:0:0:0:0:-:0:0]
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = ?;

-- users.list-count[1:2:2:2:2:with:1:2]
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = ? AND "u"."id" = ? AND "u"."id" IN (?, ?) AND "u"."id" NOT IN (?, ?) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN (?, ?)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN (?, ?)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE ? ESCAPE '\' AND "u"."code" IN (?, ?);

-- users.list-page[0:0:0:0:0:-:0:0:created_at:ASC]
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = ? ORDER BY "u"."created_at" ASC NULLS LAST, "u"."id" ASC LIMIT ? OFFSET ?;

-- users.list-page[0:0:0:0:0:without:0:0:full_name:ASC]
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = ? AND NOT EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") ORDER BY "u"."full_name" ASC NULLS LAST, "u"."id" ASC LIMIT ? OFFSET ?;

-- users.list-page[1:2:2:2:2:with:1:2:last_activity:DESC]
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = ? AND "u"."id" = ? AND "u"."id" IN (?, ?) AND "u"."id" NOT IN (?, ?) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN (?, ?)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN (?, ?)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE ? ESCAPE '\' AND "u"."code" IN (?, ?) ORDER BY "u"."last_activity" DESC NULLS LAST, "u"."id" ASC LIMIT ? OFFSET ?;

-- worker-heartbeats.beat
INSERT INTO worker_heartbeats (instance, heartbeat_at) VALUES (?, ?)
  ON CONFLICT (instance) DO UPDATE SET heartbeat_at = excluded.heartbeat_at;

-- worker-heartbeats.dead
SELECT instance FROM worker_heartbeats WHERE heartbeat_at < ?;

-- worker-heartbeats.forget
DELETE FROM worker_heartbeats WHERE instance = ?;

-- worker-heartbeats.forget-dead
DELETE FROM worker_heartbeats WHERE heartbeat_at < ?;

-- worker-heartbeats.release-all
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE status IN ('pending', 'failed') AND lease_owner IS NOT NULL;

-- worker-heartbeats.release-dead
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
  WHERE status IN ('pending', 'failed') AND lease_owner IN (SELECT instance FROM worker_heartbeats WHERE heartbeat_at < ?)
  RETURNING id;
