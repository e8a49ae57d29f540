import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { ApiError } from '../common/errors/api-error';
import { TransactionRunner } from '../database/transactions';
import { FloorsService } from '../cartography/floors/floors.service';
import { BatchCalibration, CalibrationScan, calibrationScan } from './estimator/calibration';
import { floorStatistics, ReferenceFit, referenceFitSteps, ReferenceScan } from './estimator/cross-validation';
import { calibratedIndex, emptyStatistics, FloorRadio, FloorStatistics, mergeStatistics, solveModel, STATISTICS_VERSION } from './estimator/radio-model';
import { CalibrationQueue, RUNNING_CALIBRATION } from './estimator/running-calibration';
import { DEFAULT_ESTIMATOR_OPTIONS, EstimateMethod, FloorEstimation, ScanReading } from './estimator/scan-estimator';
import { completeYielding } from './estimator/steps';
import { RadioModelsRepository } from './radio-models.repository';
import { readingsOf } from './reference-point-readings';
import { ReferencePointsRepository } from './reference-points.repository';
import { toRadioModelResponse } from './reference-points.mapper';
import { BuildingFloorQuery, RadioModelResponseDto } from './reference-points.dto';
import { TransmitterSite, TransmitterSites } from './transmitter-sites';
import { KnownTransmitter, transmitterKey } from './estimator/transmitter';
import { CalibratedSite, FloorRadioState, RadioMethod } from './radio-state';

/** A fix the running calibration may learn from, with every reading of its scan. */
export interface LearnableFix {
  floorId: number;
  x: number;
  y: number;
  method: EstimateMethod;
  readings: readonly ScanReading[];
}

interface Owner {
  organizationId: string;
  buildingId: number;
}

const MAX_CACHED_BUILDINGS = 500;
const RSSI_RANGE = DEFAULT_ESTIMATOR_OPTIONS.rssiRange;
const FLUSH_EVERY_MS = 2_000;
const MERGE_ATTEMPTS = 5;

/**
 * The radio models of positions from scans (issue 31): per floor, what the running
 * self-calibration learnt from the scans every instance saw (`radio_models`, merged by
 * conditional updates, so no instance's contribution is lost), and what the floor's reference
 * points give (the model fitted from them, and k-NN fingerprints or the radio map where
 * cross-validation prefers them). Each instance caches the result per building under the revisions the scan batch's one
 * query of its buildings reads, so a model stored by any instance is used from the next batch on.
 */
