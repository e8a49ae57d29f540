-- Every statement the repositories send to SQLite, as the driver receives it.
-- Written by `npm run sql:snapshot`; src/database/statements.spec.ts fails when it is stale.

-- building-reports.rollups
-- parameters: organization, building, from, to
SELECT device_id, slot, positioned_ms FROM position_rollups WHERE organization_id = ? AND building_id = ? AND slot >= ? AND slot < ?;

-- building-revisions.bump
-- parameters: buildingId
INSERT INTO "building_revisions" ("building_id", "revision") VALUES (?, 1)
         ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.bump-organization
-- parameters: organizationId
INSERT INTO "building_revisions" ("building_id", "revision")
       SELECT "id", 1 FROM "buildings" WHERE "organization_id" = ?
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.category-buildings
-- parameters: categoryId
SELECT DISTINCT "building_id" FROM "pois" WHERE "category_id" = ?;

-- building-revisions.current
-- parameters: buildingId
SELECT "revision" FROM "building_revisions" WHERE "building_id" = ?;

-- building-revisions.owned
-- parameters: buildingId, organizationId
SELECT "b"."version" AS "version", COALESCE("r"."revision", 0) AS "revision" FROM "buildings" "b"
       LEFT JOIN "building_revisions" "r" ON "r"."building_id" = "b"."id"
       WHERE "b"."id" = ? AND "b"."organization_id" = ? AND "b"."deleted_at" IS NULL;

-- building-tracking.read
-- parameters: buildingId
SELECT "scans", "positions", "reset_after_seconds" FROM "building_tracking" WHERE "building_id" = ?;

-- building-tracking.write
-- parameters: buildingId, organizationId, scans, positions, resetAfterSeconds, now
INSERT INTO "building_tracking" ("building_id", "organization_id", "scans", "positions", "reset_after_seconds", "version", "updated_at")
         VALUES (?, ?, ?, ?, ?, 1, ?)
         ON CONFLICT ("building_id") DO UPDATE SET "scans" = excluded."scans", "positions" = excluded."positions", "reset_after_seconds" = excluded."reset_after_seconds",
           "version" = "building_tracking"."version" + 1, "updated_at" = excluded."updated_at";

-- credential-owners.key-by-hash
-- parameters: hash
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."key_hash" = ?;

-- credential-owners.key-by-id
-- parameters: id
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."id" = ?;

-- credential-owners.session
-- parameters: sessionId
SELECT s."user_id", u."organization_id", u."email", u."role", u."building_scope", s."permission", s."api_key_id", k."permission" AS "key_permission", s."revoked_at"
     FROM "auth_sessions" s
     INNER JOIN "users" u ON u."id" = s."user_id"
     LEFT JOIN "api_keys" k ON k."id" = s."api_key_id"
     WHERE s."id" = ?;

-- delivery-leases.due
-- parameters: enabled, now, per_endpoint, limit
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
-- parameters: instance, expires, now, ids
UPDATE webhook_deliveries
   SET lease_owner = ?, lease_expires_at = ?, updated_at = ?
 WHERE id IN (SELECT value FROM json_each(?))
   AND status IN ('pending', 'failed') AND (lease_expires_at IS NULL OR lease_expires_at < ?)
RETURNING id, endpoint_id, message_id, payload, attempts;

-- delivery-leases.leased-elsewhere
-- parameters: endpoints, now, instance
SELECT endpoint_id, COUNT(*) AS n
  FROM webhook_deliveries
 WHERE endpoint_id IN (SELECT value FROM json_each(?))
   AND status IN ('pending', 'failed') AND lease_expires_at > ? AND lease_owner <> ?
 GROUP BY endpoint_id;

-- delivery-leases.record-attempt
-- parameters: attempt_id, id, attempts, started, duration_ms, status_code, error, instance
INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error, instance)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id;

-- delivery-leases.record-batch
-- not sent to SQLite

-- delivery-leases.record-one
-- parameters: status, next_attempt_at, attempts, status_code, error, started, finished, id, instance
UPDATE webhook_deliveries
   SET status = ?, next_attempt_at = ?, attempts = ?, lease_owner = NULL, lease_expires_at = NULL,
       last_status_code = ?, last_error = ?, last_attempt_at = ?, updated_at = ?
 WHERE id = ? AND lease_owner = ?
RETURNING id;

-- delivery-leases.release
-- parameters: ids, instance
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
 WHERE id IN (SELECT value FROM json_each(?)) AND lease_owner = ?;

-- device-tracks.read[2]
-- parameters: organization, d0, d1
SELECT "device_id", "time", "state" FROM "device_tracks" WHERE "organization_id" = ? AND "device_id" IN (?, ?);

-- device-tracks.remove
-- parameters: organization, device
DELETE FROM "device_tracks" WHERE "organization_id" = ? AND "device_id" = ?;

-- device-tracks.write[2]
-- parameters: organization, d0, t0, s0, d1, t1, s1
INSERT INTO "device_tracks" ("organization_id", "device_id", "time", "state") VALUES (?, ?, ?, ?), (?, ?, ?, ?)
         ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time" = excluded."time", "state" = excluded."state";

-- event-log.after
-- parameters: organizationId, after, limit
SELECT seq, body FROM geofence_events WHERE organization_id = ? AND seq > ? ORDER BY seq LIMIT ?;

-- event-log.bounds
-- parameters: organizationId
SELECT (SELECT MIN(seq) FROM geofence_events WHERE organization_id = ?) AS oldest,
                (SELECT seq FROM geofence_event_counters WHERE organization_id = ?) AS last;

-- event-log.by-ids[2]
-- parameters: organizationId, e0, e1
SELECT id, seq, body FROM geofence_events WHERE organization_id = ? AND id IN (?, ?);

-- event-log.committed-seq
-- parameters: organizationId
SELECT seq FROM geofence_event_counters WHERE organization_id = ?;

-- event-log.occurred-in
-- parameters: organizationId, from, to, limit
SELECT id, body FROM geofence_events WHERE organization_id = ? AND occurred_at >= ? AND occurred_at <= ? ORDER BY seq LIMIT ?;

-- event-log.one
-- parameters: organizationId, id
SELECT body, building_id FROM geofence_events WHERE organization_id = ? AND id = ?;

-- event-log.page[0:0:0:0:0:0:0:0:0:ASC]
-- parameters: organizationId, limit
SELECT body FROM geofence_events WHERE organization_id = ? ORDER BY seq ASC LIMIT ?;

