import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { countPositionFixes } from '../common/metrics/operations.metrics';
import { appConfig, AppConfig } from '../config/app.config';
import { TransactionLocks } from '../database/transaction-locks';
import { NotificationBus } from '../database/notification-bus';
import { TransactionRunner } from '../database/transactions';
import { Clock, ENGINE_CLOCK } from '../geofencing/engine/clock';
import { GeofenceEvaluator } from '../geofencing/events/geofence-evaluator.service';
import { GeofenceEventRecorder, RecordedEvents } from '../geofencing/events/geofence-event-recorder';
import { GeofenceEventBody } from '../geofencing/events/geofence-event';
import { AcceptedFix, DeviceTrack } from '../positions/fix';
import { POSITION_CHANGES_CHANNEL, PositionChangesMessage } from '../positions/position-changes';
import { PositionRollups } from '../positions/position-rollups.service';
import { PositionStore, trackOf } from '../positions/position-store';
import { DeviceTrackStates } from '../positions/device-track-states.repository';
import { PositionsRetention } from '../positions/positions-retention.service';
import { BatchShapeError, BatchTooLargeError, batchItems, ItemRejection, MAX_BATCH_ITEMS, orderAndDeduplicate, readItem, ReportedFix } from './fix-batch';
import { FixPlaces } from './fix-places';
import { FixRefiner } from './fix-refiner';
import { reportedFixRefiner } from './reported-fix-filtering';
import { NavigationFollower } from '../navigation/navigation-follower';
import { DAY_MS } from '../common/time/durations';

export interface IngestResult {
  accepted: number;
  rejected: ItemRejection[];
  /** The geofence events the batch fired (contract 7.3), in seq order. */
  events: GeofenceEventBody[];
}

export interface IngestOptions {
  /** `false` leaves the fired events out of the answer (they are stored all the same). */
  returnEvents?: boolean;
  refine?: FixRefiner;
  /** Positions the devices report themselves: filtered in the buildings whose tracking settings ask for it (`positions`). */
  filterReported?: boolean;
  /** Work that commits or rolls back with the fixes, run once the devices are locked (a tag window's claim: throw to store nothing). */
  alongside?: (manager: EntityManager) => Promise<void>;
}

/**
 * Batches queued together on SQLite share a COMMIT (see TransactionRunner): the in-process state a
 * batch reads that another batch of the group changes (the kept newest fixes, the webhook worker's
 * room for hand-offs) is changed at once and given back if the batch rolls back.
 */
const INGEST_TRANSACTION = { group: 'ingest' };

/**
 * The path of a fix (contract 6.2 and 7.2), stage by stage: every accepted fix of a batch is
 * stored once, evaluated against the fences, and its events recorded, in one transaction.
 */
