import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Not, Repository } from 'typeorm';
import { buildingCondition, canSeeBuilding, onlyDefined } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { releaseDependents } from '../buildings/building-dependents';
import { BuildingRevisions } from '../buildings/building-revisions';
import { BuildingsService, referenceNotFound } from '../buildings/buildings.service';
import { ApiError } from '../../common/errors/api-error';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../../common/database/optimistic';
import { lockOptions, RowLock } from '../../database/row-locks';
import { Versioned } from '../../common/http/versioned';
import { TransactionRunner } from '../../database/transactions';
import { ImagesService } from '../../images/images.service';
import { Floor } from './floor.entity';
import { toFloorResponse } from './floor.mapper';
import { CreateFloorDto, FloorResponseDto, UpdateFloorDto } from './floors.dto';

const levelTaken = (level: number) =>
  ApiError.conflict(`The building already has a floor at level ${level}`, [{ message: 'already taken in this building', code: 'taken', fields: 'level', value: level }]);

@Injectable()
export class FloorsService {
  constructor(
    @InjectRepository(Floor) private readonly floors: Repository<Floor>,
    private readonly buildings: BuildingsService,
    private readonly images: ImagesService,
    private readonly revisions: BuildingRevisions,
    private readonly transactions: TransactionRunner,
  ) {}

  /** A live floor of the caller's organization, or 404. */
  async findOwned(principal: Principal, id: number, manager: EntityManager = this.floors.manager, lock?: RowLock): Promise<Floor> {
    const floor = await manager.findOne(Floor, { where: { id, organizationId: principal.organizationId, deletedAt: IsNull() }, ...lockOptions(manager, lock) });
    if (!floor || !canSeeBuilding(principal, floor.buildingId)) throw ApiError.notFound('Floor', id);
    return floor;
  }

  async list(principal: Principal, buildingId?: number): Promise<FloorResponseDto[]> {
    const building = buildingCondition(principal, buildingId);
    if (building === null) return [];
    const floors = await this.floors.find({
      where: { organizationId: principal.organizationId, deletedAt: IsNull(), ...onlyDefined({ buildingId: building }) },
      order: { buildingId: 'ASC', level: 'ASC', id: 'ASC' },
    });
    return floors.map(toFloorResponse);
  }

  /** Floors of one building; 404 when the building is not the caller's. */
  async listForBuilding(principal: Principal, buildingId: number): Promise<FloorResponseDto[]> {
    await this.buildings.findOwned(principal, buildingId);
    return this.list(principal, buildingId);
  }

  async get(principal: Principal, id: number): Promise<Versioned<FloorResponseDto>> {
    const floor = await this.findOwned(principal, id);
    return new Versioned(toFloorResponse(floor), floor.version);
  }

  async create(principal: Principal, dto: CreateFloorDto): Promise<Versioned<FloorResponseDto>> {
    return this.transactions.run(async (manager) => {
      const building = await this.buildings.findReferenced(principal, dto.building_id, 'building_id', manager);
      if (await manager.existsBy(Floor, { buildingId: building.id, level: dto.level, deletedAt: IsNull() })) throw levelTaken(dto.level);
      if (dto.map_id) await this.images.assertReferenced(principal, dto.map_id, 'map_id', manager);
      const now = new Date();
      const floor = manager.create(Floor, {
        organizationId: principal.organizationId,
        buildingId: building.id,
        level: dto.level,
        levelHeight: dto.level_height ?? null,
        name: dto.name ?? '',
        mapId: dto.map_id ?? '',
        scale: dto.scale ?? null,
        customFields: dto.custom_fields ?? [],
        version: 1,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await manager.insert(Floor, floor);
      await this.revisions.bump(manager, [floor.buildingId]);
      return new Versioned(toFloorResponse(floor), floor.version);
    });
  }

  async update(principal: Principal, id: number, dto: UpdateFloorDto, ifMatch?: number[]): Promise<Versioned<FloorResponseDto>> {
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const floor = await this.findOwned(principal, id, manager, 'update');
        assertVersionMatches(floor.version, ifMatch);
        if (dto.building_id !== undefined && dto.building_id !== floor.buildingId) {
          throw ApiError.validation('The floor is not valid', [
            { message: 'a floor cannot move to another building', code: 'immutable', fields: 'building_id', value: dto.building_id },
          ]);
        }
        if (dto.level !== undefined && dto.level !== floor.level) {
          const taken = await manager.existsBy(Floor, { buildingId: floor.buildingId, level: dto.level, deletedAt: IsNull(), id: Not(floor.id) });
          if (taken) throw levelTaken(dto.level);
        }
        if (dto.map_id) await this.images.assertReferenced(principal, dto.map_id, 'map_id', manager);
        const changes: Partial<Floor> = {
          ...(dto.level !== undefined && { level: dto.level }),
          ...(dto.level_height !== undefined && { levelHeight: dto.level_height }),
          ...(dto.name !== undefined && { name: dto.name }),
          ...(dto.map_id !== undefined && { mapId: dto.map_id }),
          ...(dto.scale !== undefined && { scale: dto.scale }),
          ...(dto.custom_fields !== undefined && { customFields: dto.custom_fields }),
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, Floor, floor, changes))) return false;
        await this.revisions.bump(manager, [floor.buildingId]);
        const updated = { ...floor, ...changes, version: floor.version + 1 };
        return new Versioned(toFloorResponse(updated), updated.version);
      }),
    );
  }

  /** What still stands on the floor decides between 409 and cascading (see releaseDependents). */
  async remove(principal: Principal, id: number, cascade: boolean): Promise<void> {
    await this.transactions.run(async (manager) => {
      const floor = await this.findOwned(principal, id, manager, 'update');
      const now = new Date();
      await releaseDependents(manager, { organizationId: principal.organizationId, buildingId: floor.buildingId, floorId: floor.id }, cascade, now);
      await manager.update(Floor, { id: floor.id }, { deletedAt: now, updatedAt: now });
      await this.revisions.bump(manager, [floor.buildingId]);
    });
  }

  /** Whether the floor still stands (not deleted, nor its building), share-locked like findReferenced. */
  async exists(principal: Principal, id: number, manager: EntityManager): Promise<boolean> {
    const floor = await manager.findOne(Floor, { where: { id, organizationId: principal.organizationId, deletedAt: IsNull() }, ...lockOptions(manager, 'share') });
    return floor !== null && canSeeBuilding(principal, floor.buildingId);
  }

  /** A floor named in a request body: 422 naming the field when it is not the caller's. Share-locked. */
  async findReferenced(principal: Principal, id: number, field: string, manager: EntityManager): Promise<Floor> {
    const floor = await manager.findOne(Floor, { where: { id, organizationId: principal.organizationId, deletedAt: IsNull() }, ...lockOptions(manager, 'share') });
    if (!floor || !canSeeBuilding(principal, floor.buildingId)) throw referenceNotFound('floor', field, id);
    return floor;
  }
}