-- event-log.page[0:1:0:0:0:0:0:0:0:DESC]
-- parameters: organizationId, before, limit
SELECT body FROM geofence_events WHERE organization_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?;

-- event-log.page[1:0:1:1:2:2:2:2:2:ASC]
-- parameters: organizationId, after, t0, t1, g0, g1, d0, d1, u0, u1, b0, b1, from, to, limit
SELECT body FROM geofence_events WHERE organization_id = ? AND seq > ? AND type IN (?, ?) AND geofence_id IN (?, ?) AND device_id IN (?, ?) AND user_id IN (?, ?) AND building_id IN (?, ?) AND occurred_at >= ? AND occurred_at <= ? ORDER BY seq ASC LIMIT ?;

-- event-retention.delete-through
-- parameters: organizationId, last
DELETE FROM geofence_events WHERE organization_id = ? AND seq <= ?;

-- event-retention.oldest[5000]
-- parameters: cutoff, organizationId
SELECT seq, CASE WHEN detected_at < ? THEN 1 ELSE 0 END AS expired FROM geofence_events WHERE organization_id = ? ORDER BY seq LIMIT 5000;

-- event-retention.organizations
SELECT organization_id FROM geofence_event_counters;

-- fix-places.places[0:2]
-- parameters: organization, b0, b1
SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = ? AND b.deleted_at IS NULL AND b.id IN (?, ?);

-- fix-places.places[2:0]
-- parameters: organization, f0, f1
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = ? AND f.deleted_at IS NULL AND b.organization_id = ? AND b.deleted_at IS NULL AND f.id IN (?, ?);

-- fix-places.places[2:2]
-- parameters: organization, f0, f1, b0, b1
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = ? AND f.deleted_at IS NULL AND b.organization_id = ? AND b.deleted_at IS NULL AND f.id IN (?, ?) UNION ALL SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = ? AND b.deleted_at IS NULL AND b.id IN (?, ?);

-- fix-places.users[2]
-- parameters: organization, u0, u1
SELECT id FROM users WHERE organization_id = ? AND id IN (?, ?);

-- gateway-health.note-limit
-- parameters: gatewayId, organizationId, now, limit, windowStart
INSERT INTO "gateway_health" ("gateway_id", "organization_id", "last_seen_ms", "last_limit", "last_limit_ms", "window_start_ms")
   VALUES (?, ?, ?, ?, ?, ?)
   ON CONFLICT ("gateway_id") DO UPDATE SET
     "last_seen_ms" = CASE WHEN excluded."last_seen_ms" > "gateway_health"."last_seen_ms" THEN excluded."last_seen_ms" ELSE "gateway_health"."last_seen_ms" END,
     "last_limit" = excluded."last_limit",
     "last_limit_ms" = excluded."last_limit_ms";

-- gateway-health.read
-- parameters: gatewayId
SELECT "gateway_id", "last_seen_ms", "messages", "messages_not_understood", "records_not_understood", "observations_stored", "observations_duplicate",
  "unknown_advertisers", "last_reason", "last_reason_ms", "last_limit", "last_limit_ms", "window_start_ms", "window_messages", "previous_window_messages" FROM "gateway_health" WHERE "gateway_id" = ?;

-- gateway-health.record
-- parameters: gatewayId, organizationId, now, notUnderstood, recordsNotUnderstood, stored, duplicates, unknown, reason, reasonMs, limit, limitMs, windowStart
INSERT INTO "gateway_health" ("gateway_id", "organization_id", "last_seen_ms", "messages", "messages_not_understood", "records_not_understood", "observations_stored",
     "observations_duplicate", "unknown_advertisers", "last_reason", "last_reason_ms", "last_limit", "last_limit_ms", "window_start_ms", "window_messages", "previous_window_messages")
   VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0)
   ON CONFLICT ("gateway_id") DO UPDATE SET
     "last_seen_ms" = CASE WHEN excluded."last_seen_ms" > "gateway_health"."last_seen_ms" THEN excluded."last_seen_ms" ELSE "gateway_health"."last_seen_ms" END,
     "messages" = "gateway_health"."messages" + 1,
     "messages_not_understood" = "gateway_health"."messages_not_understood" + excluded."messages_not_understood",
     "records_not_understood" = "gateway_health"."records_not_understood" + excluded."records_not_understood",
     "observations_stored" = "gateway_health"."observations_stored" + excluded."observations_stored",
     "observations_duplicate" = "gateway_health"."observations_duplicate" + excluded."observations_duplicate",
     "unknown_advertisers" = "gateway_health"."unknown_advertisers" + excluded."unknown_advertisers",
     "last_reason" = COALESCE(excluded."last_reason", "gateway_health"."last_reason"),
     "last_reason_ms" = COALESCE(excluded."last_reason_ms", "gateway_health"."last_reason_ms"),
     "last_limit" = COALESCE(excluded."last_limit", "gateway_health"."last_limit"),
     "last_limit_ms" = COALESCE(excluded."last_limit_ms", "gateway_health"."last_limit_ms"),
     "previous_window_messages" = CASE
       WHEN "gateway_health"."window_start_ms" >= excluded."window_start_ms" THEN "gateway_health"."previous_window_messages"
       WHEN "gateway_health"."window_start_ms" = excluded."window_start_ms" - 60000 THEN "gateway_health"."window_messages"
       ELSE 0 END,
     "window_messages" = CASE WHEN "gateway_health"."window_start_ms" >= excluded."window_start_ms" THEN "gateway_health"."window_messages" + 1 ELSE 1 END,
     "window_start_ms" = CASE WHEN "gateway_health"."window_start_ms" >= excluded."window_start_ms" THEN "gateway_health"."window_start_ms" ELSE excluded."window_start_ms" END;

-- gateway-health.remove
-- parameters: gatewayId
DELETE FROM "gateway_health" WHERE "gateway_id" = ?;

-- gateway-health.silent
-- parameters: sinceDate, since
SELECT COUNT(*) AS "silent" FROM "gateways" g LEFT JOIN "gateway_health" h ON h."gateway_id" = g."id"
   WHERE (h."last_seen_ms" IS NULL AND g."created_at" < ?) OR h."last_seen_ms" < ?;

-- gateway-health.tags-heard
-- parameters: gatewayId, since
SELECT COUNT(DISTINCT "device_id") AS "tags" FROM "gateway_observations" WHERE "gateway_id" = ? AND "time" >= ?;

-- geofence-state.all-deadlines-forward
-- parameters: now, organizationId
UPDATE geofence_states SET next_deadline_at = ? WHERE organization_id = ? AND next_deadline_at > ?;