@Injectable()
export class RadioModelsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RadioModelsService.name);
  private readonly sites = new LRUCache<number, CalibratedSite>({ max: MAX_CACHED_BUILDINGS });
  private readonly references = new LRUCache<number, { key: string; fits: Map<number, ReferenceFit> }>({ max: MAX_CACHED_BUILDINGS });
  private readonly loading = new Map<string, Promise<CalibratedSite>>();
  private readonly fitting = new Map<string, Promise<Map<number, ReferenceFit>>>();
  private readonly queue = new CalibrationQueue();
  private readonly owners = new Map<number, Owner>();
  private flushing: Promise<void> | null = null;
  private flushAgain = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly models: RadioModelsRepository,
    private readonly points: ReferencePointsRepository,
    private readonly buildings: BuildingsService,
    private readonly floors: FloorsService,
    private readonly transmitterSites: TransmitterSites,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(false), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** What is waiting is merged before the database closes (the rest of a batch is a sample; a crash loses only it). */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush(true);
  }

  /** The site's transmitters with its floors' models applied, from this instance's cache while current. */
  calibrated(manager: EntityManager, site: TransmitterSite): Promise<CalibratedSite> {
    const key = `${site.key}:${site.modelRevision}:${site.referenceRevision}`;
    const cached = this.sites.get(site.buildingId);
    if (cached?.key === key) return Promise.resolve(cached);
    const loadKey = `${site.buildingId}:${key}`;
    let pending = this.loading.get(loadKey);
    if (!pending) {
      pending = this.load(manager, site, key)
        .then((calibrated) => {
          this.sites.set(site.buildingId, calibrated);
          return calibrated;
        })
        .finally(() => this.loading.delete(loadKey));
      this.loading.set(loadKey, pending);
    }
    return pending;
  }

  /** Offers a batch's fixes of one site to the running calibration (sampled; fitted and stored in batches, off the request). */
  learn(site: TransmitterSite, calibrated: CalibratedSite, fixes: readonly LearnableFix[]): void {
    const now = Date.now();
    let added = false;
    for (const fix of fixes) {
      if (fix.method === 'single') continue;
      const stored = calibrated.floors.get(fix.floorId)?.running.scans ?? 0;
      if (!this.queue.wants(fix.floorId, stored, now)) continue;
      // Every reading of the floor, not only those the fit used (the nearest by measured strength
      // are biased loud), and the floor's transmitters the scan did not hear.
      const scan = calibrationScan(fix.readings, site.index, fix.floorId, { x: fix.x, y: fix.y, known: false }, RSSI_RANGE);
      if (scan.readings.length < 3) continue;
      this.queue.add(fix.floorId, scan, now);
      this.owners.set(fix.floorId, { organizationId: site.organizationId, buildingId: site.buildingId });
      added = true;
    }
    if (added && this.queue.hasDue(now)) void this.flush(false);
  }

  /** Merges every due batch (all waiting ones with `all`) into the stored models, one at a time. */
  async flush(all: boolean): Promise<void> {
    if (this.flushing) {
      this.flushAgain ||= true;
      if (all) await this.flushing;
      else return;
    }
    this.flushing = (async () => {
      do {
        this.flushAgain = false;
        for (const batch of this.queue.due(Date.now(), all)) {
          await this.merge(batch.floorId, batch.scans);
          await nextTurn();
        }
      } while (this.flushAgain || (all && this.queue.waiting > 0));
    })().finally(() => (this.flushing = null));
    await this.flushing;
  }

  /** `GET /infrastructure/radio_model`: the model each floor of the building uses now (the database's, through this cache). */
  async describe(principal: Principal, query: BuildingFloorQuery): Promise<RadioModelResponseDto> {
    const manager = this.dataSource.manager;
    const building = await this.buildings.findOwned(principal, query.building_id, manager);
    if (query.floor_id !== undefined) {
      const floor = await this.floors.findOwned(principal, query.floor_id, manager);
      if (floor.buildingId !== building.id) throw ApiError.notFound('Floor', query.floor_id);
    }
    const site = (await this.transmitterSites.forBuildings(manager, principal.organizationId, [building.id])).get(building.id);
    if (!site) throw ApiError.notFound('Building', building.id);
    return toRadioModelResponse(building.id, await this.calibrated(manager, site), query.floor_id);
  }

  /** Call in the transaction of every write to a building's reference points. */
  referencesChanged(manager: EntityManager, buildingId: number): Promise<void> {
    return this.models.bump(manager, buildingId, 'reference_revision');
  }

  /**
   * Fits the batch against this instance's copy of the stored statistics, then adds the result to
   * the stored ones as they are now: read, add, write only if unchanged since the read (retried),
   * so two instances merging at once both count.
   */
  private async merge(floorId: number, scans: CalibrationScan[]): Promise<void> {
    const owner = this.owners.get(floorId);
    if (!owner) return;
    const base = this.sites.get(owner.buildingId)?.floors.get(floorId)?.running ?? emptyStatistics();
    // A step at a time: a batch of 250 scans costs tens of milliseconds; requests go on in between.
    const job = new BatchCalibration(scans, base);
    while (!job.step()) await nextTurn();
    const { contribution } = job.result();
    try {
      for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt += 1) {
        const merged = await this.transactions.run(async (manager) => {
          const row = await this.models.find(manager, floorId);
          const now = new Date();
          const stored = row ? parseStatistics(row.statistics) : emptyStatistics();
          const statistics = mergeStatistics(stored, contribution, RUNNING_CALIBRATION.maxScans);
          const text = JSON.stringify(statistics);
          const written = row
            ? await this.models.updateIfVersion(manager, floorId, row.version, { scans: statistics.scans, statistics: text, updatedAt: now })
            : await this.models.insertIfAbsent(manager, {
                floorId,
                organizationId: owner.organizationId,
                buildingId: owner.buildingId,
                scans: statistics.scans,
                statistics: text,
                createdAt: now,
                updatedAt: now,
              });
          if (written) await this.models.bump(manager, owner.buildingId, 'model_revision');
          return written;
        });
        if (merged) return;
      }
      this.logger.warn(`The radio model of floor ${floorId} changed on every attempt to merge ${scans.length} scans; they were dropped`);
    } catch (error) {
      // A deleted floor or building, or the database going away: the batch is a sample, dropped.
      this.logger.warn(`Merging ${scans.length} scans into the radio model of floor ${floorId} failed: ${String(error)}`);
    }
  }

  private async load(manager: EntityManager, site: TransmitterSite, key: string): Promise<CalibratedSite> {
    const registered = new Map<string, KnownTransmitter>();
    const floorIds = new Set<number>();
    for (const transmitter of site.index.all()) {
      registered.set(transmitterKey(transmitter), transmitter);
      floorIds.add(transmitter.floorId);
    }
    const rows = await this.models.listForBuilding(manager, site.buildingId);
    const fits = await this.referenceFits(manager, site, [...floorIds]);
    const stored = new Map(rows.map((row) => [row.floorId, row]));
    const floors = new Map<number, FloorRadioState>();
    const radios = new Map<number, FloorRadio>();
    for (const floorId of floorIds) {
      const row = stored.get(floorId);
      const running = row ? parseStatistics(row.statistics) : emptyStatistics();
      const references = fits.get(floorId) ?? null;
      const model = solveModel(floorStatistics(running, references?.statistics ?? null));
      const estimation = references?.estimation ?? { method: 'model' as const, accuracyScale: 1 };
      floors.set(floorId, { floorId, method: methodOf(running, references), model, running, runningUpdatedAt: row?.updatedAt ?? null, references });
      radios.set(floorId, { model, estimation });
    }
    return { key, index: calibratedIndex(site.index.all(), radios), floors, registered };
  }

  /** Per floor, what its reference points give: cached until they or the transmitters change. */
  private referenceFits(manager: EntityManager, site: TransmitterSite, floorIds: number[]): Promise<Map<number, ReferenceFit>> {
    const key = `${site.key}:${site.referenceRevision}`;
    const cached = this.references.get(site.buildingId);
    if (cached?.key === key) return Promise.resolve(cached.fits);
    // One fit per building and revisions at a time: a model merged meanwhile reloads the site, not the fit.
    const fitKey = `${site.buildingId}:${key}`;
    let pending = this.fitting.get(fitKey);
    if (!pending) {
      pending = this.fitReferences(manager, site, floorIds, key).finally(() => this.fitting.delete(fitKey));
      this.fitting.set(fitKey, pending);
    }
    return pending;
  }

  private async fitReferences(manager: EntityManager, site: TransmitterSite, floorIds: number[], key: string): Promise<Map<number, ReferenceFit>> {
    const fits = new Map<number, ReferenceFit>();
    if (site.referenceRevision > 0) {
      const byFloor = new Map<number, ReferenceScan[]>();
      for (const point of await this.points.listOnFloors(manager, site.buildingId, floorIds)) {
        const scans = byFloor.get(point.floorId) ?? [];
        scans.push({ x: point.x, y: point.y, readings: readingsOf(point.readings) });
        byFloor.set(point.floorId, scans);
      }
      const transmitters = [...site.index.all()];
      // Seconds of CPU for a large survey: in steps of a few milliseconds, requests going on in between.
      for (const [floorId, scans] of byFloor) fits.set(floorId, await completeYielding(referenceFitSteps(floorId, scans, transmitters), nextTurn));
    }
    this.references.set(site.buildingId, { key, fits });
    return fits;
  }
}

const REFERENCE_METHODS: Record<FloorEstimation['method'], RadioMethod> = { model: 'reference_points', fingerprint: 'fingerprinting', map: 'radio_map' };

function methodOf(running: FloorStatistics, references: ReferenceFit | null): RadioMethod {
  if (references && references.statistics.scans > 0) return REFERENCE_METHODS[references.estimation.method];
  return running.scans > 0 ? 'self_calibrated' : 'default';
}

/** Stored statistics; unreadable ones, and those of an older format (fitted without the censored terms, biased), start again from the prior. */
export function parseStatistics(text: string): FloorStatistics {
  try {
    const parsed = JSON.parse(text) as FloorStatistics;
    if (parsed && typeof parsed === 'object' && parsed.version === STATISTICS_VERSION && parsed.transmitters && parsed.residuals) return parsed;
  } catch {
    // Unreadable statistics start again from the prior.
  }
  return emptyStatistics();
}
