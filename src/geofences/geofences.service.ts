import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Brackets, EntityManager, Repository } from 'typeorm';
import { canSeeBuilding } from '../auth/building-scope';
import { Principal } from '../auth/principal';
import { BuildingRevisions } from '../buildings/building-revisions';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError, FieldError } from '../common/errors/api-error';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../common/database/optimistic';
import { LatLng, validateRing } from '../common/geometry/polygon';
import { sanitizeRichText } from '../common/html/sanitize';
import { Versioned } from '../common/http/versioned';
import { Page, pageWindow, parseSort, toPage } from '../common/pagination/pagination';
import { PreparedQueries, PreparedQuery } from '../database/prepared-queries';
import { TransactionRunner } from '../database/transactions';
import { FloorsService } from '../floors/floors.service';
import { Geofence } from './geofence.entity';
import { toGeofenceResponse } from './geofence.mapper';
import { CreateGeofenceDto, GeofenceResponseDto, SearchGeofencesQuery, UpdateGeofenceDto } from './geofences.dto';

const SORTABLE: Record<string, string> = {
  name: 'g.nameLower',
  code: 'g.code',
  created_at: 'g.createdAt',
  updated_at: 'g.updatedAt',
};

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (character) => `\\${character}`);

@Injectable()
export class GeofencesService {
  constructor(
    @InjectRepository(Geofence) private readonly geofences: Repository<Geofence>,
    private readonly buildings: BuildingsService,
    private readonly floors: FloorsService,
    private readonly revisions: BuildingRevisions,
    private readonly transactions: TransactionRunner,
    queries: PreparedQueries,
  ) {
    this.findById = queries.prepare('SELECT * FROM "geofences" WHERE "id" = :id AND "organization_id" = :organizationId');
    this.hydrate = queries.hydrator(Geofence);
  }

  private readonly findById: PreparedQuery<Record<string, unknown>>;
  private readonly hydrate: (row: Record<string, unknown>) => Geofence;

  /** Deleted geofences are still readable by id. The hottest read: one prepared query. */
  async get(principal: Principal, id: string): Promise<Versioned<GeofenceResponseDto>> {
    const [row] = await this.findById({ id, organizationId: principal.organizationId });
    const geofence = row ? this.hydrate(row) : undefined;
    if (!geofence || !canSeeBuilding(principal, geofence.buildingId)) throw ApiError.notFound('Geofence', id);
    return new Versioned(toGeofenceResponse(geofence), geofence.version);
  }

  /** One count and one page query, each on an index of the organization's geofences. */
  async search(principal: Principal, query: SearchGeofencesQuery): Promise<Page<GeofenceResponseDto>> {
    const window = pageWindow(query);
    const sort = parseSort(query.sort, SORTABLE, { column: 'g.createdAt', direction: 'ASC' });
    if (!sort) throw ApiError.badRequest(`sort must be one of ${Object.keys(SORTABLE).join(', ')}, optionally prefixed with -`);
    // The official client always sends its own organization; another one has nothing for the caller.
    if (query.organization_id !== undefined && query.organization_id !== principal.organizationId) return toPage([], 0, window);

    const builder = this.geofences
      .createQueryBuilder('g')
      .where('g.organizationId = :organizationId', { organizationId: principal.organizationId })
      .andWhere('g.deleted = :deleted', { deleted: query.deleted ?? false });
    if (query.building_ids?.length) builder.andWhere('g.buildingId IN (:...buildingIds)', { buildingIds: query.building_ids });
    if (principal.buildingIds !== null) builder.andWhere('g.buildingId IN (:...visibleBuildingIds)', { visibleBuildingIds: principal.buildingIds });
    if (query.floor_ids?.length) builder.andWhere('g.floorId IN (:...floorIds)', { floorIds: query.floor_ids });
    if (query.code !== undefined) builder.andWhere('g.code = :code', { code: query.code });
    if (query.name) {
      builder.andWhere(new Brackets((where) => where.where("g.nameLower LIKE :name ESCAPE '\\'", { name: `%${escapeLike(query.name!.toLowerCase())}%` })));
    }
    const [rows, total] = await builder
      .orderBy(sort.column, sort.direction)
      .addOrderBy('g.id', 'ASC')
      .skip(window.offset)
      .take(window.size)
      .getManyAndCount();
    return toPage(rows.map(toGeofenceResponse), total, window);
  }

  async create(principal: Principal, dto: CreateGeofenceDto): Promise<Versioned<GeofenceResponseDto>> {
    const geometric = this.checkedRing(dto.geometric);
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
        info: sanitizeRichText(dto.info ?? dto.description ?? ''),
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
      return new Versioned(toGeofenceResponse(geofence), geofence.version);
    });
  }

  async update(principal: Principal, id: string, dto: UpdateGeofenceDto, ifMatch?: number[]): Promise<Versioned<GeofenceResponseDto>> {
    const geometric = dto.geometric === undefined ? undefined : this.checkedRing(dto.geometric);
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const geofence = await this.findOwned(principal, id, manager);
        assertVersionMatches(geofence.version, ifMatch);
        if (geofence.deleted) throw ApiError.conflict('The geofence is deleted');
        const buildingId = dto.building_id ?? geofence.buildingId;
        const floorId = dto.floor_id ?? geofence.floorId;
        if (buildingId !== geofence.buildingId || floorId !== geofence.floorId) await this.checkPlacement(principal, buildingId, floorId, manager);
        const info = dto.info ?? dto.description;
        const changes: Partial<Geofence> = {
          ...(dto.name !== undefined && { name: dto.name, nameLower: dto.name.toLowerCase() }),
          ...(dto.code !== undefined && { code: dto.code }),
          ...(info !== undefined && { info: sanitizeRichText(info) }),
          ...(dto.type !== undefined && { type: dto.type }),
          ...(geometric !== undefined && { geometric }),
          ...(dto.custom_fields !== undefined && { customFields: dto.custom_fields }),
          buildingId,
          floorId,
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, Geofence, geofence, changes))) return false;
        await this.revisions.bump(manager, [geofence.buildingId, buildingId]);
        const updated = { ...geofence, ...changes, version: geofence.version + 1 };
        return new Versioned(toGeofenceResponse(updated), updated.version);
      }),
    );
  }

  /** Soft delete: the geofence stays readable by id with `deleted: true`. Deleting twice is fine. */
  async remove(principal: Principal, id: string): Promise<void> {
    await retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const geofence = await this.findOwned(principal, id, manager);
        if (geofence.deleted) return true;
        if (!(await updateIfVersion(manager, Geofence, geofence, { deleted: true, updatedAt: new Date() }))) return false;
        await this.revisions.bump(manager, [geofence.buildingId]);
        return true;
      }),
    );
  }

  private async findOwned(principal: Principal, id: string, manager: EntityManager = this.geofences.manager): Promise<Geofence> {
    const geofence = await manager.findOneBy(Geofence, { id, organizationId: principal.organizationId });
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
