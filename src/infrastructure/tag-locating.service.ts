import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CredentialKind, Principal } from '../access/principal';
import { ApiPermission } from '../access/permissions';
import { Role } from '../access/roles';
import { ApiError } from '../common/errors/api-error';
import { appConfig, AppConfig } from '../config/app.config';
import { TransactionRunner } from '../database/transactions';
import { FixPipeline } from '../fix-pipeline/fix-pipeline';
import { TagWindowsRepository, WindowObservation } from '../positions/tag-windows.repository';
import { solveModel } from './estimator/radio-model';
import { LocatorFloor, locateTag } from './estimator/tag-locator';
import { RadioModelsRepository } from './radio-models.repository';
import { parseStatistics } from './radio-models.service';
import { floorHeights } from './transmitter-sites';

/** How often an instance looks for due windows. */
const POLL_MS = 250;
/** Tags located per look; the rest wait for the next. */
const TAGS_PER_POLL = 200;

/** Another instance claimed part of the window first: this one stores nothing of it. */
class WindowTakenError extends Error {}

/**
 * Positions of tags from the gateways that hear them (issue 39, part 3), on every instance: each tag whose first
 * unclaimed observation is older than the window (GATEWAY_WINDOW_MS) has that window's observations located as one
 * estimate (estimator/tag-locator.ts) and handed to the fix pipeline as a fix of the tag's device. The claim of the
 * observations (`window_id` set where none is) runs inside the pipeline's transaction: the fix and the claim commit
 * together or not at all, and of two instances reading one window only the first claim holds (the other's matches
 * fewer rows than it read and rolls back), so each observation is used once and nothing is lost on a kill.
 */
@Injectable()
export class TagLocatingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TagLocatingService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly windows: TagWindowsRepository,
    private readonly radioModels: RadioModelsRepository,
    private readonly pipeline: FixPipeline,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pause();
  }

  /** Stops the looks until `resume` (a look under way ends first), like the webhook worker's pause. */
  async pause(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  resume(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.locateDue()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn(`Locating tags failed: ${String(error)}`))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, POLL_MS);
    this.timer.unref();
  }

  /** Locates every window due at `now`; answers how many fixes this instance stored. */
  async locateDue(now = Date.now()): Promise<number> {
    const windowMs = this.config.mqtt.windowMs;
    const due = await this.windows.due(this.dataSource.manager, now - windowMs, TAGS_PER_POLL);
    let stored = 0;
    for (const tag of due) {
      if (this.stopped) break;
      const observations = await this.windows.unclaimed(this.dataSource.manager, tag.organizationId, tag.deviceId, tag.first, tag.first + windowMs);
      if (observations.length === 0) continue;
      const window = {
        organizationId: tag.organizationId,
        deviceId: tag.deviceId,
        from: tag.first,
        to: tag.first + windowMs,
        lastId: Math.max(...observations.map((observation) => observation.id)),
        windowId: randomUUID(),
        count: observations.length,
      };
      try {
        if (await this.locateWindow(window, observations)) stored += 1;
      } catch (error) {
        if (error instanceof WindowTakenError) continue;
        throw error;
      }
    }
    return stored;
  }

  /** One window: its fix and its claim in one transaction, or its claim alone when it gives no fix the pipeline takes. */
  private async locateWindow(
    window: { organizationId: string; deviceId: string; from: number; to: number; lastId: number; windowId: string; count: number },
    observations: WindowObservation[],
  ): Promise<boolean> {
    const manager = this.dataSource.manager;
    const claim = async (inTransaction: typeof manager) => {
      if ((await this.windows.claim(inTransaction, window)) !== window.count) throw new WindowTakenError();
    };
    const floors = await this.floorsOf(observations);
    const estimate = locateTag(
      observations.map((observation) => ({ ...observation })),
      floors,
    );
    const userId = estimate ? await this.windows.tagUser(manager, window.organizationId) : null;
    if (!estimate || !userId) {
      await this.transactions.run(claim);
      return false;
    }
    const time = Math.max(...observations.map((observation) => observation.time));
    const buildingId = observations.find((observation) => observation.floorId === estimate.floorId)!.buildingId;
    const principal: Principal = {
      userId,
      organizationId: window.organizationId,
      email: '',
      role: Role.AdminOrg,
      permission: ApiPermission.ReadWrite,
      credential: CredentialKind.ApiKey,
      apiKeyId: null,
      sessionId: null,
      buildingIds: null,
    };
    const position = { device_id: window.deviceId, time, building_id: buildingId, floor_id: estimate.floorId, x: estimate.x, y: estimate.y, accuracy: estimate.accuracy };
    try {
      await this.pipeline.ingest(
        principal,
        { positions: [position] },
        {
          returnEvents: false,
          alongside: async (inTransaction) => {
            await claim(inTransaction);
            await this.windows.recordFix(inTransaction, { ...window, timeMs: time, gatewaysUsed: estimate.gatewaysUsed });
          },
        },
      );
      return true;
    } catch (error) {
      // A fix the pipeline refuses (older than it keeps, off the floor…): the window is used all the same.
      if (error instanceof ApiError && error.status === 422) {
        this.logger.warn(`A tag's window gave no fix the pipeline takes: ${error.message}`);
        await this.transactions.run(claim);
        return false;
      }
      throw error;
    }
  }

  /** The floors of the gateways heard: levels, heights above the lowest of them, and their radio models. */
  private async floorsOf(observations: readonly WindowObservation[]): Promise<Map<number, LocatorFloor>> {
    const byId = new Map<number, { id: number; level: number; levelHeight: number | null }>();
    for (const observation of observations) byId.set(observation.floorId, { id: observation.floorId, level: observation.level, levelHeight: observation.levelHeight });
    const heights = floorHeights([...byId.values()]);
    const floors = new Map<number, LocatorFloor>();
    for (const floorId of byId.keys()) {
      const record = await this.radioModels.find(this.dataSource.manager, floorId);
      const model = record ? solveModel(parseStatistics(record.statistics)) : undefined;
      floors.set(floorId, { ...heights.get(floorId), model });
    }
    return floors;
  }
}
