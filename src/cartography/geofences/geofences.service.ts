import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, Repository } from 'typeorm';
import { assertCallerOrganization } from '../../access/caller-organization';
import { canSeeBuilding } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { BuildingRevisions } from '../buildings/building-revisions';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../../common/database/optimistic';
import { LatLng, validateRing } from '../../common/geometry/polygon';
import { SanitizerPool } from '../../common/html/sanitizer-pool';
import { lockOptions, RowLock } from '../../database/row-locks';
import { RawJson, Versioned } from '../../common/http/versioned';
import { Page, pageWindow, parseSort, toPage } from '../../common/pagination/pagination';
import { lookupTable } from '../../common/safety/own-lookup';
import { TransactionRunner } from '../../database/transactions';
import { FloorsService } from '../floors/floors.service';
import { GeofenceBodyCache } from './geofence-bodies';
import { liveGeofenceBodyCaches } from './geofence-bodies.metrics';
import { Geofence } from './geofence.entity';
import { GeofenceChangeHooks } from './geofence-change-hooks';
import { GeofenceSearch, GeofenceSortColumn, GeofencesRepository } from './geofences.repository';
import { serializeGeofenceResponse, toGeofenceResponse } from './geofence.mapper';
import { CreateGeofenceDto, GeofenceResponseDto, SearchGeofencesQuery, UpdateGeofenceDto } from './geofences.dto';

const SORTABLE = lookupTable<GeofenceSortColumn>({
  name: 'name_lower',
  code: 'code',
  created_at: 'created_at',
  updated_at: 'updated_at',
});

/** About 20,000 geofences' bodies of 12-corner rings. */
const GEOFENCE_BODY_CACHE_BYTES = 32 * 1024 * 1024;
/** A row changed by other means than the API (by hand in the database) still shows within a minute. */
const GEOFENCE_BODY_MAX_AGE_MS = 60_000;

@Injectable()
export class GeofencesService implements OnModuleDestroy {
  constructor(
    @InjectRepository(Geofence) private readonly geofences: Repository<Geofence>,
    private readonly buildings: BuildingsService,
    private readonly floors: FloorsService,
    private readonly revisions: BuildingRevisions,
    private readonly transactions: TransactionRunner,
    private readonly sanitizer: SanitizerPool,
    private readonly rows: GeofencesRepository,
    private readonly changeHooks: GeofenceChangeHooks,
  ) {
    this.stopListening = revisions.onChange((change) => ('buildings' in change ? this.bodies.invalidateBuildings(change.buildings) : this.bodies.clear()));
    liveGeofenceBodyCaches.add(this.bodies);
  }

  /**
   * Bodies of `get`, kept until their building's content changes (announced by the building
   * revisions on this instance at commit, on the others by notification) or for a minute.
   */
  private readonly bodies = new GeofenceBodyCache({ maxBytes: GEOFENCE_BODY_CACHE_BYTES, maxAgeMs: GEOFENCE_BODY_MAX_AGE_MS });
  private readonly stopListening: () => void;

  onModuleDestroy(): void {
    this.stopListening();
    liveGeofenceBodyCaches.delete(this.bodies);
    this.bodies.clear();
  }

  /**
   * Deleted geofences are still readable by id. The hottest read: the body kept by this
   * process when there is one (no query: the organization and building it belongs to decide
   * who may see it), else one prepared query, whose body is kept. Nothing is served from or
   * kept in the cache while changes may go unheard (the notification listener is down).
   */
  async get(principal: Principal, id: string): Promise<Versioned<RawJson>> {
    const reliable = this.revisions.changesReliable;
    const kept = reliable ? this.bodies.get(id) : undefined;
    if (kept && kept.organizationId === principal.organizationId) {
      if (!canSeeBuilding(principal, kept.buildingId)) throw ApiError.notFound('Geofence', id);
      return new Versioned(new RawJson(kept.body), kept.version);
    }
    const ticket = this.bodies.ticket();
    const geofence = await this.rows.byId(principal.organizationId, id);
    if (!geofence || !canSeeBuilding(principal, geofence.buildingId)) throw ApiError.notFound('Geofence', id);
    const body = Buffer.from(serializeGeofenceResponse(toGeofenceResponse(geofence)));
    if (reliable) this.bodies.set(id, { organizationId: geofence.organizationId, buildingId: geofence.buildingId, version: geofence.version, body }, ticket);
    return new Versioned(new RawJson(body), geofence.version);
  }

