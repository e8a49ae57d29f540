import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotificationBus } from '../../database/notification-bus';
import { BuildingRevisionsRepository } from './building-revisions.repository';

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
  private readonly listeners = new Set<BuildingContentListener>();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly revisions: BuildingRevisionsRepository,
    private readonly notifications: NotificationBus,
  ) {}

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

  current(buildingId: number): Promise<number> {
    return this.revisions.current(buildingId);
  }

  /** A live building of the organization: its version and revision in one prepared read, or null. */
  owned(buildingId: number, organizationId: string): Promise<{ version: number; revision: number } | null> {
    return this.revisions.owned(buildingId, organizationId);
  }

  async bump(manager: EntityManager, buildingIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(buildingIds)];
    for (const buildingId of ids) await this.revisions.bump(manager, buildingId);
    if (ids.length > 0) await this.announce(manager, ids.length > MAX_ANNOUNCED_BUILDINGS ? { all: true } : { buildings: ids });
  }

  /** Buildings whose POIs use a category: their documents show its name. */
  async bumpForCategory(manager: EntityManager, categoryId: number): Promise<void> {
    await this.bump(manager, await this.revisions.buildingsUsingCategory(manager, categoryId));
  }

  /** Every building of an organization: for organization-wide settings that change how their fences behave. */
  async bumpForOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    await this.revisions.bumpOrganization(manager, organizationId);
    await this.announce(manager, { organization: organizationId });
  }

  private async announce(manager: EntityManager, change: BuildingContentChange): Promise<void> {
    await this.notifications.publishWithCommit(manager, BUILDING_CONTENT_CHANNEL, change, () => this.emit(change));
  }

  private emit(change: BuildingContentChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
