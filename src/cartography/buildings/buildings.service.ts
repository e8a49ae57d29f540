import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Repository } from 'typeorm';
import { canSeeBuilding, onlyDefined, visibleBuildings } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../../common/database/optimistic';
import { lockOptions, RowLock } from '../../database/row-locks';
import { SanitizerPool } from '../../common/html/sanitizer-pool';
import { RawJson, Versioned } from '../../common/http/versioned';
import { TransactionRunner } from '../../database/transactions';
import { Floor } from '../floors/floor.entity';
import { toFloorResponse } from '../floors/floor.mapper';
import { Geofence } from '../geofences/geofence.entity';
import { toGeofenceResponse } from '../geofences/geofence.mapper';
import { PathGraph } from '../paths/path-graph.entity';
import { toPathLinkResponse } from '../paths/path-graph.mapper';
import { Poi } from '../pois/poi.entity';
import { renderPois } from '../pois/poi-rendering';
import { releaseDependents } from './building-dependents';
import { BuildingDocumentCache } from './building-document.cache';
import { BuildingRevisions } from './building-revisions';
import { Building } from './building.entity';
import { toBuildingResponse } from './building.mapper';
import { BuildingDetailResponseDto, BuildingResponseDto, CreateBuildingDto, UpdateBuildingDto } from './buildings.dto';

@Injectable()
export class BuildingsService {
  constructor(
    @InjectRepository(Building) private readonly buildings: Repository<Building>,
    private readonly transactions: TransactionRunner,
    private readonly sanitizer: SanitizerPool,
    private readonly revisions: BuildingRevisions,
    private readonly documents: BuildingDocumentCache,
  ) {}

  /** A live building of the caller's organization, or 404. */
  async findOwned(principal: Principal, id: number, manager: EntityManager = this.buildings.manager, lock?: RowLock): Promise<Building> {
    const building = await manager.findOne(Building, {
      where: { id, organizationId: principal.organizationId, deletedAt: IsNull() },
      ...lockOptions(manager, lock),
    });
    if (!building || !canSeeBuilding(principal, building.id)) throw ApiError.notFound('Building', id);
    return building;
  }

  /**
   * A live building of the caller's organization, or 404, as {@link findOwned} decides, without the
   * entity: its version and content revision in one prepared read, for caches kept per building
   * that need the entity only to rebuild (directions' route graph).
   */
  async findOwnedRevision(principal: Principal, id: number): Promise<{ id: number; version: number; revision: number }> {
    const owned = await this.revisions.owned(id, principal.organizationId);
    if (!owned || !canSeeBuilding(principal, id)) throw ApiError.notFound('Building', id);
    return { id, ...owned };
  }

  /**
   * A building named in a request body: 422 naming the field when it is not the caller's.
   * Share-locked, so that it cannot be deleted before the new child is committed.
   */
  async findReferenced(principal: Principal, id: number, field: string, manager: EntityManager): Promise<Building> {
    const building = await manager.findOne(Building, {
      where: { id, organizationId: principal.organizationId, deletedAt: IsNull() },
      ...lockOptions(manager, 'share'),
    });
    if (!building || !canSeeBuilding(principal, building.id)) throw referenceNotFound('building', field, id);
    return building;
  }

  /** Buildings named in a request body (filters, lists): 422 naming the field and each id that is not one the caller sees. One query. */
  async assertAllReferenced(principal: Principal, ids: readonly number[], field: string): Promise<void> {
    if (ids.length === 0) return;
    const unique = [...new Set(ids)];
    const found = await this.buildings.find({ select: { id: true }, where: { id: In(unique), organizationId: principal.organizationId, deletedAt: IsNull() } });
    const visible = new Set(found.filter((b) => canSeeBuilding(principal, b.id)).map((b) => b.id));
    const missing = unique.filter((id) => !visible.has(id));
    if (missing.length > 0) throw referenceNotFound('building', field, ...missing);
  }

  async list(principal: Principal): Promise<BuildingResponseDto[]> {
    const buildings = await this.buildings.find({
      where: { organizationId: principal.organizationId, deletedAt: IsNull(), ...onlyDefined({ id: visibleBuildings(principal) }) },
      order: { id: 'ASC' },
    });
    return buildings.map(toBuildingResponse);
  }

  /**
   * The full building document: floors, POIs, live geofences and paths. Built in seven
   * queries whatever the building's size, then served from the cache for as long as the
   * building's version and revision stay the same (two queries).
   */
  async getDetail(principal: Principal, id: number): Promise<Versioned<RawJson>> {
    const building = await this.findOwned(principal, id);
    // Read before the document, so a cached copy is never older than the revision it carries.
    const revision = await this.revisions.current(id);
    const body = await this.documents.getOrBuild(id, building.version, revision, async () => Buffer.from(JSON.stringify(await this.buildDocument(principal, building))));
    // The document changes with its floors, POIs, geofences and paths too: the tag says both.
    return new Versioned(new RawJson(body), `${building.version}.${revision}`);
  }

