-- Every statement the repositories send to PostgreSQL, as the driver receives it.
-- Written by `npm run sql:snapshot`; src/database/statements.spec.ts fails when it is stale.

-- building-reports.rollups
-- parameters: organization, building, from, to
SELECT device_id, slot, positioned_ms FROM position_rollups WHERE organization_id = $1 AND building_id = $2 AND slot >= $3 AND slot < $4;

-- building-revisions.bump
-- parameters: buildingId
INSERT INTO "building_revisions" ("building_id", "revision") VALUES ($1, 1)
         ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.bump-organization
-- parameters: organizationId
INSERT INTO "building_revisions" ("building_id", "revision")
       SELECT "id", 1 FROM "buildings" WHERE "organization_id" = $1
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1;

-- building-revisions.category-buildings
-- parameters: categoryId
SELECT DISTINCT "building_id" FROM "pois" WHERE "category_id" = $1;

-- building-revisions.current
-- parameters: buildingId
SELECT "revision" FROM "building_revisions" WHERE "building_id" = $1;

-- building-revisions.owned
-- parameters: buildingId, organizationId
SELECT "b"."version" AS "version", COALESCE("r"."revision", 0) AS "revision" FROM "buildings" "b"
       LEFT JOIN "building_revisions" "r" ON "r"."building_id" = "b"."id"
       WHERE "b"."id" = $1 AND "b"."organization_id" = $2 AND "b"."deleted_at" IS NULL;

-- building-tracking.read
-- parameters: buildingId
SELECT "scans", "positions", "reset_after_seconds" FROM "building_tracking" WHERE "building_id" = $1;

-- building-tracking.write
-- parameters: buildingId, organizationId, scans, positions, resetAfterSeconds, now
INSERT INTO "building_tracking" ("building_id", "organization_id", "scans", "positions", "reset_after_seconds", "version", "updated_at")
         VALUES ($1, $2, $3, $4, $5, 1, $6)
         ON CONFLICT ("building_id") DO UPDATE SET "scans" = excluded."scans", "positions" = excluded."positions", "reset_after_seconds" = excluded."reset_after_seconds",
           "version" = "building_tracking"."version" + 1, "updated_at" = excluded."updated_at";

-- credential-owners.key-by-hash
-- parameters: hash
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."key_hash" = $1;

-- credential-owners.key-by-id
-- parameters: id
SELECT k."id", k."organization_id", k."user_id", k."key_hash", k."permission", k."last_used_at", u."email", u."role", u."building_scope"
       FROM "api_keys" k INNER JOIN "users" u ON u."id" = k."user_id"
       WHERE k."id" = $1;

-- credential-owners.session
-- parameters: sessionId
SELECT s."user_id", u."organization_id", u."email", u."role", u."building_scope", s."permission", s."api_key_id", k."permission" AS "key_permission", s."revoked_at"
     FROM "auth_sessions" s
     INNER JOIN "users" u ON u."id" = s."user_id"
     LEFT JOIN "api_keys" k ON k."id" = s."api_key_id"
     WHERE s."id" = $1;

-- delivery-leases.due
-- parameters: enabled, now, per_endpoint, limit
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
-- parameters: instance, expires, now, ids
UPDATE webhook_deliveries
   SET lease_owner = $1, lease_expires_at = $2, updated_at = $3
 WHERE id = ANY(CAST($4 AS uuid[]))
   AND status IN ('pending', 'failed') AND (lease_expires_at IS NULL OR lease_expires_at < $3)
RETURNING id, endpoint_id, message_id, payload, attempts;

-- delivery-leases.leased-elsewhere
-- parameters: endpoints, now, instance
SELECT endpoint_id, COUNT(*) AS n
  FROM webhook_deliveries
 WHERE endpoint_id = ANY(CAST($1 AS uuid[]))
   AND status IN ('pending', 'failed') AND lease_expires_at > $2 AND lease_owner <> $3
 GROUP BY endpoint_id;

-- delivery-leases.record-attempt
-- not sent to PostgreSQL

-- delivery-leases.record-batch
-- parameters: ids, statuses, next_attempts, attempts, status_codes, errors, started, finished, attempt_ids, durations, instance
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
-- parameters: ids, instance
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
 WHERE id = ANY(CAST($1 AS uuid[])) AND lease_owner = $2;

-- device-tracks.read[2]
-- parameters: organization, d0, d1
SELECT "device_id", "time", "state" FROM "device_tracks" WHERE "organization_id" = $1 AND "device_id" IN ($2, $3);

-- device-tracks.remove
-- parameters: organization, device
DELETE FROM "device_tracks" WHERE "organization_id" = $1 AND "device_id" = $2;

-- device-tracks.write[2]
-- parameters: organization, d0, t0, s0, d1, t1, s1
INSERT INTO "device_tracks" ("organization_id", "device_id", "time", "state") VALUES ($1, $2, $3, $4), ($1, $5, $6, $7)
         ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time" = excluded."time", "state" = excluded."state";

-- event-log.after
-- parameters: organizationId, after, limit
SELECT seq, body FROM geofence_events WHERE organization_id = $1 AND seq > $2 ORDER BY seq LIMIT $3;

-- event-log.bounds
-- parameters: organizationId
SELECT (SELECT MIN(seq) FROM geofence_events WHERE organization_id = $1) AS oldest,
                (SELECT seq FROM geofence_event_counters WHERE organization_id = $1) AS last;

-- event-log.by-ids[2]
-- parameters: organizationId, e0, e1
SELECT id, seq, body FROM geofence_events WHERE organization_id = $1 AND id IN ($2, $3);

-- event-log.committed-seq
-- parameters: organizationId
SELECT seq FROM geofence_event_counters WHERE organization_id = $1;

-- event-log.occurred-in
-- parameters: organizationId, from, to, limit
SELECT id, body FROM geofence_events WHERE organization_id = $1 AND occurred_at >= $2 AND occurred_at <= $3 ORDER BY seq LIMIT $4;

-- event-log.one
-- parameters: organizationId, id
SELECT body, building_id FROM geofence_events WHERE organization_id = $1 AND id = $2;

-- event-log.page[0:0:0:0:0:0:0:0:0:ASC]
-- parameters: organizationId, limit
SELECT body FROM geofence_events WHERE organization_id = $1 ORDER BY seq ASC LIMIT $2;

