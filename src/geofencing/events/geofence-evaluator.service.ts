import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { countGeofenceEvents } from '../../common/metrics/operations.metrics';
import { Notifications } from '../../database/notifications';
import { TransactionRunner } from '../../database/transactions';
import { WebhookDeliveriesService } from '../../delivery/webhooks/webhook-deliveries.service';
import { ambientTransaction } from '../../database/ambient-transaction';
import { PreparedQueries } from '../../database/prepared-queries';
import { GeofenceChange, GeofenceChangeHooks } from '../../geofences/geofence-change-hooks';
import { Dialect, memoized, namedList, timestampParameter, valuesList } from '../../positions/position-sql';
import { LatLng, ProjectedRing, projectRing, signedDistance } from '../engine/classify';
import { effectiveRules, GeofenceRules } from '../engine/rules';
import { couldStartVisit, FixPosition, initialVisitState, nextDeadline, Observation, onDeadline, onFenceChanged, onFenceCreated, onFix, Transition, VisitEvent, VisitState } from '../engine/visit-state';
import { FloorIndexes, FloorOfCaller, IndexedFence } from '../queries/floor-indexes';
import { EventFence, eventBody, GeofenceEventBody, newEventId, newVisitId } from './geofence-event';

/** An accepted fix as the evaluator needs it (ingest hands them ordered by device, then time). */
export interface EvaluableFix {
  deviceId: string;
  userId: string | null;
  time: number;
  floorId: number | null;
  lat: number;
  lng: number;
  accuracy: number | null;
}

/** The channel told, after commit, that an organization's event log grew (streams listen to it). */
export const GEOFENCE_EVENTS_CHANNEL = 'geofencing_events';

export interface StoredState {
  deviceId: string;
  fenceId: string;
  state: VisitState;
  userId: string | null;
  /** false: no row yet. */
  stored: boolean;
  dirty: boolean;
}

/** A live fence with its effective rules: from a floor index (projected ring) or read from the database (stored ring). */
export interface LiveFence extends EventFence {
  rules: GeofenceRules;
  ring?: LatLng[];
  /** The ring in its floor index's projection (fences that come from an index). */
  projected?: ProjectedRing;
}

/** A fence read from the database: its stored ring is there. */
export interface StoredFence extends LiveFence {
  ring: LatLng[];
}

/** The fences each fix matched: fix i's are `fences[start[i]]` to `fences[start[i + 1] - 1]`, with their signed distances. */
export interface BatchMatches {
  fences: IndexedFence[];
  distances: number[];
  start: number[];
}

/**
 * What the floor index of each fix's floor matches (7.1: inside or possibly_inside), in flat
 * arrays (no object per match). `keep` drops fences; `accuracyFactor` replaces the fences' own.
 */
export function collectMatches(
  fixes: readonly EvaluableFix[],
  indexes: ReadonlyMap<number, FloorOfCaller>,
  options: { keep?: (fence: IndexedFence) => boolean; accuracyFactor?: number } = {},
): BatchMatches {
  const matches: BatchMatches = { fences: [], distances: [], start: [0] };
  for (const fix of fixes) {
    const floor = fix.floorId === null ? undefined : indexes.get(fix.floorId);
    if (floor) {
      const from = matches.fences.length;
      floor.index.collect(fix.lat, fix.lng, fix.accuracy, matches.fences, matches.distances, options.accuracyFactor);
      if (options.keep) {
        let kept = from;
        for (let at = from; at < matches.fences.length; at++) {
          if (!options.keep(matches.fences[at])) continue;
          matches.fences[kept] = matches.fences[at];
          matches.distances[kept++] = matches.distances[at];
        }
        matches.fences.length = kept;
        matches.distances.length = kept;
      }
    }
    matches.start.push(matches.fences.length);
  }
  return matches;
}

export interface PendingEvent {
  event: VisitEvent;
  fence: LiveFence;
  deviceId: string;
  userId: string | null;
}

interface FenceRow {
  id: string;
  name: string;
  code: string;
  building_id: number | string;
  floor_id: number | string;
  geometric: string | LatLng[];
  rules: string | Partial<GeofenceRules> | null;
}

/**
 * A stored deadline still to come that is no later than the new one is kept: the timer then wakes
 * early, finds nothing due and moves it on (`fireDueDeadlines` writes every state it read, and a
 * due deadline is never kept), so no event fires late. Without it, every fix of a device inside a
 * fence moved its stale-timeout deadline, an indexed value: on PostgreSQL no state update could be
 * HOT (a new entry in each of the table's indexes per fix).
 */