  /**
   * A page query and, when the page is full or not the first, a count, each on an index of
   * the organization's geofences. Prepared once per combination of filters.
   */
  async search(principal: Principal, query: SearchGeofencesQuery): Promise<Page<GeofenceResponseDto>> {
    const window = pageWindow(query);
    const sort = parseSort(query.sort, SORTABLE, { column: 'created_at', direction: 'ASC' });
    if (!sort) throw ApiError.badRequest(`sort must be one of ${Object.keys(SORTABLE).join(', ')}, optionally prefixed with -`);
    assertCallerOrganization(principal, query.organization_id);

    const search: GeofenceSearch = {
      organizationId: principal.organizationId,
      deleted: Boolean(query.deleted),
      buildingIds: query.building_ids ?? [],
      visibleBuildingIds: principal.buildingIds,
      floorIds: query.floor_ids ?? [],
      code: query.code,
      nameContains: query.name ? query.name.toLowerCase() : undefined,
      sort: { column: sort.column as GeofenceSortColumn, direction: sort.direction },
    };
    const geofences = await this.rows.page(search, window);
    let total = window.offset + geofences.length;
    if (geofences.length === window.size || (geofences.length === 0 && window.offset > 0)) total = await this.rows.count(search);
    return toPage(
      geofences.map((geofence) => toGeofenceResponse(geofence)),
      total,
      window,
    );
  }

