import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { TransactionLocks } from '../../database/transaction-locks';
import { GeofenceChange, GeofenceChangeHooks } from '../../cartography/geofences/geofence-change-hooks';
import { DeviceTrack } from '../../positions/fix';
import { PositionStore } from '../../positions/position-store';
import {
  collectMatches,
  distanceTo,
  driveFixes,
  endVisits,
  EvaluableFix,
  fenceCreated,
  FloorFences,
  fireDeadlines,
  LiveFence,
  needsNoRow,
  PairState,
  pairKey,
  PendingEvent,
} from '../engine/batch';
import { ProjectedRing, projectRing, signedDistance } from '../engine/classify';
import { Clock, ENGINE_CLOCK } from '../engine/clock';
import { decodePair, encodeForm, holds, lastFixOf, storedForm } from '../engine/pair-codec';
import { keptDeadline, nextDeadline, VisitState } from '../engine/visit-state';
import { FloorFenceCache } from '../queries/floor-fence-cache';
import { GeofenceStateRepository, PairRow, PairWrite } from '../state/geofence-state.repository';
import { LiveFencesRepository } from '../state/live-fences.repository';
import { GeofenceEventRecorder } from './geofence-event-recorder';
import { GeofenceEventBody, newVisitId } from './geofence-event';

/** What a batch of pairs is read with: their rows, the floors and fences they need. */
interface Context {
  rows: Map<string, PairRow>;
  indexes: Map<number, FloorFences>;
  fences: Map<string, LiveFence>;
}

/** A pair as a reader sees it (occupancy). */
export interface ReadPair {
  deviceId: string;
  state: VisitState;
  userId: string | null;
}

/**
 * The stateful half of contract 7.2, as an orchestrator of the pure engine (engine/batch.ts):
 * it reads what a batch of pairs needs, runs the engine, writes the pairs whose row changes and
 * hands the events to the recorder. Every path runs in its caller's transaction, under the
 * devices' lock: the ingest (`evaluate`), the timer (`fireDue`) and fence and rule writes.
 */
const PINNED: unique symbol = Symbol('pinned rules write');

/** A rules or settings write whose fences' pairs are pinned: only {@link GeofenceEvaluator.changeRules} makes one. */
export class PinnedRulesWrite {
  constructor(
    readonly manager: EntityManager,
    token: typeof PINNED,
  ) {
    if (token !== PINNED) throw new Error('A rules write is made by GeofenceEvaluator.changeRules');
  }
}

/** What a rules write did: its answer, whether it changed anything, whether `enabled` may have changed, and when (ms). */
export interface RulesWritten<T> {
  result: T;
  changed: boolean;
  enabledMayChange: boolean;
  at: number;
}

