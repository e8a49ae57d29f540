import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotificationBus } from '../../database/notification-bus';
import { PreparedQueries, PreparedQuery } from '../../database/prepared-queries';
import { TransactionRunner } from '../../database/transactions';

/** Every instance hears here that what some buildings hold changed. */
export const BUILDING_CONTENT_CHANNEL = 'building_content';

/**
 * What changed: these buildings' content (fences, floors, POIs, paths, rules), every building
 * of an organization, or anything (a notification may have been missed).
 */
export type BuildingContentChange = { buildings: number[] } | { organization: string } | { all: true };

export type BuildingContentListener = (change: BuildingContentChange) => void;

/** More buildings than this in one change are announced as an organization-wide one (NOTIFY payloads are bounded). */
const MAX_ANNOUNCED_BUILDINGS = 500;

function isChange(value: unknown): value is BuildingContentChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  return (Array.isArray(change.buildings) && change.buildings.every((id) => Number.isInteger(id))) || typeof change.organization === 'string' || change.all === true;
}

/**
 * Revisions of building documents. Every write that changes what GET /buildings/{id} shows
 * bumps the building's revision in its own transaction, so a cached document is reused
 * only while its revision is still the one in the database, on every instance.
 *
 * A bump is also announced, for caches that do not read the revision per request (geofence
 * bodies): to this process's listeners as soon as the transaction commits, before the write
 * is acknowledged, and to every other instance by a notification sent on commit. Listeners
 * also hear `{ all: true }` whenever notifications may have been missed.
 */
@Injectable()
export class BuildingRevisions implements OnModuleInit, OnModuleDestroy {
  private readonly read: PreparedQuery<{ revision: number }>;
  private readonly listeners = new Set<BuildingContentListener>();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly transactions: TransactionRunner,
    queries: PreparedQueries,
    private readonly notifications: NotificationBus,
  ) {
    this.read = queries.prepare('SELECT "revision" FROM "building_revisions" WHERE "building_id" = :buildingId');
  }

  async onModuleInit(): Promise<void> {
    this.unsubscribe.push(
      await this.notifications.subscribe<unknown>(BUILDING_CONTENT_CHANNEL, (message) => {
        if (isChange(message)) this.emit(message);
      }),
      this.notifications.onDeliveryGap(() => this.emit({ all: true })),
    );
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.listeners.clear();
  }

  /** Hears every change to buildings' content, this instance's and the others'. */
  onChange(listener: BuildingContentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether a change may have been missed (caches that rely on `onChange` serve nothing then). */
  get changesReliable(): boolean {
    return this.notifications.reliable;
  }

  async current(buildingId: number): Promise<number> {
    const [row] = await this.read({ buildingId });
    return row ? Number(row.revision) : 0;
  }

  async bump(manager: EntityManager, buildingIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(buildingIds)];
    for (const buildingId of ids) {
      const [sql, parameters] = this.transactions.escape(
        `INSERT INTO "building_revisions" ("building_id", "revision") VALUES (:buildingId, 1)
         ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1`,
        { buildingId },
      );
      await manager.query(sql, parameters);
    }
    if (ids.length > 0) await this.announce(manager, ids.length > MAX_ANNOUNCED_BUILDINGS ? { all: true } : { buildings: ids });
  }

  /** Buildings whose POIs use a category: their documents show its name. */
  async bumpForCategory(manager: EntityManager, categoryId: number): Promise<void> {
    const [sql, parameters] = this.transactions.escape('SELECT DISTINCT "building_id" FROM "pois" WHERE "category_id" = :categoryId', { categoryId });
    const rows: Array<{ building_id: number }> = await manager.query(sql, parameters);
    await this.bump(
      manager,
      rows.map((row) => Number(row.building_id)),
    );
  }

  /** Every building of an organization: for organization-wide settings that change how their fences behave. */
  async bumpForOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    // The WHERE also settles SQLite's parsing of INSERT ... SELECT ... ON CONFLICT.
    const [sql, parameters] = this.transactions.escape(
      `INSERT INTO "building_revisions" ("building_id", "revision")
       SELECT "id", 1 FROM "buildings" WHERE "organization_id" = :organizationId
       ON CONFLICT ("building_id") DO UPDATE SET "revision" = "building_revisions"."revision" + 1`,
      { organizationId },
    );
    await manager.query(sql, parameters);
    await this.announce(manager, { organization: organizationId });
  }

  private async announce(manager: EntityManager, change: BuildingContentChange): Promise<void> {
    await this.notifications.publishWithCommit(manager, BUILDING_CONTENT_CHANNEL, change, () => this.emit(change));
  }

  private emit(change: BuildingContentChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