  async create(principal: Principal, dto: CreateGeofenceDto): Promise<Versioned<GeofenceResponseDto>> {
    const geometric = this.checkedRing(dto.geometric);
    const info = await this.sanitizer.sanitizeRichText(dto.info ?? dto.description ?? '', dto.info === undefined && dto.description !== undefined ? 'description' : 'info');
    return this.transactions.run(async (manager) => {
      await this.checkPlacement(principal, dto.building_id, dto.floor_id, manager);
      const now = new Date();
      const geofence = manager.create(Geofence, {
        id: randomUUID(),
        organizationId: principal.organizationId,
        buildingId: dto.building_id,
        floorId: dto.floor_id,
        name: dto.name,
        nameLower: dto.name.toLowerCase(),
        code: dto.code ?? '',
        info,
        type: dto.type ?? 'POLYGON',
        geometric,
        customFields: dto.custom_fields ?? [],
        deleted: false,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      await manager.insert(Geofence, geofence);
      await this.revisions.bump(manager, [geofence.buildingId]);
      // Devices already inside are not entered (unless initial_trigger): creation is silent.
      await this.changeHooks.run(manager, { organizationId: geofence.organizationId, geofenceId: geofence.id, reason: 'fence_created', at: now.getTime() });
      return new Versioned(toGeofenceResponse(geofence), geofence.version);
    });
  }

  async update(principal: Principal, id: string, dto: UpdateGeofenceDto, ifMatch?: number[]): Promise<Versioned<GeofenceResponseDto>> {
    const geometric = dto.geometric === undefined ? undefined : this.checkedRing(dto.geometric);
    // Sanitized before the transaction: a long text goes to the sanitizer worker.
    const sentInfo = dto.info ?? dto.description;
    const info = sentInfo === undefined ? undefined : await this.sanitizer.sanitizeRichText(sentInfo, dto.info === undefined ? 'description' : 'info');
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const geofence = await this.findOwned(principal, id, manager, 'update');
        assertVersionMatches(geofence.version, ifMatch);
        if (geofence.deleted) throw ApiError.conflict('The geofence is deleted');
        const buildingId = dto.building_id ?? geofence.buildingId;
        const floorId = dto.floor_id ?? geofence.floorId;
        if (buildingId !== geofence.buildingId || floorId !== geofence.floorId) await this.checkPlacement(principal, buildingId, floorId, manager);
        const changes: Partial<Geofence> = {
          ...(dto.name !== undefined && { name: dto.name, nameLower: dto.name.toLowerCase() }),
          ...(dto.code !== undefined && { code: dto.code }),
          ...(info !== undefined && { info }),
          ...(dto.type !== undefined && { type: dto.type }),
          ...(geometric !== undefined && { geometric }),
          ...(dto.custom_fields !== undefined && { customFields: dto.custom_fields }),
          buildingId,
          floorId,
          updatedAt: new Date(),
        };
        const reshaped = geometric !== undefined || floorId !== geofence.floorId;
        const change = { organizationId: geofence.organizationId, geofenceId: geofence.id, reason: 'fence_changed' as const, at: Date.now() };
        if (reshaped) await this.changeHooks.runBefore(manager, change);
        if (!(await updateIfVersion(manager, Geofence, geofence, changes))) return false;
        await this.revisions.bump(manager, [geofence.buildingId, buildingId]);
        // Its occupants were inside the old shape: they exit, in this transaction (contract 7.2).
        if (reshaped) await this.changeHooks.run(manager, { ...change, at: Date.now() });
        const updated = { ...geofence, ...changes, version: geofence.version + 1 };
        return new Versioned(toGeofenceResponse(updated), updated.version);
      }),
    );
  }

  /** Soft delete: the geofence stays readable by id with `deleted: true`. Deleting twice is fine. */
  async remove(principal: Principal, id: string): Promise<void> {
    await retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const geofence = await this.findOwned(principal, id, manager, 'update');
        if (geofence.deleted) return true;
        const change = { organizationId: geofence.organizationId, geofenceId: geofence.id, reason: 'fence_deleted' as const, at: Date.now() };
        await this.changeHooks.runBefore(manager, change);
        if (!(await updateIfVersion(manager, Geofence, geofence, { deleted: true, updatedAt: new Date() }))) return false;
        await this.revisions.bump(manager, [geofence.buildingId]);
        await this.changeHooks.run(manager, { ...change, at: Date.now() });
        return true;
      }),
    );
  }

  /**
   * Undoes a delete: the geofence is live again, as if created now (devices already inside are
   * not entered unless `initial_trigger`). Its floor must still exist. Restoring a live one is fine.
   */
  async restore(principal: Principal, id: string): Promise<Versioned<GeofenceResponseDto>> {
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const geofence = await this.findOwned(principal, id, manager, 'update');
        if (!geofence.deleted) return new Versioned(toGeofenceResponse(geofence), geofence.version);
        if (!(await this.floors.exists(principal, geofence.floorId, manager))) {
          throw ApiError.conflict('The geofence cannot be restored: its floor (or building) was deleted');
        }
        const changes: Partial<Geofence> = { deleted: false, updatedAt: new Date() };
        if (!(await updateIfVersion(manager, Geofence, geofence, changes))) return false;
        await this.revisions.bump(manager, [geofence.buildingId]);
        await this.changeHooks.run(manager, { organizationId: geofence.organizationId, geofenceId: geofence.id, reason: 'fence_created', at: Date.now() });
        const restored = { ...geofence, ...changes, version: geofence.version + 1 };
        return new Versioned(toGeofenceResponse(restored), restored.version);
      }),
    );
  }

  /** With `update`, the row stays locked until the transaction ends, so concurrent writers take turns. */
  /**
   * Geofences named in a request body (filters, lists): 422 naming the field and each id that is
   * not a live fence the caller sees (unknown, deleted, another organization's or another
   * building's alike). One query.
   */
  async assertAllReferenced(principal: Principal, ids: readonly string[], field: string): Promise<void> {
    if (ids.length === 0) return;
    const unique = [...new Set(ids)];
    const found = await this.geofences.find({ select: { id: true, buildingId: true }, where: { id: In(unique), organizationId: principal.organizationId, deleted: false } });
    const visible = new Set(found.filter((g) => canSeeBuilding(principal, g.buildingId)).map((g) => g.id));
    const missing = unique.filter((id) => !visible.has(id));
    if (missing.length > 0) {
      throw ApiError.validation(
        'A referenced geofence does not exist',
        missing.map((id) => ({ message: `geofence ${id} does not exist`, code: 'not_found', fields: field, value: id })),
      );
    }
  }

  private async findOwned(principal: Principal, id: string, manager: EntityManager = this.geofences.manager, lock?: RowLock): Promise<Geofence> {
    const geofence = await manager.findOne(Geofence, { where: { id, organizationId: principal.organizationId }, ...lockOptions(manager, lock) });
    if (!geofence || !canSeeBuilding(principal, geofence.buildingId)) throw ApiError.notFound('Geofence', id);
    return geofence;
  }

  private checkedRing(value: unknown): LatLng[] {
    const errors = validateRing(value);
    if (errors.length > 0) throw ApiError.validation('The geofence is not valid', errors);
    return value as LatLng[];
  }

  /** The floor must be in the building, and both in the caller's organization. */
  private async checkPlacement(principal: Principal, buildingId: number, floorId: number, manager: EntityManager): Promise<void> {
    await this.buildings.findReferenced(principal, buildingId, 'building_id', manager);
    const floor = await this.floors.findReferenced(principal, floorId, 'floor_id', manager);
    if (floor.buildingId !== buildingId) {
      const error: FieldError = { message: 'the floor is not in the given building', code: 'invalid', fields: 'floor_id', value: floorId };
      throw ApiError.validation('The geofence is not valid', [error]);
    }
  }
}