  private async buildDocument(principal: Principal, building: Building): Promise<BuildingDetailResponseDto> {
    const scope = { buildingId: building.id, organizationId: principal.organizationId };
    const manager = this.buildings.manager;
    const [floors, geofences, pois, graph] = await Promise.all([
      manager.find(Floor, { where: { ...scope, deletedAt: IsNull() }, order: { level: 'ASC', id: 'ASC' } }),
      manager.find(Geofence, { where: { ...scope, deleted: false }, order: { createdAt: 'ASC', id: 'ASC' } }),
      manager.find(Poi, { where: scope, order: { id: 'ASC' } }),
      manager.findOneBy(PathGraph, scope),
    ]);
    const renderedPois = await renderPois(manager, pois);
    return {
      ...toBuildingResponse(building),
      floors: floors.map(toFloorResponse),
      indoor_pois: renderedPois.filter((poi) => poi.type === 'indoor'),
      outdoor_pois: renderedPois.filter((poi) => poi.type === 'outdoor'),
      geofences: geofences.map(toGeofenceResponse),
      paths: graph ? { nodes: graph.nodes, links: graph.links.map(toPathLinkResponse) } : {},
      events: [],
    };
  }

  async create(principal: Principal, dto: CreateBuildingDto): Promise<Versioned<BuildingResponseDto>> {
    // A user restricted to some buildings could not see a new one: only unrestricted callers create them.
    if (principal.buildingIds !== null) throw ApiError.forbidden('Users restricted to some buildings cannot create buildings');
    const info = await this.sanitizer.sanitizeRichText(dto.info ?? '');
    const now = new Date();
    const building = this.buildings.create({
      organizationId: principal.organizationId,
      createdBy: principal.userId,
      name: dto.name,
      description: dto.description ?? '',
      info,
      latitude: dto.location.lat,
      longitude: dto.location.lng,
      width: dto.dimensions.width,
      length: dto.dimensions.length,
      rotation: dto.rotation ?? 0,
      customFields: dto.custom_fields ?? [],
      version: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await this.transactions.run((manager) => manager.insert(Building, building));
    return new Versioned(toBuildingResponse(building), building.version);
  }

  async update(principal: Principal, id: number, dto: UpdateBuildingDto, ifMatch?: number[]): Promise<Versioned<BuildingResponseDto>> {
    // Sanitized before the transaction: a long text goes to the sanitizer worker.
    const info = dto.info === undefined ? undefined : await this.sanitizer.sanitizeRichText(dto.info);
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const building = await this.findOwned(principal, id, manager, 'update');
        assertVersionMatches(building.version, ifMatch);
        const changes: Partial<Building> = {
          ...(dto.name !== undefined && { name: dto.name }),
          ...(dto.description !== undefined && { description: dto.description }),
          ...(info !== undefined && { info }),
          ...(dto.location !== undefined && { latitude: dto.location.lat, longitude: dto.location.lng }),
          ...(dto.dimensions !== undefined && { width: dto.dimensions.width, length: dto.dimensions.length }),
          ...(dto.rotation !== undefined && { rotation: dto.rotation }),
          ...(dto.custom_fields !== undefined && { customFields: dto.custom_fields }),
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, Building, building, changes))) return false;
        const updated = { ...building, ...changes, version: building.version + 1 };
        return new Versioned(toBuildingResponse(updated), updated.version);
      }),
    );
  }

  /**
   * Deletes a building with its floors; what still belongs to it decides between 409 and
   * cascading (see releaseDependents).
   */
  async remove(principal: Principal, id: number, cascade: boolean): Promise<void> {
    await this.transactions.run(async (manager) => {
      const building = await this.findOwned(principal, id, manager, 'update');
      const scope = { buildingId: building.id, organizationId: principal.organizationId };
      const now = new Date();
      await releaseDependents(manager, scope, cascade, now);
      await manager.update(Floor, { ...scope, deletedAt: IsNull() }, { deletedAt: now, updatedAt: now });
      await manager.update(Building, { id: building.id }, { deletedAt: now, updatedAt: now });
      // Its geofences were soft-deleted: whoever keeps their bodies hears it.
      await this.revisions.bump(manager, [building.id]);
    });
  }
}

/** 422 naming `field` and each id that names no `entity` of the caller's. */
export function referenceNotFound(entity: string, field: string, ...ids: number[]): ApiError {
  return ApiError.validation(
    `The ${field} does not name a ${entity} of your organization`,
    ids.map((id) => ({ message: `no such ${entity}`, code: 'not_found', fields: field, value: id })),
  );
}