-- geofence-state.all-fences-with-pairs
-- parameters: organizationId
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = ?;

-- geofence-state.deadlines-forward
-- parameters: now, organizationId, fenceIds
UPDATE geofence_states SET next_deadline_at = ? WHERE organization_id = ? AND next_deadline_at > ? AND geofence_id IN (SELECT value FROM json_each(?));

-- geofence-state.due
-- parameters: now, limit
SELECT organization_id, device_id FROM geofence_states WHERE next_deadline_at <= ? ORDER BY next_deadline_at LIMIT ?;

-- geofence-state.fences-with-pairs
-- parameters: organizationId, fenceIds
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = ? AND geofence_id IN (SELECT value FROM json_each(?));

-- geofence-state.holders
-- parameters: organizationId, fenceIds
SELECT DISTINCT device_id FROM geofence_states WHERE organization_id = ? AND geofence_id IN (SELECT value FROM json_each(?));

-- geofence-state.insert-events[1]
-- parameters: id_0, organization_id_0, seq_0, type_0, occurred_at_0, detected_at_0, building_id_0, floor_id_0, geofence_id_0, device_id_0, user_id_0, visit_id_0, body_0
INSERT INTO geofence_events (id, organization_id, seq, type, occurred_at, detected_at, building_id, floor_id, geofence_id, device_id, user_id, visit_id, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- geofence-state.insert-events[2]
-- parameters: id_0, organization_id_0, seq_0, type_0, occurred_at_0, detected_at_0, building_id_0, floor_id_0, geofence_id_0, device_id_0, user_id_0, visit_id_0, body_0, id_1, organization_id_1, seq_1, type_1, occurred_at_1, detected_at_1, building_id_1, floor_id_1, geofence_id_1, device_id_1, user_id_1, visit_id_1, body_1
INSERT INTO geofence_events (id, organization_id, seq, type, occurred_at, detected_at, building_id, floor_id, geofence_id, device_id, user_id, visit_id, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- geofence-state.insert-visits[1]
-- parameters: id_0, organization_id_0, geofence_id_0, device_id_0, user_id_0, entered_at_0, exited_at_0, exit_reason_0, dwell_fired_0
INSERT INTO geofence_visits (id, organization_id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- geofence-state.insert-visits[2]
-- parameters: id_0, organization_id_0, geofence_id_0, device_id_0, user_id_0, entered_at_0, exited_at_0, exit_reason_0, dwell_fired_0, id_1, organization_id_1, geofence_id_1, device_id_1, user_id_1, entered_at_1, exited_at_1, exit_reason_1, dwell_fired_1
INSERT INTO geofence_visits (id, organization_id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- geofence-state.pairs-delete
-- not sent to SQLite

-- geofence-state.pairs-delete-rows[1]
-- parameters: organizationId, device_id_0, geofence_id_0
DELETE FROM geofence_states WHERE organization_id = ? AND (device_id, geofence_id) IN (VALUES (?, ?));

-- geofence-state.pairs-delete-rows[2]
-- parameters: organizationId, device_id_0, geofence_id_0, device_id_1, geofence_id_1
DELETE FROM geofence_states WHERE organization_id = ? AND (device_id, geofence_id) IN (VALUES (?, ?), (?, ?));

-- geofence-state.pairs-of
-- not sent to SQLite

-- geofence-state.pairs-of-list[1]
-- parameters: organizationId, device0
SELECT device_id, geofence_id, state, CAST(round((julianday(next_deadline_at) - 2440587.5) * 86400000) AS INTEGER) AS deadline FROM geofence_states WHERE organization_id = ? AND device_id IN (?);

-- geofence-state.pairs-of-list[2]
-- parameters: organizationId, device0, device1
SELECT device_id, geofence_id, state, CAST(round((julianday(next_deadline_at) - 2440587.5) * 86400000) AS INTEGER) AS deadline FROM geofence_states WHERE organization_id = ? AND device_id IN (?, ?);

-- geofence-state.pairs-upsert
-- not sent to SQLite

-- geofence-state.pairs-upsert-rows[1]
-- parameters: organization_id_0, device_id_0, geofence_id_0, phase_0, visit_id_0, state_0, next_deadline_at_0, updated_at_0
INSERT INTO geofence_states (organization_id, device_id, geofence_id, phase, visit_id, state, next_deadline_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, device_id, geofence_id) DO UPDATE SET phase = excluded.phase, visit_id = excluded.visit_id,
  state = excluded.state,
  next_deadline_at = CASE WHEN geofence_states.next_deadline_at > excluded.updated_at AND geofence_states.next_deadline_at <= excluded.next_deadline_at
    THEN geofence_states.next_deadline_at ELSE excluded.next_deadline_at END,
  updated_at = excluded.updated_at;

-- geofence-state.pairs-upsert-rows[2]
-- parameters: organization_id_0, device_id_0, geofence_id_0, phase_0, visit_id_0, state_0, next_deadline_at_0, updated_at_0, organization_id_1, device_id_1, geofence_id_1, phase_1, visit_id_1, state_1, next_deadline_at_1, updated_at_1
INSERT INTO geofence_states (organization_id, device_id, geofence_id, phase, visit_id, state, next_deadline_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, device_id, geofence_id) DO UPDATE SET phase = excluded.phase, visit_id = excluded.visit_id,
  state = excluded.state,
  next_deadline_at = CASE WHEN geofence_states.next_deadline_at > excluded.updated_at AND geofence_states.next_deadline_at <= excluded.next_deadline_at
    THEN geofence_states.next_deadline_at ELSE excluded.next_deadline_at END,
  updated_at = excluded.updated_at;

-- geofence-state.take-seq
-- parameters: organizationId, count
INSERT INTO geofence_event_counters (organization_id, seq) VALUES (?, ?)
         ON CONFLICT (organization_id) DO UPDATE SET seq = geofence_event_counters.seq + excluded.seq RETURNING seq;

-- geofence-state.visit-update[dwell+exit]
-- parameters: dwell, exitedAt, reason, id, organizationId
UPDATE geofence_visits SET dwell_fired = ?, exited_at = ?, exit_reason = ? WHERE id = ? AND organization_id = ?;

-- geofence-state.visit-update[dwell]
-- parameters: dwell, id, organizationId
UPDATE geofence_visits SET dwell_fired = ? WHERE id = ? AND organization_id = ?;

-- geofence-state.visit-update[exit]
-- parameters: exitedAt, reason, id, organizationId
UPDATE geofence_visits SET exited_at = ?, exit_reason = ? WHERE id = ? AND organization_id = ?;

-- geofences.by-id
-- parameters: id, organizationId
SELECT * FROM "geofences" WHERE "id" = ? AND "organization_id" = ?;

-- geofences.search-count[0:-:0:0:0]
-- parameters: organizationId, deleted
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ?;

-- geofences.search-count[2:2:2:1:1]
-- parameters: organizationId, deleted, b0, b1, v0, v1, f0, f1, code, name
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ? AND "building_id" IN (?, ?) AND "building_id" IN (?, ?) AND "floor_id" IN (?, ?) AND "code" = ? AND "name_lower" LIKE ? ESCAPE '\';

-- geofences.search-page[0:-:0:0:0:created_at:ASC]
-- parameters: organizationId, deleted, limit, offset
SELECT * FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ? ORDER BY "created_at" ASC, "id" ASC LIMIT ? OFFSET ?;

-- geofences.search-page[2:2:2:1:1:name_lower:DESC]
-- parameters: organizationId, deleted, b0, b1, v0, v1, f0, f1, code, name, limit, offset
SELECT * FROM "geofences" WHERE "organization_id" = ? AND "deleted" = ? AND "building_id" IN (?, ?) AND "building_id" IN (?, ?) AND "floor_id" IN (?, ?) AND "code" = ? AND "name_lower" LIKE ? ESCAPE '\' ORDER BY "name_lower" DESC, "id" ASC LIMIT ? OFFSET ?;

-- heatmaps.drop-before
-- parameters: organization, before
DELETE FROM heatmap_days WHERE organization_id = ? AND day < ?;

-- heatmaps.grid
-- parameters: cell, organization, building, floor, from, to
SELECT CAST(floor(x / ?) AS INTEGER) AS cx, CAST(floor(y / ?) AS INTEGER) AS cy, COUNT(*) AS n
  FROM position_history
  WHERE organization_id = ? AND building_id = ? AND floor_id = ? AND "time" >= ? AND "time" < ? AND x IS NOT NULL AND y IS NOT NULL
  GROUP BY 1, 2;

-- heatmaps.keep
-- parameters: organization, floor, cellCm, day, fixes, cells, now
INSERT INTO heatmap_days (organization_id, floor_id, cell_cm, day, building_fixes, cells, computed_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (organization_id, floor_id, cell_cm, day) DO UPDATE SET building_fixes = excluded.building_fixes, cells = excluded.cells, computed_at = excluded.computed_at;

-- heatmaps.kept
-- parameters: organization, floor, cellCm, from, to
SELECT day, building_fixes, cells FROM heatmap_days WHERE organization_id = ? AND floor_id = ? AND cell_cm = ? AND day >= ? AND day < ?;

-- heatmaps.slot-sums
-- parameters: organization, building, from, to
SELECT slot, SUM(fixes) AS fixes FROM position_rollups
  WHERE organization_id = ? AND building_id = ? AND slot >= ? AND slot < ? GROUP BY slot;

-- idempotency-keys.claim
-- parameters: scope, organizationId, fingerprint, lockedUntil, now, expiresAt
INSERT INTO "idempotency_keys" ("scope_hash", "organization_id", "request_hash", "locked_until", "created_at", "expires_at")
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT ("scope_hash") DO NOTHING RETURNING "scope_hash";

-- idempotency-keys.complete
-- parameters: status, response, scope
UPDATE "idempotency_keys" SET "status" = ?, "response" = ? WHERE "scope_hash" = ?;

-- idempotency-keys.lock
-- parameters: scope
SELECT * FROM "idempotency_keys" WHERE "scope_hash" = ?;

-- idempotency-keys.purge
-- parameters: now
DELETE FROM "idempotency_keys" WHERE "expires_at" <= ?;

-- idempotency-keys.release
-- parameters: now, scope
UPDATE "idempotency_keys" SET "locked_until" = ? WHERE "scope_hash" = ? AND "status" IS NULL;

-- idempotency-keys.restart
-- parameters: fingerprint, lockedUntil, now, expiresAt, scope
UPDATE "idempotency_keys" SET "request_hash" = ?, "locked_until" = ?, "wrote_at" = NULL, "status" = NULL,
         "response" = NULL, "created_at" = CASE WHEN "expires_at" <= ? THEN ? ELSE "created_at" END,
         "expires_at" = CASE WHEN "expires_at" <= ? THEN ? ELSE "expires_at" END
       WHERE "scope_hash" = ?;

-- idempotency-keys.written
-- parameters: now, scope
UPDATE "idempotency_keys" SET "wrote_at" = ? WHERE "scope_hash" = ?;

-- image-blobs.read
-- parameters: key
SELECT "bytes" FROM "image_blobs" WHERE "image_id" = ?;

-- image-blobs.remove
-- parameters: key
DELETE FROM "image_blobs" WHERE "image_id" = ?;

-- image-blobs.write
-- parameters: key, bytes
INSERT INTO "image_blobs" ("image_id", "bytes") VALUES (?, ?);

-- live-fences.by-ids
-- parameters: organizationId, deleted, includeDeleted, ids
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, g.geometric, r.rules FROM geofences g
           LEFT JOIN geofence_rules r ON r.geofence_id = g.id
           WHERE g.organization_id = ? AND (g.deleted = ? OR ? = 1) AND g.id IN (SELECT value FROM json_each(?));

-- live-fences.floor-revisions[4]
-- parameters: organizationId, f0, f1, f2, f3
SELECT f."id", f."building_id", b."latitude", b."longitude", b."version" AS "building_version", COALESCE(v."revision", 0) AS "revision"
       FROM "floors" f
       JOIN "buildings" b ON b."id" = f."building_id" AND b."deleted_at" IS NULL
       LEFT JOIN "building_revisions" v ON v."building_id" = f."building_id"
       WHERE f."organization_id" = ? AND f."deleted_at" IS NULL AND f."id" IN (?, ?, ?, ?);

-- live-fences.of-floor
-- parameters: organizationId, deleted, floorId
SELECT g."id", g."name", g."code", g."building_id", g."floor_id", g."geometric", r."rules" FROM "geofences" g
       LEFT JOIN "geofence_rules" r ON r."geofence_id" = g."id"
       WHERE g."organization_id" = ? AND g."deleted" = ? AND g."floor_id" = ?;

-- live-fences.settings
-- parameters: organizationId
SELECT "rules" FROM "geofencing_settings" WHERE "organization_id" = ?;

-- live-positions.changed-since
-- parameters: organization, since
SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE d.organization_id = ? AND d.updated_at >= ? AND d.last_time IS NOT NULL ORDER BY d.updated_at, d.id;

-- live-positions.gateway-fixes
-- parameters: organization
SELECT "device_id", "time_ms", "gateways_used" FROM "device_gateway_fixes" WHERE "organization_id" = ?;

-- live-positions.latest[0:0:0:any]
-- parameters: organization, since
SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = ? AND d.last_time >= ? ORDER BY d.id;

-- live-positions.latest[2:2:2:in]
-- parameters: organization, since, b0, b1, u0, u1, d0, d1
SELECT d.id, d.code, d.user_id, d.last_time, d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at, d.updated_at FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = ? AND d.last_time >= ? AND d.building_id IN (?, ?) AND d.user_id IN (?, ?) AND d.id IN (?, ?) AND d.floor_id IS NOT NULL ORDER BY d.id;

-- live-positions.pois[2]
-- parameters: organization, f0, f1
SELECT id, floor_id, x, y, radius FROM pois WHERE organization_id = ? AND radius IS NOT NULL AND floor_id IN (?, ?);

-- login-failures.count
-- parameters: now, key
UPDATE "login_failures" SET "failures" = "failures" + 1, "window_started_at" = ? WHERE "key" = ?;

-- login-failures.count-in-window
-- parameters: key, now, windowStart
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (?, ?, 1)
       ON CONFLICT ("key") DO UPDATE SET
         "failures" = CASE WHEN "login_failures"."window_started_at" <= ? THEN 1 ELSE "login_failures"."failures" + 1 END,
         "window_started_at" = CASE WHEN "login_failures"."window_started_at" <= ? THEN ? ELSE "login_failures"."window_started_at" END
       RETURNING "failures", "window_started_at";

-- login-failures.ensure
-- parameters: key, now
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (?, ?, 0) ON CONFLICT ("key") DO NOTHING;

-- login-failures.familiar
-- parameters: key, now
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES (?, ?, 0)
         ON CONFLICT ("key") DO UPDATE SET "window_started_at" = ?;

-- login-failures.forget
-- parameters: first, second
DELETE FROM "login_failures" WHERE "key" IN (?, ?);

-- login-failures.give-back
-- parameters: key
UPDATE "login_failures" SET "failures" = "failures" - 1 WHERE "key" = ? AND "failures" > 0;

-- login-failures.lock
-- parameters: key
SELECT "failures", "window_started_at" FROM "login_failures" WHERE "key" = ?;

-- login-failures.purge
-- parameters: dayAgo, familiarSince
DELETE FROM "login_failures" WHERE ("key" NOT LIKE 'known%' AND "window_started_at" < ?) OR "window_started_at" < ?;

-- login-failures.seen-since
-- parameters: key, since
SELECT 1 AS "one" FROM "login_failures" WHERE "key" = ? AND "window_started_at" > ?;

-- occupancy.counts[0:0]
-- parameters: organizationId, deleted
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[0:2]
-- parameters: organizationId, deleted, f0, f1
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? AND g.floor_id IN (?, ?) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:0]
-- parameters: organizationId, deleted, b0, b1
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? AND g.building_id IN (?, ?) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:2]
-- parameters: organizationId, deleted, b0, b1, f0, f1
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = ? AND s.phase IN ('inside', 'pending_exit') AND g.deleted = ? AND g.building_id IN (?, ?) AND g.floor_id IN (?, ?) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.occupants
-- parameters: geofenceId, organizationId
SELECT device_id, state FROM geofence_states WHERE geofence_id = ? AND organization_id = ? AND phase IN ('inside', 'pending_exit') ORDER BY device_id;

-- occupancy.visit-count[0:0]
-- parameters: geofenceId, organizationId
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = ? AND organization_id = ?;

-- occupancy.visit-count[1:1]
-- parameters: geofenceId, organizationId, to, from
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = ? AND organization_id = ? AND entered_at <= ? AND (exited_at IS NULL OR exited_at >= ?);

-- occupancy.visits[0:0]
-- parameters: geofenceId, organizationId, limit, offset
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = ? AND organization_id = ? ORDER BY entered_at DESC, id LIMIT ? OFFSET ?;

-- occupancy.visits[1:1]
-- parameters: geofenceId, organizationId, to, from, limit, offset
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = ? AND organization_id = ? AND entered_at <= ? AND (exited_at IS NULL OR exited_at >= ?) ORDER BY entered_at DESC, id LIMIT ? OFFSET ?;

-- postgres-position-store.batch
-- not sent to SQLite

-- postgres-position-store.newest
-- not sent to SQLite

-- postgres-position-store.on-floor
-- not sent to SQLite

-- postgres-position-store.partition-create[1767225600000]
-- not sent to SQLite

-- postgres-position-store.partition-drop[1767225600000]
-- not sent to SQLite

-- postgres-position-store.partitions
-- not sent to SQLite

-- radio-models.bump[model_revision]
-- parameters: buildingId
INSERT INTO "radio_revisions" ("building_id", "model_revision") VALUES (?, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "model_revision" = "radio_revisions"."model_revision" + 1;

-- radio-models.bump[reference_revision]
-- parameters: buildingId
INSERT INTO "radio_revisions" ("building_id", "reference_revision") VALUES (?, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "reference_revision" = "radio_revisions"."reference_revision" + 1;

-- radio-models.insert-if-absent
-- parameters: floorId, organizationId, buildingId, scans, statistics, createdAt, updatedAt
INSERT INTO "radio_models" ("floor_id", "organization_id", "building_id", "version", "scans", "statistics", "created_at", "updated_at")
       VALUES (?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT ("floor_id") DO NOTHING RETURNING "floor_id";

-- report-fences.fence-building
-- parameters: organizationId, id, deleted
SELECT building_id FROM geofences WHERE organization_id = ? AND id = ? AND deleted = ?;

-- report-fences.fences[0:0]
-- parameters: organizationId
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? ORDER BY id;

-- report-fences.fences[0:2]
-- parameters: organizationId, g0, g1
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? AND id IN (?, ?) ORDER BY id;

-- report-fences.fences[2:0]
-- parameters: organizationId, b0, b1
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? AND building_id IN (?, ?) ORDER BY id;

-- report-fences.fences[2:2]
-- parameters: organizationId, b0, b1, g0, g1
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = ? AND building_id IN (?, ?) AND id IN (?, ?) ORDER BY id;

-- report-fences.live-buildings[2]
-- parameters: organizationId, b0, b1
SELECT id FROM buildings WHERE organization_id = ? AND deleted_at IS NULL AND id IN (?, ?);

-- report-visits.first-page
-- parameters: fenceId, organizationId, from, to, limit
SELECT id, geofence_id, device_id, user_id, CAST(round((julianday(entered_at) - 2440587.5) * 86400000) AS INTEGER) AS entered_ms, CAST(round((julianday(exited_at) - 2440587.5) * 86400000) AS INTEGER) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = ? AND organization_id = ? AND entered_at >= ? AND entered_at < ?
      ORDER BY entered_at, id LIMIT ?;

-- report-visits.next-page
-- parameters: fenceId, organizationId, afterAt, to, afterId, limit
SELECT id, geofence_id, device_id, user_id, CAST(round((julianday(entered_at) - 2440587.5) * 86400000) AS INTEGER) AS entered_ms, CAST(round((julianday(exited_at) - 2440587.5) * 86400000) AS INTEGER) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = ? AND organization_id = ? AND entered_at >= ? AND entered_at < ?
        AND (entered_at > ? OR id > ?)
      ORDER BY entered_at, id LIMIT ?;

-- report-visits.under-way-at-start
-- parameters: fenceId, organizationId, from
SELECT id, geofence_id, device_id, user_id, CAST(round((julianday(entered_at) - 2440587.5) * 86400000) AS INTEGER) AS entered_ms, CAST(round((julianday(exited_at) - 2440587.5) * 86400000) AS INTEGER) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = ? AND organization_id = ? AND entered_at < ? AND (exited_at >= ? OR exited_at IS NULL);

-- rollup-store.delete-batch
-- parameters: cutoff
DELETE FROM position_rollups WHERE rowid IN (SELECT rowid FROM position_rollups WHERE slot < ? LIMIT 5000);

-- rollup-store.delete-before
-- not sent to SQLite

-- rollup-store.neighbours
-- not sent to SQLite

-- rollup-store.neighbours-sqlite
-- parameters: windows, organizationId
SELECT device_id, "time", building_id FROM (
    SELECT h.device_id AS device_id, h."time" AS "time", h.building_id AS building_id
      FROM json_each(?) w
      CROSS JOIN position_history h ON h.organization_id = ? AND h.device_id = json_extract(w.value, '$[0]')
        AND h."time" >= json_extract(w.value, '$[1]') AND h."time" <= json_extract(w.value, '$[2]')
    UNION ALL SELECT n.device_id, n."time", n.building_id FROM (
      SELECT json_extract(w.value, '$[0]') AS device_id, (SELECT p."time" FROM position_history p WHERE p.organization_id = ? AND p.device_id = json_extract(w.value, '$[0]') AND p."time" < json_extract(w.value, '$[1]') AND p."time" >= json_extract(w.value, '$[3]') ORDER BY p."time" DESC LIMIT 1) AS "time", (SELECT p.building_id FROM position_history p WHERE p.organization_id = ? AND p.device_id = json_extract(w.value, '$[0]') AND p."time" < json_extract(w.value, '$[1]') AND p."time" >= json_extract(w.value, '$[3]') ORDER BY p."time" DESC LIMIT 1) AS building_id FROM json_each(?) w
    ) n WHERE n."time" IS NOT NULL
    UNION ALL SELECT n.device_id, n."time", n.building_id FROM (
      SELECT json_extract(w.value, '$[0]') AS device_id, (SELECT p."time" FROM position_history p WHERE p.organization_id = ? AND p.device_id = json_extract(w.value, '$[0]') AND p."time" > json_extract(w.value, '$[2]') AND p."time" <= json_extract(w.value, '$[4]') ORDER BY p."time" ASC LIMIT 1) AS "time", (SELECT p.building_id FROM position_history p WHERE p.organization_id = ? AND p.device_id = json_extract(w.value, '$[0]') AND p."time" > json_extract(w.value, '$[2]') AND p."time" <= json_extract(w.value, '$[4]') ORDER BY p."time" ASC LIMIT 1) AS building_id FROM json_each(?) w
    ) n WHERE n."time" IS NOT NULL
  ) ORDER BY device_id, "time";

-- rollup-store.upsert
-- not sent to SQLite

-- rollup-store.upsert-rows[1]
-- parameters: organization_id_0, building_id_0, device_id_0, slot_0, fixes_0, first_ms_0, last_ms_0, positioned_ms_0
INSERT INTO position_rollups (organization_id, building_id, device_id, slot, fixes, first_ms, last_ms, positioned_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, building_id, slot, device_id) DO UPDATE SET
    fixes = position_rollups.fixes + excluded.fixes,
    positioned_ms = position_rollups.positioned_ms + excluded.positioned_ms,
    first_ms = CASE WHEN excluded.first_ms IS NULL OR position_rollups.first_ms <= excluded.first_ms THEN position_rollups.first_ms ELSE excluded.first_ms END,
    last_ms = CASE WHEN excluded.last_ms IS NULL OR position_rollups.last_ms >= excluded.last_ms THEN position_rollups.last_ms ELSE excluded.last_ms END;

-- rollup-store.upsert-rows[2]
-- parameters: organization_id_0, building_id_0, device_id_0, slot_0, fixes_0, first_ms_0, last_ms_0, positioned_ms_0, organization_id_1, building_id_1, device_id_1, slot_1, fixes_1, first_ms_1, last_ms_1, positioned_ms_1
INSERT INTO position_rollups (organization_id, building_id, device_id, slot, fixes, first_ms, last_ms, positioned_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, building_id, slot, device_id) DO UPDATE SET
    fixes = position_rollups.fixes + excluded.fixes,
    positioned_ms = position_rollups.positioned_ms + excluded.positioned_ms,
    first_ms = CASE WHEN excluded.first_ms IS NULL OR position_rollups.first_ms <= excluded.first_ms THEN position_rollups.first_ms ELSE excluded.first_ms END,
    last_ms = CASE WHEN excluded.last_ms IS NULL OR position_rollups.last_ms >= excluded.last_ms THEN position_rollups.last_ms ELSE excluded.last_ms END;

-- sqlite-position-store.history-delete
-- parameters: organizationId, before
DELETE FROM position_history WHERE rowid IN (SELECT rowid FROM position_history WHERE organization_id = ? AND "time" < ? LIMIT 5000);

-- sqlite-position-store.history-insert[1]
-- parameters: organization_id_0, device_id_0, time_0, user_id_0, building_id_0, floor_id_0, lat_0, lng_0, x_0, y_0, accuracy_0, yaw_0
INSERT INTO position_history (organization_id, device_id, time, user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING;

-- sqlite-position-store.history-insert[2]
-- parameters: organization_id_0, device_id_0, time_0, user_id_0, building_id_0, floor_id_0, lat_0, lng_0, x_0, y_0, accuracy_0, yaw_0, organization_id_1, device_id_1, time_1, user_id_1, building_id_1, floor_id_1, lat_1, lng_1, x_1, y_1, accuracy_1, yaw_1
INSERT INTO position_history (organization_id, device_id, time, user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING;

-- sqlite-position-store.new-code
-- parameters: code, now, organizationId, deviceId
UPDATE devices SET code = ?, updated_at = ? WHERE organization_id = ? AND id = ?;

-- sqlite-position-store.new-device
-- parameters: organization_id, id, code, user_id, last_time, building_id, floor_id, lat, lng, x, y, accuracy, yaw, created_at, updated_at
INSERT INTO devices (organization_id, id, code, user_id, last_time, building_id, floor_id, lat, lng, x, y, accuracy, yaw, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- sqlite-position-store.newest-fix
-- parameters: userId, time, buildingId, floorId, lat, lng, x, y, accuracy, yaw, now, organizationId, deviceId
UPDATE devices SET user_id = ?, last_time = ?, building_id = ?, floor_id = ?, lat = ?, lng = ?, x = ?, y = ?,
    accuracy = ?, yaw = ?, updated_at = ?
  WHERE organization_id = ? AND id = ? AND (last_time IS NULL OR last_time <= ?);

-- sqlite-position-store.newest[1]
-- parameters: organizationId, id0
SELECT id, code, user_id, CAST(round((julianday(last_time) - 2440587.5) * 86400000) AS INTEGER) AS time, building_id, floor_id, lat, lng, x, y, accuracy, yaw FROM devices WHERE organization_id = ? AND id IN (?);

-- sqlite-position-store.newest[2]
-- parameters: organizationId, id0, id1
SELECT id, code, user_id, CAST(round((julianday(last_time) - 2440587.5) * 86400000) AS INTEGER) AS time, building_id, floor_id, lat, lng, x, y, accuracy, yaw FROM devices WHERE organization_id = ? AND id IN (?, ?);

-- sqlite-position-store.on-floor
-- parameters: organizationId, floorId, since
SELECT id, code, user_id, CAST(round((julianday(last_time) - 2440587.5) * 86400000) AS INTEGER) AS time, building_id, floor_id, lat, lng, x, y, accuracy, yaw FROM devices WHERE organization_id = ? AND floor_id = ? AND last_time >= ?;

-- sqlite-position-store.organizations
SELECT id FROM organizations;

-- sqlite-position-store.reconcile
UPDATE devices SET (user_id, last_time, building_id, floor_id, lat, lng, x, y, accuracy, yaw, updated_at) = (
    SELECT h.user_id, h."time", h.building_id, h.floor_id, h.lat, h.lng, h.x, h.y, h.accuracy, h.yaw, strftime('%Y-%m-%d %H:%M:%f', 'now')
    FROM position_history h WHERE h.organization_id = devices.organization_id AND h.device_id = devices.id ORDER BY h."time" DESC LIMIT 1)
  WHERE EXISTS (SELECT 1 FROM position_history h WHERE h.organization_id = devices.organization_id AND h.device_id = devices.id AND (devices.last_time IS NULL OR h."time" > devices.last_time));

-- stream-leases.count
-- parameters: organizationId
SELECT COUNT(*) AS open FROM stream_leases WHERE organization_id = ?;

-- stream-leases.delete
-- parameters: id
DELETE FROM stream_leases WHERE id = ?;

-- stream-leases.delete-all
DELETE FROM stream_leases;

-- stream-leases.delete-instance
-- parameters: instanceId
DELETE FROM stream_leases WHERE instance_id = ?;

-- stream-leases.insert
-- parameters: lease, organizationId, kind, instanceId, expiresAt
INSERT INTO stream_leases (id, organization_id, kind, instance_id, expires_at) VALUES (?, ?, ?, ?, ?);

-- stream-leases.purge-expired
-- parameters: organizationId, now
DELETE FROM stream_leases WHERE organization_id = ? AND expires_at <= ?;

-- stream-leases.renew
-- parameters: expiresAt, instanceId
UPDATE stream_leases SET expires_at = ? WHERE instance_id = ?;

-- stream-tickets.issue
-- parameters: hash, organizationId, userId, principal, expiresAt
INSERT INTO stream_tickets (ticket_hash, organization_id, user_id, principal, expires_at) VALUES (?, ?, ?, ?, ?);

-- stream-tickets.sweep
-- parameters: now
DELETE FROM stream_tickets WHERE expires_at < ?;

-- stream-tickets.take
-- parameters: hash, now
DELETE FROM stream_tickets WHERE ticket_hash = ? AND expires_at > ? RETURNING principal;

-- tag-observations.insert
-- parameters: organizationId, deviceId, gatewayId, time, receivedMs, rssi, txPower, raw, dedupKey
INSERT INTO "gateway_observations" ("organization_id", "device_id", "gateway_id", "time", "received_ms", "rssi", "tx_power", "raw", "dedup_key")
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT DO NOTHING RETURNING "id";

-- tag-observations.remove-device
-- parameters: organizationId, deviceId
DELETE FROM "gateway_observations" WHERE "organization_id" = ? AND "device_id" = ?;

-- tag-observations.remove-gateway
-- parameters: gatewayId
DELETE FROM "gateway_observations" WHERE "gateway_id" = ?;

-- tag-observations.window
-- parameters: organizationId, deviceId, from, to
SELECT "device_id", "gateway_id", "time", "rssi", "tx_power" FROM "gateway_observations"
   WHERE "organization_id" = ? AND "device_id" = ? AND "time" >= ? AND "time" < ? ORDER BY "time", "id";

-- tag-windows.claim
-- parameters: windowId, organizationId, deviceId, from, to, lastId
UPDATE "gateway_observations" SET "window_id" = ?
   WHERE "organization_id" = ? AND "device_id" = ? AND "window_id" IS NULL AND "time" >= ? AND "time" < ? AND "id" <= ?
   RETURNING "id";

-- tag-windows.due
-- parameters: before, limit
SELECT "organization_id", "device_id", MIN("time") AS "first" FROM "gateway_observations"
   WHERE "window_id" IS NULL GROUP BY "organization_id", "device_id" HAVING MIN("time") < ? ORDER BY MIN("time") LIMIT ?;

-- tag-windows.record-fix
-- parameters: organizationId, deviceId, timeMs, windowId, gatewaysUsed
INSERT INTO "device_gateway_fixes" ("organization_id", "device_id", "time_ms", "window_id", "gateways_used") VALUES (?, ?, ?, ?, ?)
   ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time_ms" = excluded."time_ms", "window_id" = excluded."window_id", "gateways_used" = excluded."gateways_used"
   WHERE excluded."time_ms" >= "device_gateway_fixes"."time_ms";

-- tag-windows.remove-old
-- parameters: before
DELETE FROM "gateway_observations" WHERE "received_ms" < ?;

-- tag-windows.tag-user
-- parameters: organizationId
SELECT "id" FROM "users" WHERE "organization_id" = ? ORDER BY CASE WHEN "role" = 'ADMIN_ORG' THEN 0 ELSE 1 END, "created_at", "id" LIMIT 1;

-- tag-windows.unclaimed
-- parameters: organizationId, deviceId, from, to
SELECT o."id", o."gateway_id", g."hardware_id", g."building_id", g."floor_id", f."level", f."level_height", g."x", g."y", o."rssi", o."tx_power", o."time"
   FROM "gateway_observations" o JOIN "gateways" g ON g."id" = o."gateway_id" JOIN "floors" f ON f."id" = g."floor_id"
   WHERE o."organization_id" = ? AND o."device_id" = ? AND o."window_id" IS NULL AND o."time" >= ? AND o."time" < ?
   ORDER BY o."time", o."id";

-- transmitter-sites.bump
-- parameters: buildingId
INSERT INTO "infrastructure_revisions" ("building_id", "revision") VALUES (?, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "infrastructure_revisions"."revision" + 1;

-- transmitter-sites.sites[2]
-- parameters: organizationId, b0, b1
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
-- parameters: organization, building, cursor
SELECT device_id, user_id, "time", floor_id, lat, lng FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" = ? ORDER BY device_id;

-- user-positions.building-page[5000]
-- parameters: organization, building, cursor, to
SELECT device_id, user_id, "time", floor_id, lat, lng FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" >= ? AND "time" < ? ORDER BY "time", device_id LIMIT 5000;

-- user-positions.building-track-count[0,0,0]
-- parameters: organization, building, from, to, limit
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" >= ? AND "time" < ? LIMIT ?) capped;

-- user-positions.building-track-count[1,1,1]
-- parameters: organization, building, from, to, device, user, floor, limit
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = ? AND building_id = ? AND "time" >= ? AND "time" < ? AND device_id = ? AND user_id = ? AND floor_id = ? LIMIT ?) capped;

-- user-positions.device-track-count
-- parameters: organization, device, from, to, limit
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = ? AND device_id = ? AND "time" >= ? AND "time" < ? LIMIT ?) capped;

-- user-positions.device-track-page[5000]
-- parameters: organization, device, cursor, to
SELECT user_id, "time", floor_id, lat, lng, building_id FROM position_history
     WHERE organization_id = ? AND device_id = ? AND "time" >= ? AND "time" < ? ORDER BY "time" LIMIT 5000;

-- user-positions.elsewhere
-- parameters: organization, building, after, until
SELECT device_id, "time", building_id FROM position_history WHERE organization_id = ? AND building_id < ? AND "time" >= ? AND "time" < ? UNION ALL SELECT device_id, "time", building_id FROM position_history WHERE organization_id = ? AND building_id > ? AND "time" >= ? AND "time" < ? UNION ALL SELECT device_id, "time", building_id FROM position_history WHERE organization_id = ? AND building_id IS NULL AND "time" >= ? AND "time" < ? ORDER BY 2;

-- users.list-count[0:0:0:0:0:-:0:0]
-- parameters: organizationId
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = ?;

-- users.list-count[1:2:2:2:2:with:1:2]
-- parameters: organizationId, self, i0, i1, x0, x1, g0, g1, b0, b1, fullName, c0, c1
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = ? AND "u"."id" = ? AND "u"."id" IN (?, ?) AND "u"."id" NOT IN (?, ?) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN (?, ?)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN (?, ?)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE ? ESCAPE '\' AND "u"."code" IN (?, ?);

-- users.list-page[0:0:0:0:0:-:0:0:created_at:ASC]
-- parameters: organizationId, limit, offset
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = ? ORDER BY "u"."created_at" ASC NULLS LAST, "u"."id" ASC LIMIT ? OFFSET ?;

-- users.list-page[0:0:0:0:0:without:0:0:full_name:ASC]
-- parameters: organizationId, limit, offset
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = ? AND NOT EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") ORDER BY "u"."full_name" ASC NULLS LAST, "u"."id" ASC LIMIT ? OFFSET ?;

-- users.list-page[1:2:2:2:2:with:1:2:last_activity:DESC]
-- parameters: organizationId, self, i0, i1, x0, x1, g0, g1, b0, b1, fullName, c0, c1, limit, offset
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = ? AND "u"."id" = ? AND "u"."id" IN (?, ?) AND "u"."id" NOT IN (?, ?) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN (?, ?)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN (?, ?)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE ? ESCAPE '\' AND "u"."code" IN (?, ?) ORDER BY "u"."last_activity" DESC NULLS LAST, "u"."id" ASC LIMIT ? OFFSET ?;

-- worker-heartbeats.beat
-- parameters: instance, now
INSERT INTO worker_heartbeats (instance, heartbeat_at) VALUES (?, ?)
  ON CONFLICT (instance) DO UPDATE SET heartbeat_at = excluded.heartbeat_at;

-- worker-heartbeats.dead
-- parameters: staleBefore
SELECT instance FROM worker_heartbeats WHERE heartbeat_at < ?;

-- worker-heartbeats.forget
-- parameters: instance
DELETE FROM worker_heartbeats WHERE instance = ?;

-- worker-heartbeats.forget-dead
-- parameters: staleBefore
DELETE FROM worker_heartbeats WHERE heartbeat_at < ?;

-- worker-heartbeats.release-all
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE status IN ('pending', 'failed') AND lease_owner IS NOT NULL;

-- worker-heartbeats.release-dead
-- parameters: staleBefore
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
  WHERE status IN ('pending', 'failed') AND lease_owner IN (SELECT instance FROM worker_heartbeats WHERE heartbeat_at < ?)
  RETURNING id;