const STATES_UPSERT_TAIL = `ON CONFLICT (organization_id, device_id, geofence_id) DO UPDATE SET phase = excluded.phase, visit_id = excluded.visit_id,
  state = excluded.state,
  next_deadline_at = CASE WHEN geofence_states.next_deadline_at > excluded.updated_at AND geofence_states.next_deadline_at <= excluded.next_deadline_at
    THEN geofence_states.next_deadline_at ELSE excluded.next_deadline_at END,
  updated_at = excluded.updated_at`;
/** $1 organization, $2..$7 the columns from device_id to next_deadline_at as arrays, $8 now. */
const POSTGRES_STATES_UPSERT = `INSERT INTO geofence_states (organization_id, device_id, geofence_id, phase, visit_id, state, next_deadline_at, updated_at)
  SELECT $1::uuid, s.*, $8::timestamptz FROM unnest($2::varchar[], $3::uuid[], $4::varchar[], $5::varchar[], $6::text[], $7::timestamptz[]) AS s
  ${STATES_UPSERT_TAIL}`;

const parsedJson = <T>(value: string | T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const SQL_CHUNK = 500;
const pairKey = (deviceId: string, fenceId: string) => `${deviceId}\u0000${fenceId}`;

/**
 * The stateful half of contract 7.2: runs the visit state machine of every (device, fence)
 * pair a batch of fixes touches, and writes the states, visits, events (with their
 * per-organization seq) and webhook outbox rows in the caller's transaction.
 */
@Injectable()
export class GeofenceEvaluator implements OnModuleInit {
  private readonly dialect: Dialect;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly floors: FloorIndexes,
    private readonly transactions: TransactionRunner,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly notifications: Notifications,
    private readonly changeHooks: GeofenceChangeHooks,
    private readonly queries: PreparedQueries,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  onModuleInit(): void {
    this.changeHooks.register((manager, change) => this.onFenceChanged(manager, change));
  }

  /**
   * A fence's geometry or floor changed, or it was deleted (in that write's transaction):
   * its occupants exit with the reason, pending enters drop, and a deleted fence's state
   * rows go. The devices are locked as ingest locks them, then their rows read again.
   */
  async onFenceChanged(manager: EntityManager, change: GeofenceChange): Promise<GeofenceEventBody[]> {
    if (change.reason === 'fence_created') return this.onFenceCreated(manager, change);
    const { organizationId, geofenceId, reason, at } = change;
    const fences = await this.loadFences(manager, organizationId, [geofenceId], true);
    if (!fences.has(geofenceId)) return [];
    // A deleted fence keeps no states: written against no fence, they are removed.
    return this.endVisits(manager, organizationId, fences, reason, at, reason === 'fence_deleted' ? new Map() : fences);
  }

  /**
   * After a rules or settings write (in its transaction): the deadlines of the fences' states
   * were computed under the old rules, and a stored deadline is only ever the time the timer must
   * look at a pair next (see STATES_UPSERT_TAIL). Each one still to come is brought forward to
   * `now`, so the timer recomputes it under the new rules at once: a shorter stale timeout or exit
   * grace then fires at its own time (dated as the new rules say), not when the old one would have.
   * `geofenceIds` null: every fence of the organization (a settings write).
   */
  async reviewDeadlines(manager: EntityManager, organizationId: string, geofenceIds: readonly string[] | null, now: number): Promise<void> {
    await manager.query(
      ...this.transactions.escape(
        `UPDATE geofence_states SET next_deadline_at = :now WHERE organization_id = :organizationId AND next_deadline_at > :now${geofenceIds === null ? '' : ' AND geofence_id IN (:...geofenceIds)'}`,
        { organizationId, now: this.stamp(now), geofenceIds: geofenceIds ?? [] },
      ),
    );
  }

  /**
   * After a rules or settings write (in its transaction): the open visits and pending enters of
   * the fences whose effective rules now say `enabled: false` end as an edit of the fence ends
   * them (exit with reason `fence_changed`, dated `at`). `geofenceIds` null: every fence of the
   * organization that has states (a settings write).
   */
  async endVisitsOfDisabledFences(manager: EntityManager, organizationId: string, geofenceIds: readonly string[] | null, at: number): Promise<GeofenceEventBody[]> {
    const held = (await manager.query(
      ...this.transactions.escape(
        `SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = :organizationId${geofenceIds === null ? '' : ' AND geofence_id IN (:...geofenceIds)'}`,
        { organizationId, geofenceIds: geofenceIds ?? [] },
      ),
    )) as Array<{ geofence_id: string }>;
    if (held.length === 0) return [];
    const fences = await this.loadFences(
      manager,
      organizationId,
      held.map((row) => row.geofence_id),
    );
    const disabled = [...fences.values()].filter((fence) => !fence.rules.enabled);
    if (disabled.length === 0) return [];
    return this.endVisits(manager, organizationId, new Map(disabled.map((fence) => [fence.id, fence])), 'fence_changed', at, fences);
  }

  /**
   * Every state of `ending`'s fences goes through onFenceChanged (occupants exit with the
   * reason, pending enters drop), under the devices' lock; written against `live`.
   */
  private async endVisits(
    manager: EntityManager,
    organizationId: string,
    ending: ReadonlyMap<string, LiveFence>,
    reason: 'fence_changed' | 'fence_deleted',
    at: number,
    live: ReadonlyMap<string, LiveFence>,
  ): Promise<GeofenceEventBody[]> {
    const fenceIds = [...ending.keys()];
    const holders = new Set<string>();
    for (let start = 0; start < fenceIds.length; start += SQL_CHUNK) {
      const rows = (await manager.query(
        ...this.transactions.escape('SELECT device_id FROM geofence_states WHERE organization_id = :organizationId AND geofence_id IN (:...fenceIds)', {
          organizationId,
          fenceIds: fenceIds.slice(start, start + SQL_CHUNK),
        }),
      )) as Array<{ device_id: string }>;
      for (const row of rows) holders.add(row.device_id);
    }
    if (holders.size === 0) return [];
    const deviceIds = [...holders].sort();
    await this.lockDevices(manager, organizationId, deviceIds);
    // Read after the lock: an ingest that ran first may have moved these states on.
    const states = [...(await this.loadStates(manager, organizationId, deviceIds)).values()].filter((stored) => ending.has(stored.fenceId));
    const pending: PendingEvent[] = [];
    for (const stored of states) {
      const fence = ending.get(stored.fenceId)!;
      const transition = onFenceChanged(stored.state, at, reason, { rules: fence.rules, newVisitId });
      stored.state = transition.state;
      stored.dirty = true;
      for (const event of transition.events) pending.push({ event, fence, deviceId: stored.deviceId, userId: stored.userId });
    }
    pending.sort((x, y) => (x.deviceId === y.deviceId ? x.event.occurredAt - y.event.occurredAt : x.deviceId < y.deviceId ? -1 : 1));
    return this.writeOutcome(manager, organizationId, states, live, pending, at);
  }

  /**
   * Holds the devices' evaluation lock until the transaction ends, so two batches of one
   * device on two instances take turns (PostgreSQL; SQLite runs one transaction at a time).
   * Keys are taken in sorted order, so batches sharing devices cannot deadlock.
   */
  async lockDevices(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<void> {
    if (this.dialect !== 'postgres' || deviceIds.length === 0) return;
    await manager.query(
      `SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended($1::text || ':' || d, 7) AS k FROM unnest($2::text[]) AS d ORDER BY 1) AS keys`,
      [organizationId, [...deviceIds]],
    );
  }

  /**
   * Contract 7.2 at ingest: each fix, in order, against the live fences of its floor and the
   * fences the device already has a state with. Late fixes and fixes over `max_accuracy_m`
   * drive nothing (the engine decides). Call it inside the transaction that stores the
   * fixes, after `lockDevices`. `lastEvaluated`: each device's last evaluated fix time, read
   * before the batch stored its own (a fix older than it is late for every fence, also one the
   * device has no state row with). Returns the events fired, in seq order.
   */
  async evaluateFixes(
    manager: EntityManager,
    organizationId: string,
    fixes: readonly EvaluableFix[],
    detectedAt = Date.now(),
    lastEvaluated: ReadonlyMap<string, number> = new Map(),
  ): Promise<GeofenceEventBody[]> {
    if (fixes.length === 0) return [];
    const deviceIds = [...new Set(fixes.map((fix) => fix.deviceId))];
    const states = await this.loadStates(manager, organizationId, deviceIds);
    const floorIds = new Set<number>();
    for (const fix of fixes) if (fix.floorId !== null) floorIds.add(fix.floorId);
    // And the floors of the devices' state fences (a device that changed floors still has
    // states on its previous one), so their fences come from those indexes too.
    for (const stored of states.values()) {
      const floorId = this.floors.cachedFloorOf(stored.fenceId);
      if (floorId !== undefined) floorIds.add(floorId);
    }
    const indexes = floorIds.size === 0 ? new Map<number, FloorOfCaller>() : await this.floors.forFloors(organizationId, [...floorIds]);

    const matches = collectMatches(fixes, indexes);
    // The fences come from the floor indexes (current as of the building's revision): no fence
    // rows are read for them. Only a state's fence no cached index holds is read.
    const fences = new Map<string, LiveFence>();
    for (const fence of matches.fences) fences.set(fence.id, fence);
    const unindexed = new Set<string>();
    for (const stored of states.values()) {
      if (fences.has(stored.fenceId)) continue;
      let indexed: IndexedFence | undefined;
      for (const floor of indexes.values()) if ((indexed = floor.fences.get(stored.fenceId))) break;
      if (indexed) fences.set(indexed.id, indexed);
      else unindexed.add(stored.fenceId);
    }
    if (fences.size === 0 && unindexed.size === 0) return [];
    if (unindexed.size > 0) for (const [id, fence] of await this.loadFences(manager, organizationId, [...unindexed])) fences.set(id, fence);

    const pending = this.drive(fixes, states, fences, indexes, matches, lastEvaluated);
    return this.writeOutcome(manager, organizationId, [...states.values()], fences, pending, detectedAt);
  }

  /**
   * A new fence (7.2): each device whose latest fix is on its floor and not stale is seen
   * against it. Inside without `initial_trigger`, the device is left unarmed (no enter until
   * it has been out); with it, the device enters now with reason `fence_created`.
   */
  private async onFenceCreated(manager: EntityManager, change: GeofenceChange): Promise<GeofenceEventBody[]> {
    const { organizationId, geofenceId, at } = change;
    const fences = await this.loadFences(manager, organizationId, [geofenceId]);
    const fence = fences.get(geofenceId);
    if (!fence || !fence.rules.enabled) return [];
    const devices = (await manager.query(
      ...this.transactions.escape(
        'SELECT id, user_id, last_time, lat, lng, accuracy FROM devices WHERE organization_id = :organizationId AND floor_id = :floorId AND last_time >= :since',
        { organizationId, floorId: fence.floorId, since: this.stamp(at - fence.rules.stale_after_seconds * 1000) },
      ),
    )) as Array<{ id: string; user_id: string | null; last_time: string | Date; lat: number; lng: number; accuracy: number | null }>;
    if (devices.length === 0) return [];
    const floor = (await this.floors.forFloors(organizationId, [fence.floorId])).get(fence.floorId);
    if (!floor) return [];
    const { projection } = floor.index;
    const ring = projectRing(fence.ring, projection);
    const states: StoredState[] = [];
    const pending: PendingEvent[] = [];
    await this.lockDevices(
      manager,
      organizationId,
      devices.map((device) => device.id),
    );
    for (const device of devices) {
      const lat = Number(device.lat);
      const lng = Number(device.lng);
      const accuracy = device.accuracy === null ? null : Number(device.accuracy);
      const time = typeof device.last_time === 'string' ? Date.parse(`${device.last_time.replace(' ', 'T')}Z`) : device.last_time.getTime();
      const observation: Observation = { time, distance: signedDistance(ring, projection.x(lng), projection.y(lat)), accuracy, position: { lat, lng, accuracy, time, poi_id: null } };
      const transition = onFenceCreated(observation, at, { rules: fence.rules, newVisitId });
      if (transition.state.armed && transition.state.phase === 'outside') continue;
      states.push({ deviceId: device.id, fenceId: geofenceId, state: transition.state, userId: device.user_id, stored: false, dirty: true });
      for (const event of transition.events) pending.push({ event, fence, deviceId: device.id, userId: device.user_id });
    }
    return this.writeOutcome(manager, organizationId, states, fences, pending, at);
  }

  /**
   * The timer (contract 7.2): every state whose deadline is due fires what is due up to
   * `now`, each event at its own time (so after a restart, overdue deadlines keep their
   * original times). At most `limit` due states per call (with every state of their
   * devices); answers how many it took, so the caller goes on while a call comes back full.
   * Call it in a transaction.
   */
  async fireDueDeadlines(manager: EntityManager, now: number, limit: number): Promise<number> {
    const due = (await manager.query(
      ...this.transactions.escape(
        'SELECT organization_id, device_id FROM geofence_states WHERE next_deadline_at <= :now ORDER BY next_deadline_at LIMIT :limit',
        { now: this.stamp(now), limit },
      ),
    )) as Array<{ organization_id: string; device_id: string }>;
    const byOrganization = new Map<string, string[]>();
    for (const row of due) {
      const devices = byOrganization.get(row.organization_id) ?? [];
      if (!devices.includes(row.device_id)) devices.push(row.device_id);
      byOrganization.set(row.organization_id, devices);
    }
    for (const [organizationId, deviceIds] of byOrganization) {
      await this.lockDevices(manager, organizationId, deviceIds);
      // Read after the lock: an ingest that ran first may have moved these states on.
      const states = [...(await this.loadStates(manager, organizationId, deviceIds)).values()];
      const fences = await this.loadFences(manager, organizationId, [...new Set(states.map((stored) => stored.fenceId))]);
      const pending: PendingEvent[] = [];
      for (const stored of states.sort((x, y) => (x.deviceId < y.deviceId ? -1 : x.deviceId > y.deviceId ? 1 : 0))) {
        const fence = fences.get(stored.fenceId);
        if (!fence) {
          stored.dirty = true;
          continue;
        }
        // Rewritten even when nothing is due any more (rules changed since): its stored deadline is then moved on, not found due again.
        stored.dirty = true;
        const deadline = nextDeadline(stored.state, fence.rules);
        if (deadline === null || deadline > now) continue;
        const transition = onDeadline(stored.state, now, { rules: fence.rules, newVisitId });
        stored.state = transition.state;
        stored.dirty = true;
        for (const event of transition.events) pending.push({ event, fence, deviceId: stored.deviceId, userId: stored.userId });
      }
      // A device's events in time order across its fences.
      pending.sort((x, y) => (x.deviceId === y.deviceId ? x.event.occurredAt - y.event.occurredAt : x.deviceId < y.deviceId ? -1 : 1));
      await this.writeOutcome(manager, organizationId, states, fences, pending, now);
    }
    return due.length;
  }

  /**
   * The state machine over fixes ordered by device and time: updates `states` (marking the
   * pairs it touched) and answers the events, each device's in time order. Touches no
   * database, so `simulate` runs it too.
   */
  drive(
    fixes: readonly EvaluableFix[],
    states: Map<string, StoredState>,
    fences: ReadonlyMap<string, LiveFence>,
    indexes: ReadonlyMap<number, FloorOfCaller>,
    matches: BatchMatches,
    /** Each device's last evaluated fix before these: older fixes are late and drive nothing. */
    lastEvaluated: ReadonlyMap<string, number> = new Map(),
  ): PendingEvent[] {
    // Each device's candidate fences, in the order they became candidates (its states, then
    // what its fixes matched), with the pair's state (null: none yet).
    const byDevice = new Map<string, Map<string, StoredState | null>>();
    for (const stored of states.values()) {
      if (!fences.has(stored.fenceId)) {
        // Its fence is gone (deleted outside the exits' path): nothing can happen to it any more.
        stored.dirty = true;
        stored.state = initialVisitState();
        continue;
      }
      let candidates = byDevice.get(stored.deviceId);
      if (!candidates) byDevice.set(stored.deviceId, (candidates = new Map()));
      candidates.set(stored.fenceId, stored);
    }

    const rings = new Map<string, ProjectedRing>();
    const pending: PendingEvent[] = [];
    /** The distances of the current fix's matches, by fence id (one Map, cleared per fix). */
    const matched = new Map<string, number>();
    let deviceStart = 0;
    let candidates = new Map<string, StoredState | null>();
    let lateBefore = -Infinity;
    for (let position = 0; position < fixes.length; position++) {
      const fix = fixes[position];
      if (position === 0 || fixes[position - 1].deviceId !== fix.deviceId) {
        if (position > 0) {
          sortByTime(pending, deviceStart);
          deviceStart = pending.length;
        }
        const known = byDevice.get(fix.deviceId);
        if (known) candidates = known;
        else byDevice.set(fix.deviceId, (candidates = new Map()));
        lateBefore = lastEvaluated.get(fix.deviceId) ?? -Infinity;
      }
      // Late for the device (7.2): stored, but it drives no pair, not even one without state yet.
      if (fix.time < lateBefore) continue;
      matched.clear();
      for (let at = matches.start[position]; at < matches.start[position + 1]; at++) {
        const fenceId = matches.fences[at].id;
        if (!fences.has(fenceId)) continue;
        matched.set(fenceId, matches.distances[at]);
        if (!candidates.has(fenceId)) candidates.set(fenceId, null);
      }
      const floor = fix.floorId === null ? undefined : indexes.get(fix.floorId);
      let fixPosition: FixPosition | null = null;
      for (const [fenceId, stored] of candidates) {
        const matchedDistance = matched.get(fenceId);
        // A pair without state that this fix does not match is outside and stays so: it can only
        // start a visit by meeting enter_when, which implies a match (the index uses the same radius).
        if (stored === null && matchedDistance === undefined) continue;
        const fence = fences.get(fenceId)!;
        let distance = Infinity;
        if (floor && fence.floorId === fix.floorId) {
          distance = matchedDistance ?? signedDistance(fence.projected ?? this.ringOf(rings, fence, floor), floor.index.projection.x(fix.lng), floor.index.projection.y(fix.lat));
        }
        if (stored === null && !couldStartVisit(distance, fix.accuracy, fence.rules)) continue;
        fixPosition ??= { lat: fix.lat, lng: fix.lng, accuracy: fix.accuracy, time: fix.time, poi_id: null };
        const observation: Observation = { time: fix.time, distance, accuracy: fix.accuracy, position: fixPosition };
        const transition = onFix(stored?.state ?? initialVisitState(), observation, { rules: fence.rules, newVisitId });
        if (stored) {
          stored.state = transition.state;
          stored.userId = fix.userId;
          stored.dirty = true;
        } else {
          if (isPlainOutside(transition, fence.rules)) continue;
          const created: StoredState = { deviceId: fix.deviceId, fenceId, state: transition.state, userId: fix.userId, stored: false, dirty: true };
          candidates.set(fenceId, created);
          states.set(pairKey(fix.deviceId, fenceId), created);
        }
        for (const event of transition.events) pending.push({ event, fence, deviceId: fix.deviceId, userId: fix.userId });
      }
    }
    sortByTime(pending, deviceStart);
    return pending;
  }

  /** A fence read from the database (no projected ring), projected once per evaluation with its floor's projection. */
  private ringOf(rings: Map<string, ProjectedRing>, fence: LiveFence, floor: FloorOfCaller): ProjectedRing {
    let ring = rings.get(fence.id);
    if (!ring) rings.set(fence.id, (ring = projectRing(fence.ring ?? [], floor.index.projection)));
    return ring;
  }

  /**
   * Writes what an evaluation decided, in the caller's transaction: state rows (deleted once
   * plainly outside), visits, events numbered from the organization's counter, and their
   * webhook deliveries; after commit the delivery worker is woken and the event channel told.
   * Ingest, the timer and fence writes all end here.
   */
  async writeOutcome(
    manager: EntityManager,
    organizationId: string,
    states: readonly StoredState[],
    fences: ReadonlyMap<string, LiveFence>,
    pending: readonly PendingEvent[],
    detectedAt: number,
  ): Promise<GeofenceEventBody[]> {
    await this.writeStates(manager, organizationId, states, fences, detectedAt);
    if (pending.length === 0) return [];
    const [counter] = (await manager.query(
      ...this.transactions.escape(
        `INSERT INTO geofence_event_counters (organization_id, seq) VALUES (:organizationId, :count)
         ON CONFLICT (organization_id) DO UPDATE SET seq = geofence_event_counters.seq + excluded.seq RETURNING seq`,
        { organizationId, count: pending.length },
      ),
    )) as Array<{ seq: number | string }>;
    const firstSeq = Number(counter.seq) - pending.length + 1;
    const events = pending.map((item, offset) =>
      eventBody(item.event, { id: newEventId(), seq: firstSeq + offset, detectedAt, organizationId, fence: item.fence, deviceId: item.deviceId, userId: item.userId }),
    );
    await this.writeEvents(manager, organizationId, events);
    await this.writeVisits(manager, organizationId, pending);
    const enqueued = await this.deliveries.enqueue(
      manager,
      events.map((event) => ({
        id: event.id,
        type: event.type,
        organizationId,
        occurredAt: new Date(event.occurred_at),
        buildingId: event.building_id,
        geofenceId: event.geofence.id,
        data: event as unknown as Record<string, unknown>,
      })),
    );
    this.transactions.afterCommit(manager, () => countGeofenceEvents(events));
    if (enqueued > 0) this.transactions.afterCommit(manager, () => this.deliveries.notifyEnqueued());
    this.notifications.publishAfterCommit(manager, GEOFENCE_EVENTS_CHANNEL, { organization_id: organizationId, last_seq: events[events.length - 1].seq });
    return events;
  }

  private stamp(ms: number): Date | string {
    return timestampParameter(this.dialect, ms);
  }

  private async loadStates(manager: EntityManager, organizationId: string, deviceIds: string[]): Promise<Map<string, StoredState>> {
    const states = new Map<string, StoredState>();
    for (let start = 0; start < deviceIds.length; start += SQL_CHUNK) {
      const list = namedList('d', deviceIds.slice(start, start + SQL_CHUNK));
      const rows = await this.readInTransaction<{ device_id: string; geofence_id: string; state: string }>(
        manager,
        `SELECT device_id, geofence_id, state FROM geofence_states WHERE organization_id = :organizationId AND device_id IN (${list.sql})`,
        { organizationId, ...list.parameters },
      );
      for (const row of rows) {
        // The row holds the engine's state plus the user of the last fix.
        const { userId, ...state } = JSON.parse(row.state) as VisitState & { userId?: string | null };
        states.set(pairKey(row.device_id, row.geofence_id), { deviceId: row.device_id, fenceId: row.geofence_id, state, userId: userId ?? null, stored: true, dirty: false });
      }
    }
    return states;
  }

  /**
   * A read in the transaction of `manager`: a prepared statement (padded id lists keep its
   * shapes few) when that is the ambient transaction, whose connection PreparedQueries uses;
   * otherwise through the manager.
   */
  private async readInTransaction<Row>(manager: EntityManager, sql: string, parameters: Record<string, string | number>): Promise<Row[]> {
    // SQLite only: on PostgreSQL the named statement's generic plan cost more than planning each read.
    if (this.dialect === 'sqlite' && ambientTransaction.getStore() === manager) return this.queries.cached<Row>(sql)(parameters);
    return (await manager.query(...this.transactions.escape(sql, parameters))) as Row[];
  }

  /** The live fences among `ids` with their effective rules (deleted and other organizations' fences are absent). */
  async loadFences(manager: EntityManager, organizationId: string, ids: string[], includeDeleted = false): Promise<Map<string, StoredFence>> {
    const fences = new Map<string, StoredFence>();
    const [settings] = (await manager.query(...this.transactions.escape('SELECT rules FROM geofencing_settings WHERE organization_id = :organizationId', { organizationId }))) as Array<{
      rules: string | Partial<GeofenceRules>;
    }>;
    const organization = settings ? parsedJson(settings.rules) : null;
    for (let start = 0; start < ids.length; start += SQL_CHUNK) {
      const rows = (await manager.query(
        ...this.transactions.escape(
          `SELECT g.id, g.name, g.code, g.building_id, g.floor_id, g.geometric, r.rules FROM geofences g
           LEFT JOIN geofence_rules r ON r.geofence_id = g.id
           WHERE g.organization_id = :organizationId AND (g.deleted = :deleted OR :includeDeleted = 1) AND g.id IN (:...ids)`,
          { organizationId, deleted: this.dialect === 'postgres' ? false : 0, includeDeleted: includeDeleted ? 1 : 0, ids: ids.slice(start, start + SQL_CHUNK) },
        ),
      )) as FenceRow[];
      for (const row of rows) {
        fences.set(row.id, {
          id: row.id,
          name: row.name,
          code: row.code,
          buildingId: Number(row.building_id),
          floorId: Number(row.floor_id),
          ring: parsedJson(row.geometric),
          rules: effectiveRules(organization, row.rules === null ? null : parsedJson(row.rules)),
        });
      }
    }
    return fences;
  }

  private async writeStates(manager: EntityManager, organizationId: string, states: readonly StoredState[], fences: ReadonlyMap<string, LiveFence>, now: number): Promise<void> {
    const upserts: unknown[][] = [];
    const deletes: StoredState[] = [];
    for (const stored of states) {
      if (!stored.dirty) continue;
      const fence = fences.get(stored.fenceId);
      const deadline = fence ? nextDeadline(stored.state, fence.rules) : null;
      if (!fence || isPlainOutside({ state: stored.state, events: [], nextDeadline: deadline }, fence.rules)) {
        if (stored.stored) deletes.push(stored);
        continue;
      }
      upserts.push([
        organizationId,
        stored.deviceId,
        stored.fenceId,
        stored.state.phase,
        stored.state.visitId,
        JSON.stringify({ ...stored.state, userId: stored.userId }),
        deadline === null ? null : this.stamp(deadline),
        this.stamp(now),
      ]);
    }
    if (this.dialect === 'postgres' && upserts.length > 0) {
      // Every column as one array: one text for every batch, a named statement on the transaction's connection.
      const columns: unknown[][] = Array.from({ length: 6 }, () => []);
      for (const row of upserts) for (let c = 0; c < 6; c++) columns[c].push(row[c + 1]);
      await this.queries.inTransaction(manager, 'cg_geofence_states_upsert', POSTGRES_STATES_UPSERT, [organizationId, ...columns, this.stamp(now)]);
    } else {
      for (let start = 0; start < upserts.length; start += SQL_CHUNK) {
        const chunk = upserts.slice(start, start + SQL_CHUNK);
        const sql = memoized(
          `geofence_states:${this.dialect}:${chunk.length}`,
          () => `INSERT INTO geofence_states (organization_id, device_id, geofence_id, phase, visit_id, state, next_deadline_at, updated_at)
           VALUES ${valuesList(this.dialect, chunk.length, 8)}
           ${STATES_UPSERT_TAIL}`,
        );
        await manager.query(sql, chunk.flat());
      }
    }
    for (let start = 0; start < deletes.length; start += SQL_CHUNK) {
      const chunk = deletes.slice(start, start + SQL_CHUNK);
      // PostgreSQL types VALUES from their parameters: the uuid column needs its cast.
      const pairs = this.dialect === 'postgres' ? chunk.map((_, row) => `($${2 * row + 2}::varchar, $${2 * row + 3}::uuid)`).join(', ') : valuesList('sqlite', chunk.length, 2);
      await manager.query(
        `DELETE FROM geofence_states WHERE organization_id = ${this.dialect === 'postgres' ? '$1' : '?'} AND (device_id, geofence_id) IN (VALUES ${pairs})`,
        [organizationId, ...chunk.flatMap((stored) => [stored.deviceId, stored.fenceId])],
      );
    }
  }

  private async writeEvents(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<void> {
    for (let start = 0; start < events.length; start += SQL_CHUNK) {
      const chunk = events.slice(start, start + SQL_CHUNK);
      const values = chunk.flatMap((event) => [
        event.id,
        organizationId,
        event.seq,
        event.type,
        this.stamp(Date.parse(event.occurred_at)),
        this.stamp(Date.parse(event.detected_at)),
        Number(event.building_id),
        event.floor_id,
        event.geofence.id,
        event.device_id,
        event.user_id,
        event.visit_id,
        JSON.stringify(event),
      ]);
      await manager.query(
        `INSERT INTO geofence_events (id, organization_id, seq, type, occurred_at, detected_at, building_id, floor_id, geofence_id, device_id, user_id, visit_id, body)
         VALUES ${valuesList(this.dialect, chunk.length, 13)}`,
        values,
      );
    }
  }

  /** An enter opens a visit row; a dwell marks it; an exit closes it with its reason. */
  private async writeVisits(manager: EntityManager, organizationId: string, pending: readonly PendingEvent[]): Promise<void> {
    interface VisitChange {
      opened?: { fenceId: string; deviceId: string; userId: string | null; enteredAt: number };
      exitedAt?: number;
      reason?: string;
      dwell?: boolean;
    }
    const changes = new Map<string, VisitChange>();
    for (const { event, fence, deviceId, userId } of pending) {
      let change = changes.get(event.visitId);
      if (!change) changes.set(event.visitId, (change = {}));
      if (event.type === 'geofence.enter') change.opened = { fenceId: fence.id, deviceId, userId, enteredAt: event.occurredAt };
      if (event.type === 'geofence.dwell') change.dwell = true;
      if (event.type === 'geofence.exit') {
        change.exitedAt = event.occurredAt;
        change.reason = event.reason;
      }
    }
    const truth = this.dialect === 'postgres' ? (value: boolean) => value : (value: boolean) => (value ? 1 : 0);
    const opened = [...changes.entries()].filter(([, change]) => change.opened);
    for (let start = 0; start < opened.length; start += SQL_CHUNK) {
      const chunk = opened.slice(start, start + SQL_CHUNK);
      await manager.query(
        `INSERT INTO geofence_visits (id, organization_id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired) VALUES ${valuesList(this.dialect, chunk.length, 9)}`,
        chunk.flatMap(([id, change]) => [
          id,
          organizationId,
          change.opened!.fenceId,
          change.opened!.deviceId,
          change.opened!.userId,
          this.stamp(change.opened!.enteredAt),
          change.exitedAt === undefined ? null : this.stamp(change.exitedAt),
          change.reason ?? null,
          truth(change.dwell ?? false),
        ]),
      );
    }
    for (const [id, change] of changes) {
      if (change.opened) continue;
      const sets: string[] = [];
      const parameters: Record<string, unknown> = { id, organizationId };
      if (change.dwell) {
        sets.push('dwell_fired = :dwell');
        parameters.dwell = truth(true);
      }
      if (change.exitedAt !== undefined) {
        sets.push('exited_at = :exitedAt, exit_reason = :reason');
        parameters.exitedAt = this.stamp(change.exitedAt);
        parameters.reason = change.reason;
      }
      await manager.query(...this.transactions.escape(`UPDATE geofence_visits SET ${sets.join(', ')} WHERE id = :id AND organization_id = :organizationId`, parameters));
    }
  }
}

/** A pair that needs no row: outside, armed, past any cooldown, nothing due. */
function isPlainOutside(transition: Pick<Transition, 'state' | 'events' | 'nextDeadline'>, rules: GeofenceRules): boolean {
  const { state } = transition;
  if (state.phase !== 'outside' || !state.armed || transition.events.length > 0 || transition.nextDeadline !== null) return false;
  if (state.lastExitAt === null || rules.cooldown_seconds === 0) return true;
  return state.lastFixAt !== null && state.lastFixAt >= state.lastExitAt + rules.cooldown_seconds * 1000;
}

/** A device's events in time order (deadlines fired by a later fix may predate an earlier fence's event). */
function sortByTime(pending: PendingEvent[], from: number): void {
  if (pending.length - from < 2) return;
  const tail = pending.splice(from).sort((a, b) => a.event.occurredAt - b.event.occurredAt);
  pending.push(...tail);
}