-- event-log.page[0:1:0:0:0:0:0:0:0:DESC]
-- parameters: organizationId, before, limit
SELECT body FROM geofence_events WHERE organization_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3;

-- event-log.page[1:0:1:1:2:2:2:2:2:ASC]
-- parameters: organizationId, after, t0, t1, g0, g1, d0, d1, u0, u1, b0, b1, from, to, limit
SELECT body FROM geofence_events WHERE organization_id = $1 AND seq > $2 AND type IN ($3, $4) AND geofence_id IN ($5, $6) AND device_id IN ($7, $8) AND user_id IN ($9, $10) AND building_id IN ($11, $12) AND occurred_at >= $13 AND occurred_at <= $14 ORDER BY seq ASC LIMIT $15;

-- event-retention.delete-through
-- parameters: organizationId, last
DELETE FROM geofence_events WHERE organization_id = $1 AND seq <= $2;

-- event-retention.oldest[5000]
-- parameters: cutoff, organizationId
SELECT seq, CASE WHEN detected_at < $1 THEN 1 ELSE 0 END AS expired FROM geofence_events WHERE organization_id = $2 ORDER BY seq LIMIT 5000;

-- event-retention.organizations
SELECT organization_id FROM geofence_event_counters;

-- fix-places.places[0:2]
-- parameters: organization, b0, b1
SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = $1 AND b.deleted_at IS NULL AND b.id IN ($2, $3);

-- fix-places.places[2:0]
-- parameters: organization, f0, f1
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = $1 AND f.deleted_at IS NULL AND b.organization_id = $1 AND b.deleted_at IS NULL AND f.id IN ($2, $3);

-- fix-places.places[2:2]
-- parameters: organization, f0, f1, b0, b1
SELECT f.id AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM floors f JOIN buildings b ON b.id = f.building_id LEFT JOIN building_tracking t ON t.building_id = b.id
         WHERE f.organization_id = $1 AND f.deleted_at IS NULL AND b.organization_id = $1 AND b.deleted_at IS NULL AND f.id IN ($2, $3) UNION ALL SELECT NULL AS floor_id, b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds FROM buildings b LEFT JOIN building_tracking t ON t.building_id = b.id WHERE b.organization_id = $1 AND b.deleted_at IS NULL AND b.id IN ($4, $5);

-- fix-places.users[2]
-- parameters: organization, u0, u1
SELECT id FROM users WHERE organization_id = $1 AND id IN ($2, $3);

-- gateway-health.note-limit
-- parameters: gatewayId, organizationId, now, limit, windowStart
INSERT INTO "gateway_health" ("gateway_id", "organization_id", "last_seen_ms", "last_limit", "last_limit_ms", "window_start_ms")
   VALUES ($1, $2, $3, $4, $3, $5)
   ON CONFLICT ("gateway_id") DO UPDATE SET
     "last_seen_ms" = CASE WHEN excluded."last_seen_ms" > "gateway_health"."last_seen_ms" THEN excluded."last_seen_ms" ELSE "gateway_health"."last_seen_ms" END,
     "last_limit" = excluded."last_limit",
     "last_limit_ms" = excluded."last_limit_ms";

-- gateway-health.read
-- parameters: gatewayId
SELECT "gateway_id", "last_seen_ms", "messages", "messages_not_understood", "records_not_understood", "observations_stored", "observations_duplicate",
  "unknown_advertisers", "last_reason", "last_reason_ms", "last_limit", "last_limit_ms", "window_start_ms", "window_messages", "previous_window_messages" FROM "gateway_health" WHERE "gateway_id" = $1;

-- gateway-health.record
-- parameters: gatewayId, organizationId, now, notUnderstood, recordsNotUnderstood, stored, duplicates, unknown, reason, reasonMs, limit, limitMs, windowStart
INSERT INTO "gateway_health" ("gateway_id", "organization_id", "last_seen_ms", "messages", "messages_not_understood", "records_not_understood", "observations_stored",
     "observations_duplicate", "unknown_advertisers", "last_reason", "last_reason_ms", "last_limit", "last_limit_ms", "window_start_ms", "window_messages", "previous_window_messages")
   VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 1, 0)
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
DELETE FROM "gateway_health" WHERE "gateway_id" = $1;

-- gateway-health.silent
-- parameters: sinceDate, since
SELECT COUNT(*) AS "silent" FROM "gateways" g LEFT JOIN "gateway_health" h ON h."gateway_id" = g."id"
   WHERE (h."last_seen_ms" IS NULL AND g."created_at" < $1) OR h."last_seen_ms" < $2;

-- gateway-health.tags-heard
-- parameters: gatewayId, since
SELECT COUNT(DISTINCT "device_id") AS "tags" FROM "gateway_observations" WHERE "gateway_id" = $1 AND "time" >= $2;

-- geofence-state.all-deadlines-forward
-- parameters: now, organizationId
UPDATE geofence_states SET next_deadline_at = $1 WHERE organization_id = $2 AND next_deadline_at > $1;

-- geofence-state.all-fences-with-pairs
-- parameters: organizationId
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = $1;

-- geofence-state.deadlines-forward
-- parameters: now, organizationId, fenceIds
UPDATE geofence_states SET next_deadline_at = $1 WHERE organization_id = $2 AND next_deadline_at > $1 AND geofence_id = ANY(CAST($3 AS uuid[]));

-- geofence-state.due
-- parameters: now, limit
SELECT organization_id, device_id FROM geofence_states WHERE next_deadline_at <= $1 ORDER BY next_deadline_at LIMIT $2;

-- geofence-state.fences-with-pairs
-- parameters: organizationId, fenceIds
SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = $1 AND geofence_id = ANY(CAST($2 AS uuid[]));

-- geofence-state.holders
-- parameters: organizationId, fenceIds
SELECT DISTINCT device_id FROM geofence_states WHERE organization_id = $1 AND geofence_id = ANY(CAST($2 AS uuid[]));

-- geofence-state.insert-events[1]
-- parameters: id_0, organization_id_0, seq_0, type_0, occurred_at_0, detected_at_0, building_id_0, floor_id_0, geofence_id_0, device_id_0, user_id_0, visit_id_0, body_0
INSERT INTO geofence_events (id, organization_id, seq, type, occurred_at, detected_at, building_id, floor_id, geofence_id, device_id, user_id, visit_id, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13);