@Injectable()
export class FixPipeline {
  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly places: FixPlaces,
    private readonly transactions: TransactionRunner,
    private readonly locks: TransactionLocks,
    private readonly store: PositionStore,
    private readonly trackStates: DeviceTrackStates,
    private readonly retention: PositionsRetention,
    private readonly rollups: PositionRollups,
    private readonly geofencing: GeofenceEvaluator,
    private readonly events: GeofenceEventRecorder,
    private readonly navigation: NavigationFollower,
    private readonly notifications: NotificationBus,
    @Inject(ENGINE_CLOCK) private readonly clock: Clock,
  ) {}

  async ingest(principal: Principal, body: unknown, options: IngestOptions = {}): Promise<IngestResult> {
    const organizationId = principal.organizationId;
    // 1. Parse and validate: every item on its own, so one bad item never sinks the batch.
    const { reported, rejected } = this.read(body);
    // 2. References and coordinates: buildings, floors and users, read once for the batch.
    const { accepted: resolved, filtering } = await this.places.resolve(principal, reported, rejected);
    // 3. One fix per device and time, ordered by device and time.
    const deduplicated = this.deduplicate(resolved, rejected);
    await this.retention.ensurePartitionsFor(deduplicated.map((fix) => fix.time));
    const deviceIds = distinctDevices(deduplicated);
    const refiner = options.refine ?? (options.filterReported && filtering.size > 0 ? reportedFixRefiner(filtering) : undefined);
    const events = await this.locks.inTurn(organizationId, deviceIds, () =>
      this.transactions.run(async (manager) => {
        // 4. Lock the devices: two batches of one device take turns, on any instance.
        await this.locks.lockDevices(manager, organizationId, deviceIds);
        if (options.alongside) await options.alongside(manager);
        const previous = await this.store.newest(manager, organizationId, deviceIds);
        // 4b. Refine (the tracker of positions from scans, or the filter of reported ones): from the devices' stored states, kept with the fixes.
        const fixes = refiner ? await this.refine(manager, organizationId, refiner, deduplicated, deviceIds, previous) : deduplicated;
        const newest = newestOfEachDevice(fixes);
        // 5. Store: the history rows, the rollups, each device's newest fix.
        await this.rollups.record(manager, organizationId, fixes, previous);
        await this.store.append(manager, organizationId, fixes, newest);
        // 5b. Guide: the batch's guided devices move along their routes (routed again off them, ended on arrival).
        await this.navigation.follow(manager, organizationId, fixes);
        // 6. Evaluate against the fences: the pairs whose state changes are written.
        const now = this.clock.now();
        const pending = await this.geofencing.evaluate(manager, organizationId, fixes, previous, tracksAfter(newest, previous), now);
        // 7. Record the events: the log, the visits, the outbox's deliveries.
        const recorded = await this.events.write(manager, organizationId, pending, now);
        // 8. Hand on, once committed: live positions and events on every instance, and delivery woken.
        this.handOnAfterCommit(manager, organizationId, recorded);
        return recorded.events;
      }, INGEST_TRANSACTION),
    );
    countPositionFixes(deduplicated.length, rejected);
    return { accepted: deduplicated.length, rejected, events: options.returnEvents === false ? [] : events };
  }

  private async refine(
    manager: EntityManager,
    organizationId: string,
    refiner: FixRefiner,
    fixes: AcceptedFix[],
    deviceIds: string[],
    previous: ReadonlyMap<string, DeviceTrack>,
  ): Promise<AcceptedFix[]> {
    const stored = await this.trackStates.read(manager, organizationId, deviceIds);
    const refined = refiner.refine(fixes, previous, stored);
    if (refined.states.size > 0) await this.trackStates.write(manager, organizationId, refined.states);
    return refined.fixes;
  }

  private read(body: unknown): { reported: ReportedFix[]; rejected: ItemRejection[] } {
    let items: unknown[];
    try {
      items = batchItems(body);
    } catch (error) {
      if (error instanceof BatchTooLargeError) throw new ApiError(413, ErrorCode.PayloadTooLarge, `At most ${MAX_BATCH_ITEMS} positions per request`);
      if (error instanceof BatchShapeError) throw ApiError.validation(error.message, [{ message: error.message, code: 'invalid', fields: 'body' }]);
      throw error;
    }
    if (items.length === 0) {
      throw ApiError.validation('The batch holds no positions', [{ message: `send 1 to ${MAX_BATCH_ITEMS} positions`, code: 'required', fields: 'positions' }]);
    }
    const limits = this.config.positions;
    // A fix older than the retention would be deleted at once (and its day's partition may be gone already).
    const window = { now: Date.now(), maxFutureMs: limits.maxFutureSeconds * 1000, maxAgeMs: Math.min(limits.maxAgeSeconds * 1000, limits.retentionDays * DAY_MS) };
    const reported: ReportedFix[] = [];
    const rejected: ItemRejection[] = [];
    for (let index = 0; index < items.length; index++) {
      const result = readItem(items[index], index, window);
      if ('code' in result) rejected.push(result);
      else reported.push(result);
    }
    return { reported, rejected };
  }

  private deduplicate(resolved: AcceptedFix[], rejected: ItemRejection[]): AcceptedFix[] {
    const { kept, duplicates } = orderAndDeduplicate(resolved);
    for (const duplicate of duplicates) {
      rejected.push({ index: duplicate.index, code: 'duplicate', fields: 'device_id,time', message: 'another position of the batch has the same device and time' });
    }
    rejected.sort((a, b) => a.index - b.index);
    if (kept.length === 0) {
      countPositionFixes(0, rejected);
      throw ApiError.validation('No position of the batch is valid; none was stored', rejected);
    }
    return kept;
  }

  /** The pipeline's one after-commit step: every signal of the batch leaves here, through NotificationBus. */
  private handOnAfterCommit(manager: EntityManager, organizationId: string, recorded: RecordedEvents): void {
    this.notifications.publishAfterCommit(manager, POSITION_CHANGES_CHANNEL, { organization: organizationId } satisfies PositionChangesMessage, { coalesce: true });
    this.events.announce(manager, recorded);
  }
}

function distinctDevices(fixes: readonly AcceptedFix[]): string[] {
  const ids: string[] = [];
  for (let i = 0; i < fixes.length; i++) if (i === 0 || fixes[i - 1].deviceId !== fixes[i].deviceId) ids.push(fixes[i].deviceId);
  return ids;
}

/** Each device's last fix of the batch (fixes are ordered by device, then time), with the last code any of its fixes gave. */
function newestOfEachDevice(fixes: readonly AcceptedFix[]): AcceptedFix[] {
  const newest: AcceptedFix[] = [];
  let code = '';
  for (let i = 0; i < fixes.length; i++) {
    if (fixes[i].deviceCode !== '') code = fixes[i].deviceCode;
    if (i === fixes.length - 1 || fixes[i + 1].deviceId !== fixes[i].deviceId) {
      newest.push(code === fixes[i].deviceCode ? fixes[i] : { ...fixes[i], deviceCode: code });
      code = '';
    }
  }
  return newest;
}

/** Each device's newest fix once the batch is stored: its last fix of the batch unless the stored one is newer. */
function tracksAfter(newest: readonly AcceptedFix[], previous: ReadonlyMap<string, DeviceTrack>): Map<string, DeviceTrack> {
  const tracks = new Map(previous);
  for (const fix of newest) {
    const stored = previous.get(fix.deviceId);
    if (!stored || fix.time >= stored.time) tracks.set(fix.deviceId, trackOf(fix, stored?.code ?? ''));
  }
  return tracks;
}