@Injectable()
export class GeofenceEvaluator implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly floors: FloorFenceCache,
    private readonly liveFences: LiveFencesRepository,
    private readonly state: GeofenceStateRepository,
    private readonly recorder: GeofenceEventRecorder,
    private readonly positions: PositionStore,
    private readonly locks: TransactionLocks,
    private readonly changeHooks: GeofenceChangeHooks,
    @Inject(ENGINE_CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.changeHooks.registerBefore((manager, change) => this.pinFences(manager, change.organizationId, [change.geofenceId]));
    this.changeHooks.register((manager, change) => this.onFenceChanged(manager, change));
  }

  /**
   * Contract 7.2 at ingest: each fix, in order, against the live fences of its floor and the
   * fences the device already has a state with; late fixes and fixes over `max_accuracy_m` drive
   * nothing (the engine decides). Call it in the transaction that stored the fixes, under the
   * devices' lock. `previous`: each device's newest fix before the batch; `newest`: after it.
   * Answers the events decided, for the caller to record.
   */
  async evaluate(
    manager: EntityManager,
    organizationId: string,
    fixes: readonly EvaluableFix[],
    previous: ReadonlyMap<string, DeviceTrack>,
    newest: ReadonlyMap<string, DeviceTrack>,
    now: number,
  ): Promise<PendingEvent[]> {
    if (fixes.length === 0) return [];
    const fixFloors: number[] = [];
    for (const fix of fixes) if (fix.floorId !== null) fixFloors.push(fix.floorId);
    const context = await this.context(manager, organizationId, [...new Set(fixes.map((fix) => fix.deviceId))], previous, fixFloors);
    const matches = collectMatches(fixes, context.indexes);
    for (const fence of matches.fences) context.fences.set(fence.id, fence);
    if (context.fences.size === 0 && context.rows.size === 0) return [];
    const pairs = this.decode(context, previous);
    const lastEvaluated = new Map<string, number>();
    for (const [deviceId, track] of previous) lastEvaluated.set(deviceId, track.time);
    const pending = driveFixes(fixes, pairs, context.fences, context.indexes, matches, newVisitId, lastEvaluated);
    await this.persist(manager, organizationId, pairs.values(), context, context.fences, newest, now);
    return pending;
  }

  /**
   * The timer (contract 7.2): every pair whose deadline is due fires what is due up to `now`,
   * each event at its own time (so after a restart, overdue deadlines keep their original
   * times). At most `limit` due pairs per call (with every pair of their devices); answers how
   * many it took, so the caller goes on while a call comes back full. Call it in a transaction.
   */
  async fireDue(manager: EntityManager, now: number, limit: number): Promise<number> {
    const due = await this.state.due(manager, now, limit);
    const byOrganization = new Map<string, Set<string>>();
    for (const { organizationId, deviceId } of due) {
      let devices = byOrganization.get(organizationId);
      if (!devices) byOrganization.set(organizationId, (devices = new Set()));
      devices.add(deviceId);
    }
    for (const [organizationId, devices] of byOrganization) {
      const deviceIds = [...devices].sort();
      await this.locks.lockDevices(manager, organizationId, deviceIds);
      // Read after the lock: an ingest that ran first may have moved these pairs on.
      const tracks = await this.positions.newest(manager, organizationId, deviceIds);
      const context = await this.context(manager, organizationId, deviceIds, tracks);
      const pairs = this.decode(context, tracks);
      const pending = fireDeadlines([...pairs.values()], context.fences, now, newVisitId);
      await this.persist(manager, organizationId, pairs.values(), context, context.fences, tracks, now);
      await this.recorder.record(manager, organizationId, pending, now);
    }
    return due.length;
  }

  /**
   * A fence was created, its geometry or floor changed, or it was deleted (in that write's
   * transaction): a new fence sees the devices around it; a changed or deleted one's occupants
   * exit with the reason and its pending enters drop; a deleted fence keeps no pairs.
   */
  async onFenceChanged(manager: EntityManager, change: GeofenceChange): Promise<GeofenceEventBody[]> {
    if (change.reason === 'fence_created') return this.onFenceCreated(manager, change);
    const { organizationId, geofenceId, reason, at } = change;
    const fences = await this.liveFences.byIds(manager, organizationId, [geofenceId], true);
    if (!fences.has(geofenceId)) return [];
    return this.endVisits(manager, organizationId, fences, reason, at, reason === 'fence_deleted' ? new Map() : fences);
  }

  /**
   * A write of rules or settings (in `manager`'s transaction), the one way to change them: the
   * pairs of the fences (null: every fence of the organization) first keep their last fix as the
   * current rules classify it (pinned: a pair's last fix is otherwise derived from its device's
   * newest fix, which the new rules would classify anew); `write` then changes the rules with the
   * {@link PinnedRulesWrite} only this gives (GeofenceRulesRepository's writes take nothing else);
   * where it changed something, the deadlines are reviewed under the new rules and, where
   * `enabled` may have changed, the visits of fences now disabled end.
   */
  async changeRules<T>(
    manager: EntityManager,
    organizationId: string,
    geofenceIds: readonly string[] | null,
    write: (pinned: PinnedRulesWrite) => Promise<RulesWritten<T>>,
  ): Promise<T> {
    await this.pinFences(manager, organizationId, geofenceIds);
    const written = await write(new PinnedRulesWrite(manager, PINNED));
    if (written.changed) {
      await this.reviewDeadlines(manager, organizationId, geofenceIds, written.at);
      if (written.enabledMayChange) await this.endVisitsOfDisabledFences(manager, organizationId, geofenceIds, written.at);
    }
    return written.result;
  }

  /**
   * After a rules or settings write (in its transaction): the deadlines of the fences' pairs were
   * computed under the old rules, and a stored deadline is only the time the timer must look at a
   * pair next. Each one still to come is brought forward to `now`, so the timer recomputes it
   * under the new rules at once: a shorter stale timeout or exit grace then fires at its own time.
   * `geofenceIds` null: every fence of the organization (a settings write).
   */
  private async reviewDeadlines(manager: EntityManager, organizationId: string, geofenceIds: readonly string[] | null, now: number): Promise<void> {
    await this.state.bringDeadlinesForward(manager, organizationId, geofenceIds, now);
  }

  /**
   * After a rules or settings write (in its transaction): the open visits and pending enters of
   * the fences whose effective rules now say `enabled: false` end as an edit of the fence ends
   * them (exit with reason `fence_changed`, dated `at`). `geofenceIds` null: every fence of the
   * organization that has pairs (a settings write).
   */
  private async endVisitsOfDisabledFences(manager: EntityManager, organizationId: string, geofenceIds: readonly string[] | null, at: number): Promise<GeofenceEventBody[]> {
    const held = await this.state.fencesWithPairs(manager, organizationId, geofenceIds);
    if (held.length === 0) return [];
    const fences = await this.liveFences.byIds(manager, organizationId, held);
    const disabled = [...fences.values()].filter((fence) => !fence.rules.enabled);
    if (disabled.length === 0) return [];
    return this.endVisits(manager, organizationId, new Map(disabled.map((fence) => [fence.id, fence])), 'fence_changed', at, fences);
  }

  /**
   * Before a device is deleted (in that transaction): its pairs keep their last fix, so they still
   * time out as they would have (the device's newest fix goes with it).
   */
  async beforeDeviceDeleted(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
    await this.locks.lockDevices(manager, organizationId, [deviceId]);
    await this.pinPairs(manager, organizationId, [deviceId], null);
  }

  /** The pairs of a fence in the given phases, with their last fix, for readers (occupancy). */
  async readPairs(organizationId: string, geofenceId: string, rows: readonly PairRow[]): Promise<ReadPair[]> {
    if (rows.length === 0) return [];
    const manager = this.dataSource.manager;
    const tracks = await this.positions.newest(manager, organizationId, [...new Set(rows.map((row) => row.deviceId))]);
    const context = await this.contextOf(manager, organizationId, new Map(rows.map((row) => [pairKey(row.deviceId, row.fenceId), row])), tracks, [geofenceId]);
    return [...this.decode(context, tracks).values()].map((pair) => ({ deviceId: pair.deviceId, state: pair.state, userId: pair.userId }));
  }

  private async onFenceCreated(manager: EntityManager, change: GeofenceChange): Promise<GeofenceEventBody[]> {
    const { organizationId, geofenceId, at } = change;
    const fence = (await this.liveFences.byIds(manager, organizationId, [geofenceId])).get(geofenceId);
    if (!fence || !fence.rules.enabled) return [];
    const seen = await this.positions.lastSeenOnFloor(manager, organizationId, fence.floorId, at - fence.rules.stale_after_seconds * 1000);
    if (seen.length === 0) return [];
    const floor = (await this.floors.forFloors(organizationId, [fence.floorId])).get(fence.floorId);
    if (!floor) return [];
    const { projection } = floor.index;
    const ring = projectRing(fence.ring, projection);
    await this.locks.lockDevices(
      manager,
      organizationId,
      seen.map((track) => track.deviceId),
    );
    const devices = seen.map((track) => ({ ...track, distance: signedDistance(ring, projection.x(track.lng), projection.y(track.lat)) }));
    const { pairs, pending } = fenceCreated(devices, fence, at, newVisitId);
    const fences = new Map<string, LiveFence>([[fence.id, fence]]);
    const tracks = new Map(seen.map((track) => [track.deviceId, track]));
    await this.persist(manager, organizationId, pairs, { rows: new Map(), indexes: new Map([[floor.floorId, floor]]), fences }, fences, tracks, at);
    return this.recorder.record(manager, organizationId, pending, at);
  }

  /** Every pair of `ending`'s fences goes through the fence's end (occupants exit, pending enters drop), under the devices' lock; written against `live`. */
  private async endVisits(
    manager: EntityManager,
    organizationId: string,
    ending: ReadonlyMap<string, LiveFence>,
    reason: 'fence_changed' | 'fence_deleted',
    at: number,
    live: ReadonlyMap<string, LiveFence>,
  ): Promise<GeofenceEventBody[]> {
    const deviceIds = await this.state.holdersOf(manager, organizationId, [...ending.keys()]);
    if (deviceIds.length === 0) return [];
    await this.locks.lockDevices(manager, organizationId, deviceIds);
    // Read after the lock: an ingest that ran first may have moved these pairs on.
    const tracks = await this.positions.newest(manager, organizationId, deviceIds);
    const context = await this.context(manager, organizationId, deviceIds, tracks);
    for (const [id, fence] of ending) if (!context.fences.has(id)) context.fences.set(id, fence);
    const pairs = [...this.decode(context, tracks).values()].filter((pair) => ending.has(pair.fenceId));
    const pending = endVisits(pairs, ending, reason, at, newVisitId);
    await this.persist(manager, organizationId, pairs, context, live, tracks, at);
    return this.recorder.record(manager, organizationId, pending, at);
  }

  /** The pairs of the fences (null: all of the organization's) keep their last fix as now read. */
  private async pinFences(manager: EntityManager, organizationId: string, fenceIds: readonly string[] | null): Promise<void> {
    const deviceIds =
      fenceIds === null
        ? await this.state.holdersOf(manager, organizationId, await this.state.fencesWithPairs(manager, organizationId, null))
        : await this.state.holdersOf(manager, organizationId, fenceIds);
    if (deviceIds.length === 0) return;
    await this.locks.lockDevices(manager, organizationId, deviceIds);
    await this.pinPairs(manager, organizationId, deviceIds, fenceIds === null ? null : new Set(fenceIds));
  }

  private async pinPairs(manager: EntityManager, organizationId: string, deviceIds: readonly string[], fenceIds: ReadonlySet<string> | null): Promise<void> {
    const tracks = await this.positions.newest(manager, organizationId, deviceIds);
    const context = await this.context(manager, organizationId, deviceIds, tracks);
    const writes: PairWrite[] = [];
    for (const pair of this.decode(context, tracks).values()) {
      if (fenceIds !== null && !fenceIds.has(pair.fenceId)) continue;
      const row = context.rows.get(pairKey(pair.deviceId, pair.fenceId))!;
      const form = storedForm(pair.state, pair.userId, undefined, undefined);
      if (!holds(row, form)) writes.push({ ...row, ...encodeForm(form), phase: pair.state.phase, visitId: pair.state.visitId });
    }
    // The deadline stays as stored: pinning changes nothing the timer looks at.
    if (writes.length > 0) await this.state.writePairs(manager, organizationId, writes, [], this.clock.now());
  }

  /**
   * What a set of devices' pairs are read with: their rows, the floors of their fences and of the
   * devices' newest fixes (and `moreFloors`), and their fences, from those floors' indexes or, when
   * no index holds one, from the database.
   */
  private async context(
    manager: EntityManager,
    organizationId: string,
    deviceIds: readonly string[],
    tracks: ReadonlyMap<string, DeviceTrack>,
    moreFloors: readonly number[] = [],
  ): Promise<Context> {
    const rows = new Map<string, PairRow>();
    for (const row of await this.state.pairsOf(manager, organizationId, deviceIds)) rows.set(pairKey(row.deviceId, row.fenceId), row);
    return this.contextOf(manager, organizationId, rows, tracks, [], moreFloors);
  }

  private async contextOf(
    manager: EntityManager,
    organizationId: string,
    rows: Map<string, PairRow>,
    tracks: ReadonlyMap<string, DeviceTrack>,
    moreFences: readonly string[] = [],
    moreFloors: readonly number[] = [],
  ): Promise<Context> {
    const floorIds = new Set<number>(moreFloors);
    for (const track of tracks.values()) if (track.floorId !== null) floorIds.add(track.floorId);
    // The floors of the pairs' fences too (a device that changed floors still has pairs on its previous one).
    for (const row of rows.values()) {
      const floorId = this.floors.cachedFloorOf(row.fenceId);
      if (floorId !== undefined) floorIds.add(floorId);
    }
    const indexes = await this.floors.forFloors(organizationId, [...floorIds]);
    // The fences come from the floor indexes (current as of the building's revision); only a
    // fence no index holds is read.
    const fences = new Map<string, LiveFence>();
    const unindexed = new Set<string>();
    for (const fenceId of [...moreFences, ...[...rows.values()].map((row) => row.fenceId)]) {
      if (fences.has(fenceId)) continue;
      let indexed: LiveFence | undefined;
      for (const floor of indexes.values()) if ((indexed = floor.fences.get(fenceId))) break;
      if (indexed) fences.set(fenceId, indexed);
      else unindexed.add(fenceId);
    }
    if (unindexed.size > 0) for (const [id, fence] of await this.liveFences.byIds(manager, organizationId, [...unindexed])) fences.set(id, fence);
    return { rows, indexes, fences };
  }

  /** The pairs of the rows, each with its last fix (its own when pinned, else what its device's newest fix gives). */
  private decode(context: Context, tracks: ReadonlyMap<string, DeviceTrack>): Map<string, PairState> {
    const pairs = new Map<string, PairState>();
    const rings = new Map<string, ProjectedRing>();
    for (const [key, row] of context.rows) {
      const track = tracks.get(row.deviceId);
      const fence = context.fences.get(row.fenceId);
      const { state, userId } = decodePair(row, track, () => (track && fence ? lastFixOf(track, fence, distanceTo(fence, track, context.indexes, rings)) : undefined));
      pairs.set(key, { deviceId: row.deviceId, fenceId: row.fenceId, state, userId, stored: true, dirty: false });
    }
    return pairs;
  }

  /**
   * Writes the touched pairs whose row changes, against `live` (a pair whose fence is not in it,
   * or that is plainly outside, loses its row): the text (see pair-codec.ts), and the deadline
   * unless the stored one is still to come and no later than the new one.
   */
  private async persist(
    manager: EntityManager,
    organizationId: string,
    pairs: Iterable<PairState>,
    context: Context,
    live: ReadonlyMap<string, LiveFence>,
    newest: ReadonlyMap<string, DeviceTrack>,
    now: number,
  ): Promise<void> {
    const writes: PairWrite[] = [];
    const removals: Array<{ deviceId: string; fenceId: string }> = [];
    const rings = new Map<string, ProjectedRing>();
    for (const pair of pairs) {
      if (!pair.dirty) continue;
      const key = pairKey(pair.deviceId, pair.fenceId);
      const row = context.rows.get(key);
      const fence = live.get(pair.fenceId);
      if (!fence || needsNoRow(pair.state, fence)) {
        if (row) removals.push(pair);
        continue;
      }
      const track = newest.get(pair.deviceId);
      const derived = track ? lastFixOf(track, fence, distanceTo(fence, track, context.indexes, rings)) : undefined;
      const form = storedForm(pair.state, pair.userId, track, derived);
      const deadline = nextDeadline(pair.state, fence.rules);
      if (row && holds(row, form) && keptDeadline(row.deadline, deadline, now) === row.deadline) continue;
      writes.push({ deviceId: pair.deviceId, fenceId: pair.fenceId, phase: pair.state.phase, visitId: pair.state.visitId, ...encodeForm(form), deadline });
    }
    await this.state.writePairs(manager, organizationId, writes, removals, now);
  }
}