-- geofence-state.insert-events[2]
-- parameters: id_0, organization_id_0, seq_0, type_0, occurred_at_0, detected_at_0, building_id_0, floor_id_0, geofence_id_0, device_id_0, user_id_0, visit_id_0, body_0, id_1, organization_id_1, seq_1, type_1, occurred_at_1, detected_at_1, building_id_1, floor_id_1, geofence_id_1, device_id_1, user_id_1, visit_id_1, body_1
INSERT INTO geofence_events (id, organization_id, seq, type, occurred_at, detected_at, building_id, floor_id, geofence_id, device_id, user_id, visit_id, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13), ($14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26);

-- geofence-state.insert-visits[1]
-- parameters: id_0, organization_id_0, geofence_id_0, device_id_0, user_id_0, entered_at_0, exited_at_0, exit_reason_0, dwell_fired_0
INSERT INTO geofence_visits (id, organization_id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- geofence-state.insert-visits[2]
-- parameters: id_0, organization_id_0, geofence_id_0, device_id_0, user_id_0, entered_at_0, exited_at_0, exit_reason_0, dwell_fired_0, id_1, organization_id_1, geofence_id_1, device_id_1, user_id_1, entered_at_1, exited_at_1, exit_reason_1, dwell_fired_1
INSERT INTO geofence_visits (id, organization_id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9), ($10, $11, $12, $13, $14, $15, $16, $17, $18);

-- geofence-state.pairs-delete
-- parameters: deviceIds, fenceIds, organizationId
DELETE FROM geofence_states s USING unnest($1::varchar[], $2::uuid[]) AS d(device_id, geofence_id)
  WHERE s.organization_id = $3::uuid AND s.device_id = d.device_id AND s.geofence_id = d.geofence_id;

-- geofence-state.pairs-delete-rows[1]
-- not sent to PostgreSQL

-- geofence-state.pairs-delete-rows[2]
-- not sent to PostgreSQL

-- geofence-state.pairs-of
-- parameters: organizationId, deviceIds
SELECT device_id, geofence_id, state, CAST(extract(epoch FROM next_deadline_at) * 1000 AS double precision) AS deadline FROM geofence_states WHERE organization_id = $1 AND device_id = ANY($2::varchar[]);

-- geofence-state.pairs-of-list[1]
-- not sent to PostgreSQL

-- geofence-state.pairs-of-list[2]
-- not sent to PostgreSQL

-- geofence-state.pairs-upsert
-- parameters: organizationId, now, deviceIds, fenceIds, phases, visitIds, states, deadlines
INSERT INTO geofence_states (organization_id, device_id, geofence_id, phase, visit_id, state, next_deadline_at, updated_at)
  SELECT $1::uuid, s.*, $2::timestamptz FROM unnest($3::varchar[], $4::uuid[], $5::varchar[], $6::varchar[], $7::text[],
    $8::timestamptz[]) AS s
  ON CONFLICT (organization_id, device_id, geofence_id) DO UPDATE SET phase = excluded.phase, visit_id = excluded.visit_id,
  state = excluded.state,
  next_deadline_at = CASE WHEN geofence_states.next_deadline_at > excluded.updated_at AND geofence_states.next_deadline_at <= excluded.next_deadline_at
    THEN geofence_states.next_deadline_at ELSE excluded.next_deadline_at END,
  updated_at = excluded.updated_at;

-- geofence-state.pairs-upsert-rows[1]
-- not sent to PostgreSQL

-- geofence-state.pairs-upsert-rows[2]
-- not sent to PostgreSQL

-- geofence-state.take-seq
-- parameters: organizationId, count
INSERT INTO geofence_event_counters (organization_id, seq) VALUES ($1, $2)
         ON CONFLICT (organization_id) DO UPDATE SET seq = geofence_event_counters.seq + excluded.seq RETURNING seq;

-- geofence-state.visit-update[dwell+exit]
-- parameters: dwell, exitedAt, reason, id, organizationId
UPDATE geofence_visits SET dwell_fired = $1, exited_at = $2, exit_reason = $3 WHERE id = $4 AND organization_id = $5;

-- geofence-state.visit-update[dwell]
-- parameters: dwell, id, organizationId
UPDATE geofence_visits SET dwell_fired = $1 WHERE id = $2 AND organization_id = $3;

-- geofence-state.visit-update[exit]
-- parameters: exitedAt, reason, id, organizationId
UPDATE geofence_visits SET exited_at = $1, exit_reason = $2 WHERE id = $3 AND organization_id = $4;

-- geofences.by-id
-- parameters: id, organizationId
SELECT * FROM "geofences" WHERE "id" = $1 AND "organization_id" = $2;

-- geofences.search-count[0:-:0:0:0]
-- parameters: organizationId, deleted
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2;

-- geofences.search-count[2:2:2:1:1]
-- parameters: organizationId, deleted, b0, b1, v0, v1, f0, f1, code, name
SELECT COUNT(*) AS "total" FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2 AND "building_id" IN ($3, $4) AND "building_id" IN ($5, $6) AND "floor_id" IN ($7, $8) AND "code" = $9 AND "name_lower" LIKE $10 ESCAPE '\';

-- geofences.search-page[0:-:0:0:0:created_at:ASC]
-- parameters: organizationId, deleted, limit, offset
SELECT * FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2 ORDER BY "created_at" ASC, "id" ASC LIMIT $3 OFFSET $4;

-- geofences.search-page[2:2:2:1:1:name_lower:DESC]
-- parameters: organizationId, deleted, b0, b1, v0, v1, f0, f1, code, name, limit, offset
SELECT * FROM "geofences" WHERE "organization_id" = $1 AND "deleted" = $2 AND "building_id" IN ($3, $4) AND "building_id" IN ($5, $6) AND "floor_id" IN ($7, $8) AND "code" = $9 AND "name_lower" LIKE $10 ESCAPE '\' ORDER BY "name_lower" DESC, "id" ASC LIMIT $11 OFFSET $12;

-- heatmaps.drop-before
-- parameters: organization, before
DELETE FROM heatmap_days WHERE organization_id = $1 AND day < $2;

-- heatmaps.grid
-- parameters: cell, organization, building, floor, from, to
SELECT CAST(floor(x / $1) AS INTEGER) AS cx, CAST(floor(y / $1) AS INTEGER) AS cy, COUNT(*) AS n
  FROM position_history
  WHERE organization_id = $2 AND building_id = $3 AND floor_id = $4 AND "time" >= $5 AND "time" < $6 AND x IS NOT NULL AND y IS NOT NULL
  GROUP BY 1, 2;

-- heatmaps.keep
-- parameters: organization, floor, cellCm, day, fixes, cells, now
INSERT INTO heatmap_days (organization_id, floor_id, cell_cm, day, building_fixes, cells, computed_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (organization_id, floor_id, cell_cm, day) DO UPDATE SET building_fixes = excluded.building_fixes, cells = excluded.cells, computed_at = excluded.computed_at;

-- heatmaps.kept
-- parameters: organization, floor, cellCm, from, to
SELECT day, building_fixes, cells FROM heatmap_days WHERE organization_id = $1 AND floor_id = $2 AND cell_cm = $3 AND day >= $4 AND day < $5;

-- heatmaps.slot-sums
-- parameters: organization, building, from, to
SELECT slot, SUM(fixes) AS fixes FROM position_rollups
  WHERE organization_id = $1 AND building_id = $2 AND slot >= $3 AND slot < $4 GROUP BY slot;

-- idempotency-keys.claim
-- parameters: scope, organizationId, fingerprint, lockedUntil, now, expiresAt
INSERT INTO "idempotency_keys" ("scope_hash", "organization_id", "request_hash", "locked_until", "created_at", "expires_at")
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ("scope_hash") DO NOTHING RETURNING "scope_hash";

-- idempotency-keys.complete
-- parameters: status, response, scope
UPDATE "idempotency_keys" SET "status" = $1, "response" = $2 WHERE "scope_hash" = $3;

-- idempotency-keys.lock
-- parameters: scope
SELECT * FROM "idempotency_keys" WHERE "scope_hash" = $1 FOR UPDATE;

-- idempotency-keys.purge
-- parameters: now
DELETE FROM "idempotency_keys" WHERE "expires_at" <= $1;

-- idempotency-keys.release
-- parameters: now, scope
UPDATE "idempotency_keys" SET "locked_until" = $1 WHERE "scope_hash" = $2 AND "status" IS NULL;

-- idempotency-keys.restart
-- parameters: fingerprint, lockedUntil, now, expiresAt, scope
UPDATE "idempotency_keys" SET "request_hash" = $1, "locked_until" = $2, "wrote_at" = NULL, "status" = NULL,
         "response" = NULL, "created_at" = CASE WHEN "expires_at" <= $3 THEN $3 ELSE "created_at" END,
         "expires_at" = CASE WHEN "expires_at" <= $3 THEN $4 ELSE "expires_at" END
       WHERE "scope_hash" = $5;

-- idempotency-keys.written
-- parameters: now, scope
UPDATE "idempotency_keys" SET "wrote_at" = $1 WHERE "scope_hash" = $2;

-- image-blobs.read
-- parameters: key
SELECT "bytes" FROM "image_blobs" WHERE "image_id" = $1;

-- image-blobs.remove
-- parameters: key
DELETE FROM "image_blobs" WHERE "image_id" = $1;

-- image-blobs.write
-- parameters: key, bytes
INSERT INTO "image_blobs" ("image_id", "bytes") VALUES ($1, $2);

-- live-fences.by-ids
-- parameters: organizationId, deleted, includeDeleted, ids
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, g.geometric, r.rules FROM geofences g
           LEFT JOIN geofence_rules r ON r.geofence_id = g.id
           WHERE g.organization_id = $1 AND (g.deleted = $2 OR $3 = 1) AND g.id = ANY(CAST($4 AS uuid[]));

-- live-fences.floor-revisions[4]
-- parameters: organizationId, f0, f1, f2, f3
SELECT f."id", f."building_id", b."latitude", b."longitude", b."version" AS "building_version", COALESCE(v."revision", 0) AS "revision"
       FROM "floors" f
       JOIN "buildings" b ON b."id" = f."building_id" AND b."deleted_at" IS NULL
       LEFT JOIN "building_revisions" v ON v."building_id" = f."building_id"
       WHERE f."organization_id" = $1 AND f."deleted_at" IS NULL AND f."id" IN ($2, $3, $4, $5);

-- live-fences.of-floor
-- parameters: organizationId, deleted, floorId
SELECT g."id", g."name", g."code", g."building_id", g."floor_id", g."geometric", r."rules" FROM "geofences" g
       LEFT JOIN "geofence_rules" r ON r."geofence_id" = g."id"
       WHERE g."organization_id" = $1 AND g."deleted" = $2 AND g."floor_id" = $3;

-- live-fences.settings
-- parameters: organizationId
SELECT "rules" FROM "geofencing_settings" WHERE "organization_id" = $1;

-- live-positions.changed-since
-- parameters: organization, since
SELECT d.id, d.code, d.user_id, d.last_time AT TIME ZONE 'UTC', d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at AT TIME ZONE 'UTC', d.updated_at AT TIME ZONE 'UTC'
       FROM devices d LEFT JOIN floors f ON f.id = d.floor_id
       WHERE d.organization_id = $1 AND d.updated_at >= $2 AND d.last_time IS NOT NULL ORDER BY d.updated_at, d.id;

-- live-positions.gateway-fixes
-- parameters: organization
SELECT "device_id", "time_ms", "gateways_used" FROM "device_gateway_fixes" WHERE "organization_id" = $1;

-- live-positions.latest[0:0:0:any]
-- parameters: organization, since
SELECT d.id, d.code, d.user_id, d.last_time AT TIME ZONE 'UTC', d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at AT TIME ZONE 'UTC', d.updated_at AT TIME ZONE 'UTC' FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = $1 AND d.last_time >= $2 ORDER BY d.id;

-- live-positions.latest[2:2:2:in]
-- parameters: organization, since, b0, b1, u0, u1, d0, d1
SELECT d.id, d.code, d.user_id, d.last_time AT TIME ZONE 'UTC', d.building_id, d.floor_id, f.level_height, d.lat, d.lng, d.x, d.y, d.accuracy, d.yaw, d.created_at AT TIME ZONE 'UTC', d.updated_at AT TIME ZONE 'UTC' FROM devices d LEFT JOIN floors f ON f.id = d.floor_id WHERE d.organization_id = $1 AND d.last_time >= $2 AND d.building_id IN ($3, $4) AND d.user_id IN ($5, $6) AND d.id IN ($7, $8) AND d.floor_id IS NOT NULL ORDER BY d.id;

-- live-positions.pois[2]
-- parameters: organization, f0, f1
SELECT id, floor_id, x, y, radius FROM pois WHERE organization_id = $1 AND radius IS NOT NULL AND floor_id IN ($2, $3);

-- login-failures.count
-- parameters: now, key
UPDATE "login_failures" SET "failures" = "failures" + 1, "window_started_at" = $1 WHERE "key" = $2;

-- login-failures.count-in-window
-- parameters: key, now, windowStart
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES ($1, $2, 1)
       ON CONFLICT ("key") DO UPDATE SET
         "failures" = CASE WHEN "login_failures"."window_started_at" <= $3 THEN 1 ELSE "login_failures"."failures" + 1 END,
         "window_started_at" = CASE WHEN "login_failures"."window_started_at" <= $3 THEN $2 ELSE "login_failures"."window_started_at" END
       RETURNING "failures", "window_started_at";

-- login-failures.ensure
-- parameters: key, now
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES ($1, $2, 0) ON CONFLICT ("key") DO NOTHING;

-- login-failures.familiar
-- parameters: key, now
INSERT INTO "login_failures" ("key", "window_started_at", "failures") VALUES ($1, $2, 0)
         ON CONFLICT ("key") DO UPDATE SET "window_started_at" = $2;

-- login-failures.forget
-- parameters: first, second
DELETE FROM "login_failures" WHERE "key" IN ($1, $2);

-- login-failures.give-back
-- parameters: key
UPDATE "login_failures" SET "failures" = "failures" - 1 WHERE "key" = $1 AND "failures" > 0;

-- login-failures.lock
-- parameters: key
SELECT "failures", "window_started_at" FROM "login_failures" WHERE "key" = $1 FOR UPDATE;

-- login-failures.purge
-- parameters: dayAgo, familiarSince
DELETE FROM "login_failures" WHERE "key" IN (SELECT "key" FROM "login_failures" WHERE ("key" NOT LIKE 'known%' AND "window_started_at" < $1) OR "window_started_at" < $2 FOR UPDATE SKIP LOCKED);

-- login-failures.seen-since
-- parameters: key, since
SELECT 1 AS "one" FROM "login_failures" WHERE "key" = $1 AND "window_started_at" > $2;

-- occupancy.counts[0:0]
-- parameters: organizationId, deleted
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[0:2]
-- parameters: organizationId, deleted, f0, f1
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 AND g.floor_id IN ($3, $4) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:0]
-- parameters: organizationId, deleted, b0, b1
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 AND g.building_id IN ($3, $4) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.counts[2:2]
-- parameters: organizationId, deleted, b0, b1, f0, f1
SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE s.organization_id = $1 AND s.phase IN ('inside', 'pending_exit') AND g.deleted = $2 AND g.building_id IN ($3, $4) AND g.floor_id IN ($5, $6) GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id;

-- occupancy.occupants
-- parameters: geofenceId, organizationId
SELECT device_id, state FROM geofence_states WHERE geofence_id = $1 AND organization_id = $2 AND phase IN ('inside', 'pending_exit') ORDER BY device_id;

-- occupancy.visit-count[0:0]
-- parameters: geofenceId, organizationId
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2;

-- occupancy.visit-count[1:1]
-- parameters: geofenceId, organizationId, to, from
SELECT COUNT(*) AS total FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2 AND entered_at <= $3 AND (exited_at IS NULL OR exited_at >= $4);

-- occupancy.visits[0:0]
-- parameters: geofenceId, organizationId, limit, offset
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2 ORDER BY entered_at DESC, id LIMIT $3 OFFSET $4;

-- occupancy.visits[1:1]
-- parameters: geofenceId, organizationId, to, from, limit, offset
SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE geofence_id = $1 AND organization_id = $2 AND entered_at <= $3 AND (exited_at IS NULL OR exited_at >= $4) ORDER BY entered_at DESC, id LIMIT $5 OFFSET $6;

-- postgres-position-store.batch
-- parameters: organizationId, h_device_id, h_time, h_user_id, h_building_id, h_floor_id, h_lat, h_lng, h_x, h_y, h_accuracy, h_yaw, now, d_id, d_code, d_user_id, d_last_time, d_building_id, d_floor_id, d_lat, d_lng, d_x, d_y, d_accuracy, d_yaw
WITH history AS (
    INSERT INTO position_history (organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw)
    SELECT CAST($1 AS uuid), h.* FROM unnest(CAST($2 AS varchar[]), CAST($3 AS timestamptz[]), CAST($4 AS uuid[]),
      CAST($5 AS int[]), CAST($6 AS int[]), CAST($7 AS float8[]), CAST($8 AS float8[]), CAST($9 AS float8[]), CAST($10 AS float8[]),
      CAST($11 AS float8[]), CAST($12 AS float8[])) AS h
    ON CONFLICT DO NOTHING
  )
  INSERT INTO devices (organization_id, id, code, user_id, last_time, building_id, floor_id, lat, lng, x, y, accuracy, yaw, created_at, updated_at)
  SELECT CAST($1 AS uuid), d.*, CAST($13 AS timestamptz), CAST($13 AS timestamptz)
  FROM unnest(CAST($14 AS varchar[]), CAST($15 AS varchar[]), CAST($16 AS uuid[]), CAST($17 AS timestamptz[]), CAST($18 AS int[]),
    CAST($19 AS int[]), CAST($20 AS float8[]), CAST($21 AS float8[]), CAST($22 AS float8[]), CAST($23 AS float8[]), CAST($24 AS float8[]),
    CAST($25 AS float8[])) AS d
  ON CONFLICT (organization_id, id) DO UPDATE SET
    code = CASE WHEN excluded.code <> '' THEN excluded.code ELSE devices.code END,
    user_id = excluded.user_id, last_time = excluded.last_time, building_id = excluded.building_id, floor_id = excluded.floor_id,
    lat = excluded.lat, lng = excluded.lng, x = excluded.x, y = excluded.y, accuracy = excluded.accuracy, yaw = excluded.yaw,
    updated_at = excluded.updated_at
  WHERE devices.last_time IS NULL OR devices.last_time <= excluded.last_time;

-- postgres-position-store.newest
-- parameters: organizationId, deviceIds
SELECT id, code, user_id, CAST(extract(epoch FROM last_time) * 1000 AS double precision) AS time, building_id, floor_id, lat, lng, x, y, accuracy, yaw
  FROM devices WHERE organization_id = $1 AND id = ANY(CAST($2 AS varchar[])) AND last_time IS NOT NULL;

-- postgres-position-store.on-floor
-- parameters: organizationId, floorId, since
SELECT id, code, user_id, CAST(extract(epoch FROM last_time) * 1000 AS double precision) AS time, building_id, floor_id, lat, lng, x, y, accuracy, yaw
  FROM devices WHERE organization_id = $1 AND floor_id = $2 AND last_time >= $3;

-- postgres-position-store.partition-create[1767225600000]
CREATE TABLE IF NOT EXISTS "position_history_20260101" PARTITION OF position_history FOR VALUES FROM ('2026-01-01T00:00:00.000Z') TO ('2026-01-02T00:00:00.000Z');

-- postgres-position-store.partition-drop[1767225600000]
DROP TABLE IF EXISTS "position_history_20260101";

-- postgres-position-store.partitions
SELECT child.relname AS name FROM pg_inherits i
     JOIN pg_class child ON child.oid = i.inhrelid
     JOIN pg_class parent ON parent.oid = i.inhparent
   WHERE parent.relname = 'position_history';

-- radio-models.bump[model_revision]
-- parameters: buildingId
INSERT INTO "radio_revisions" ("building_id", "model_revision") VALUES ($1, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "model_revision" = "radio_revisions"."model_revision" + 1;

-- radio-models.bump[reference_revision]
-- parameters: buildingId
INSERT INTO "radio_revisions" ("building_id", "reference_revision") VALUES ($1, 1)
       ON CONFLICT ("building_id") DO UPDATE SET "reference_revision" = "radio_revisions"."reference_revision" + 1;

-- radio-models.insert-if-absent
-- parameters: floorId, organizationId, buildingId, scans, statistics, createdAt, updatedAt
INSERT INTO "radio_models" ("floor_id", "organization_id", "building_id", "version", "scans", "statistics", "created_at", "updated_at")
       VALUES ($1, $2, $3, 1, $4, $5, $6, $7)
       ON CONFLICT ("floor_id") DO NOTHING RETURNING "floor_id";

-- report-fences.fence-building
-- parameters: organizationId, id, deleted
SELECT building_id FROM geofences WHERE organization_id = $1 AND id = $2 AND deleted = $3;

-- report-fences.fences[0:0]
-- parameters: organizationId
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 ORDER BY id;

-- report-fences.fences[0:2]
-- parameters: organizationId, g0, g1
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 AND id IN ($2, $3) ORDER BY id;

-- report-fences.fences[2:0]
-- parameters: organizationId, b0, b1
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 AND building_id IN ($2, $3) ORDER BY id;

-- report-fences.fences[2:2]
-- parameters: organizationId, b0, b1, g0, g1
SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE organization_id = $1 AND building_id IN ($2, $3) AND id IN ($4, $5) ORDER BY id;

-- report-fences.live-buildings[2]
-- parameters: organizationId, b0, b1
SELECT id FROM buildings WHERE organization_id = $1 AND deleted_at IS NULL AND id IN ($2, $3);

-- report-visits.first-page
-- parameters: fenceId, organizationId, from, to, limit
SELECT id, geofence_id, device_id, user_id, CAST(extract(epoch FROM entered_at) * 1000 AS double precision) AS entered_ms, CAST(extract(epoch FROM exited_at) * 1000 AS double precision) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = $1 AND organization_id = $2 AND entered_at >= $3 AND entered_at < $4
      ORDER BY entered_at, id LIMIT $5;

-- report-visits.next-page
-- parameters: fenceId, organizationId, afterAt, to, afterId, limit
SELECT id, geofence_id, device_id, user_id, CAST(extract(epoch FROM entered_at) * 1000 AS double precision) AS entered_ms, CAST(extract(epoch FROM exited_at) * 1000 AS double precision) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = $1 AND organization_id = $2 AND entered_at >= $3 AND entered_at < $4
        AND (entered_at > $3 OR id > $5)
      ORDER BY entered_at, id LIMIT $6;

-- report-visits.under-way-at-start
-- parameters: fenceId, organizationId, from
SELECT id, geofence_id, device_id, user_id, CAST(extract(epoch FROM entered_at) * 1000 AS double precision) AS entered_ms, CAST(extract(epoch FROM exited_at) * 1000 AS double precision) AS exited_ms, exit_reason FROM geofence_visits
      WHERE geofence_id = $1 AND organization_id = $2 AND entered_at < $3 AND (exited_at >= $3 OR exited_at IS NULL);

-- rollup-store.delete-batch
-- not sent to PostgreSQL

-- rollup-store.delete-before
-- parameters: cutoff
DELETE FROM position_rollups WHERE slot < $1;

-- rollup-store.neighbours
-- parameters: deviceIds, firsts, lasts, organizationId, from, to
SELECT w.device_id, h."time", h.building_id
  FROM unnest($1::varchar[], $2::timestamptz[], $3::timestamptz[]) AS w(device_id, lo, hi)
  CROSS JOIN LATERAL (
    SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = $4::uuid AND p.device_id = w.device_id AND p."time" >= w.lo AND p."time" <= w.hi AND p."time" >= $5::timestamptz AND p."time" <= $6::timestamptz
    UNION ALL
    (SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = $4::uuid AND p.device_id = w.device_id AND p."time" < w.lo AND p."time" >= w.lo - interval '60 seconds' AND p."time" >= $5::timestamptz
      ORDER BY p."time" DESC LIMIT 1)
    UNION ALL
    (SELECT p."time", p.building_id FROM position_history p
      WHERE p.organization_id = $4::uuid AND p.device_id = w.device_id AND p."time" > w.hi AND p."time" <= w.hi + interval '60 seconds' AND p."time" <= $6::timestamptz
      ORDER BY p."time" ASC LIMIT 1)
  ) h
  ORDER BY w.device_id, h."time";

-- rollup-store.neighbours-sqlite
-- not sent to PostgreSQL

-- rollup-store.upsert
-- parameters: organizationId, buildingIds, deviceIds, slots, fixes, firstMs, lastMs, positionedMs
INSERT INTO position_rollups (organization_id, building_id, device_id, slot, fixes, first_ms, last_ms, positioned_ms)
  SELECT $1::uuid, r.* FROM unnest($2::int[], $3::varchar[], $4::bigint[], $5::int[], $6::bigint[], $7::bigint[],
    $8::bigint[]) AS r
  ON CONFLICT (organization_id, building_id, slot, device_id) DO UPDATE SET
    fixes = position_rollups.fixes + excluded.fixes,
    positioned_ms = position_rollups.positioned_ms + excluded.positioned_ms,
    first_ms = CASE WHEN excluded.first_ms IS NULL OR position_rollups.first_ms <= excluded.first_ms THEN position_rollups.first_ms ELSE excluded.first_ms END,
    last_ms = CASE WHEN excluded.last_ms IS NULL OR position_rollups.last_ms >= excluded.last_ms THEN position_rollups.last_ms ELSE excluded.last_ms END;

-- rollup-store.upsert-rows[1]
-- not sent to PostgreSQL

-- rollup-store.upsert-rows[2]
-- not sent to PostgreSQL

-- sqlite-position-store.history-delete
-- not sent to PostgreSQL

-- sqlite-position-store.history-insert[1]
-- not sent to PostgreSQL

-- sqlite-position-store.history-insert[2]
-- not sent to PostgreSQL

-- sqlite-position-store.new-code
-- not sent to PostgreSQL

-- sqlite-position-store.new-device
-- not sent to PostgreSQL

-- sqlite-position-store.newest-fix
-- not sent to PostgreSQL

-- sqlite-position-store.newest[1]
-- not sent to PostgreSQL

-- sqlite-position-store.newest[2]
-- not sent to PostgreSQL

-- sqlite-position-store.on-floor
-- not sent to PostgreSQL

-- sqlite-position-store.organizations
-- not sent to PostgreSQL

-- sqlite-position-store.reconcile
-- not sent to PostgreSQL

-- stream-leases.count
-- parameters: organizationId
SELECT COUNT(*) AS open FROM stream_leases WHERE organization_id = $1;

-- stream-leases.delete
-- parameters: id
DELETE FROM stream_leases WHERE id = $1;

-- stream-leases.delete-all
DELETE FROM stream_leases;

-- stream-leases.delete-instance
-- parameters: instanceId
DELETE FROM stream_leases WHERE instance_id = $1;

-- stream-leases.insert
-- parameters: lease, organizationId, kind, instanceId, expiresAt
INSERT INTO stream_leases (id, organization_id, kind, instance_id, expires_at) VALUES ($1, $2, $3, $4, $5);

-- stream-leases.purge-expired
-- parameters: organizationId, now
DELETE FROM stream_leases WHERE organization_id = $1 AND expires_at <= $2;

-- stream-leases.renew
-- parameters: expiresAt, instanceId
UPDATE stream_leases SET expires_at = $1 WHERE instance_id = $2;

-- stream-tickets.issue
-- parameters: hash, organizationId, userId, principal, expiresAt
INSERT INTO stream_tickets (ticket_hash, organization_id, user_id, principal, expires_at) VALUES ($1, $2, $3, $4, $5);

-- stream-tickets.sweep
-- parameters: now
DELETE FROM stream_tickets WHERE expires_at < $1;

-- stream-tickets.take
-- parameters: hash, now
DELETE FROM stream_tickets WHERE ticket_hash = $1 AND expires_at > $2 RETURNING principal;

-- tag-observations.insert
-- parameters: organizationId, deviceId, gatewayId, time, receivedMs, rssi, txPower, raw, dedupKey
INSERT INTO "gateway_observations" ("organization_id", "device_id", "gateway_id", "time", "received_ms", "rssi", "tx_power", "raw", "dedup_key")
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
   ON CONFLICT DO NOTHING RETURNING "id";

-- tag-observations.remove-device
-- parameters: organizationId, deviceId
DELETE FROM "gateway_observations" WHERE "organization_id" = $1 AND "device_id" = $2;

-- tag-observations.remove-gateway
-- parameters: gatewayId
DELETE FROM "gateway_observations" WHERE "gateway_id" = $1;

-- tag-observations.window
-- parameters: organizationId, deviceId, from, to
SELECT "device_id", "gateway_id", "time", "rssi", "tx_power" FROM "gateway_observations"
   WHERE "organization_id" = $1 AND "device_id" = $2 AND "time" >= $3 AND "time" < $4 ORDER BY "time", "id";

-- tag-windows.claim
-- parameters: windowId, organizationId, deviceId, from, to, lastId
UPDATE "gateway_observations" SET "window_id" = $1
   WHERE "organization_id" = $2 AND "device_id" = $3 AND "window_id" IS NULL AND "time" >= $4 AND "time" < $5 AND "id" <= $6
   RETURNING "id";

-- tag-windows.due
-- parameters: before, limit
SELECT "organization_id", "device_id", MIN("time") AS "first" FROM "gateway_observations"
   WHERE "window_id" IS NULL GROUP BY "organization_id", "device_id" HAVING MIN("time") < $1 ORDER BY MIN("time") LIMIT $2;

-- tag-windows.record-fix
-- parameters: organizationId, deviceId, timeMs, windowId, gatewaysUsed
INSERT INTO "device_gateway_fixes" ("organization_id", "device_id", "time_ms", "window_id", "gateways_used") VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT ("organization_id", "device_id") DO UPDATE SET "time_ms" = excluded."time_ms", "window_id" = excluded."window_id", "gateways_used" = excluded."gateways_used"
   WHERE excluded."time_ms" >= "device_gateway_fixes"."time_ms";

-- tag-windows.remove-old
-- parameters: before
DELETE FROM "gateway_observations" WHERE "received_ms" < $1;

-- tag-windows.tag-user
-- parameters: organizationId
SELECT "id" FROM "users" WHERE "organization_id" = $1 ORDER BY CASE WHEN "role" = 'ADMIN_ORG' THEN 0 ELSE 1 END, "created_at", "id" LIMIT 1;

-- tag-windows.unclaimed
-- parameters: organizationId, deviceId, from, to
SELECT o."id", o."gateway_id", g."hardware_id", g."building_id", g."floor_id", f."level", f."level_height", g."x", g."y", o."rssi", o."tx_power", o."time"
   FROM "gateway_observations" o JOIN "gateways" g ON g."id" = o."gateway_id" JOIN "floors" f ON f."id" = g."floor_id"
   WHERE o."organization_id" = $1 AND o."device_id" = $2 AND o."window_id" IS NULL AND o."time" >= $3 AND o."time" < $4
   ORDER BY o."time", o."id";

-- transmitter-sites.bump
-- parameters: buildingId
INSERT INTO "infrastructure_revisions" ("building_id", "revision") VALUES ($1, 1)
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
       WHERE b."organization_id" = $1 AND b."deleted_at" IS NULL AND b."id" IN ($2, $3);

-- user-positions.building-instant
-- parameters: organization, building, cursor
SELECT device_id, user_id, CAST(date_part('epoch', "time") * 1000 AS bigint), floor_id, lat, lng FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" = $3 ORDER BY device_id;

-- user-positions.building-page[5000]
-- parameters: organization, building, cursor, to
SELECT device_id, user_id, CAST(date_part('epoch', "time") * 1000 AS bigint), floor_id, lat, lng FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" >= $3 AND "time" < $4 ORDER BY "time", device_id LIMIT 5000;

-- user-positions.building-track-count[0,0,0]
-- parameters: organization, building, from, to, limit
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" >= $3 AND "time" < $4 LIMIT $5) capped;

-- user-positions.building-track-count[1,1,1]
-- parameters: organization, building, from, to, device, user, floor, limit
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = $1 AND building_id = $2 AND "time" >= $3 AND "time" < $4 AND device_id = $5 AND user_id = $6 AND floor_id = $7 LIMIT $8) capped;

-- user-positions.device-track-count
-- parameters: organization, device, from, to, limit
SELECT COUNT(*) AS n FROM (SELECT 1 FROM position_history WHERE organization_id = $1 AND device_id = $2 AND "time" >= $3 AND "time" < $4 LIMIT $5) capped;

-- user-positions.device-track-page[5000]
-- parameters: organization, device, cursor, to
SELECT user_id, CAST(date_part('epoch', "time") * 1000 AS bigint), floor_id, lat, lng, building_id FROM position_history
     WHERE organization_id = $1 AND device_id = $2 AND "time" >= $3 AND "time" < $4 ORDER BY "time" LIMIT 5000;

-- user-positions.elsewhere
-- parameters: organization, building, after, until
SELECT device_id, CAST(date_part('epoch', "time") * 1000 AS bigint), building_id FROM position_history WHERE organization_id = $1 AND building_id < $2 AND "time" >= $3 AND "time" < $4 UNION ALL SELECT device_id, CAST(date_part('epoch', "time") * 1000 AS bigint), building_id FROM position_history WHERE organization_id = $1 AND building_id > $2 AND "time" >= $3 AND "time" < $4 UNION ALL SELECT device_id, CAST(date_part('epoch', "time") * 1000 AS bigint), building_id FROM position_history WHERE organization_id = $1 AND building_id IS NULL AND "time" >= $3 AND "time" < $4 ORDER BY 2;

-- users.list-count[0:0:0:0:0:-:0:0]
-- parameters: organizationId
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = $1;

-- users.list-count[1:2:2:2:2:with:1:2]
-- parameters: organizationId, self, i0, i1, x0, x1, g0, g1, b0, b1, fullName, c0, c1
SELECT COUNT(*) AS "total" FROM "users" "u" WHERE "u"."organization_id" = $1 AND "u"."id" = $2 AND "u"."id" IN ($3, $4) AND "u"."id" NOT IN ($5, $6) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN ($7, $8)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN ($9, $10)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE $11 ESCAPE '\' AND "u"."code" IN ($12, $13);

-- users.list-page[0:0:0:0:0:-:0:0:created_at:ASC]
-- parameters: organizationId, limit, offset
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = $1 ORDER BY "u"."created_at" ASC NULLS LAST, "u"."id" ASC LIMIT $2 OFFSET $3;

-- users.list-page[0:0:0:0:0:without:0:0:full_name:ASC]
-- parameters: organizationId, limit, offset
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = $1 AND NOT EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") ORDER BY "u"."full_name" ASC NULLS LAST, "u"."id" ASC LIMIT $2 OFFSET $3;

-- users.list-page[1:2:2:2:2:with:1:2:last_activity:DESC]
-- parameters: organizationId, self, i0, i1, x0, x1, g0, g1, b0, b1, fullName, c0, c1, limit, offset
SELECT "u".* FROM "users" "u" WHERE "u"."organization_id" = $1 AND "u"."id" = $2 AND "u"."id" IN ($3, $4) AND "u"."id" NOT IN ($5, $6) AND "u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN ($7, $8)) AND "u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN ($9, $10)) AND EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id") AND "u"."full_name_lower" LIKE $11 ESCAPE '\' AND "u"."code" IN ($12, $13) ORDER BY "u"."last_activity" DESC NULLS LAST, "u"."id" ASC LIMIT $14 OFFSET $15;

-- worker-heartbeats.beat
-- parameters: instance, now
INSERT INTO worker_heartbeats (instance, heartbeat_at) VALUES ($1, $2)
  ON CONFLICT (instance) DO UPDATE SET heartbeat_at = excluded.heartbeat_at;

-- worker-heartbeats.dead
-- parameters: staleBefore
SELECT instance FROM worker_heartbeats WHERE heartbeat_at < $1;

-- worker-heartbeats.forget
-- parameters: instance
DELETE FROM worker_heartbeats WHERE instance = $1;

-- worker-heartbeats.forget-dead
-- parameters: staleBefore
DELETE FROM worker_heartbeats WHERE heartbeat_at < $1;

-- worker-heartbeats.release-all
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE status IN ('pending', 'failed') AND lease_owner IS NOT NULL;

-- worker-heartbeats.release-dead
-- parameters: staleBefore
UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL
  WHERE status IN ('pending', 'failed') AND lease_owner IN (SELECT instance FROM worker_heartbeats WHERE heartbeat_at < $1)
  RETURNING id;
