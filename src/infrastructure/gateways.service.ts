import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import { canSeeBuilding } from '../access/building-scope';
import { Principal } from '../access/principal';
import { Building } from '../cartography/buildings/building.entity';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { Floor } from '../cartography/floors/floor.entity';
import { FloorsService } from '../cartography/floors/floors.service';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../common/database/optimistic';
import { ApiError, FieldError } from '../common/errors/api-error';
import { Versioned } from '../common/http/versioned';
import { flattenValidationErrors } from '../common/validation/validation.pipe';
import { lockForUpdate } from '../database/row-locks';
import { TransactionRunner } from '../database/transactions';
import { TagObservationsRepository } from '../positions/tag-observations.repository';
import { Gateway } from './gateway.entity';
import { GatewayHealthRepository, RATE_WINDOW_MS } from './gateway-health.repository';
import { toGatewayHealth, toGatewayResponse } from './gateway.mapper';
import { fromGatewaysCsv, MAX_GATEWAYS_PER_BUILDING, toGatewaysCsv } from './gateways.csv';
import { GatewayHealthDto, GatewayInputDto, GatewayResponseDto, GatewaysQuery, UpdateGatewayDto } from './gateways.dto';
import { InfrastructureService } from './infrastructure.service';
import { placeTransmitter } from './transmitter-kinds';

const INSERT_BATCH = 500;

const taken = (hardwareId: string, fields: string): ApiError =>
  ApiError.conflict(`The organization already has the gateway ${hardwareId}`, [{ message: 'already registered in this organization', code: 'taken', fields }]);

const invalid = (errors: FieldError[]): ApiError => ApiError.validation('The gateway is not valid', errors);

/** Gateways as infrastructure: CRUD, the building's list and its CSV, and each gateway's health. */
@Injectable()
export class GatewaysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly buildings: BuildingsService,
    private readonly floors: FloorsService,
    private readonly transactions: TransactionRunner,
    private readonly infrastructure: InfrastructureService,
    private readonly health: GatewayHealthRepository,
    private readonly observations: TagObservationsRepository,
  ) {}

  async list(principal: Principal, query: GatewaysQuery): Promise<GatewayResponseDto[]> {
    const building = await this.buildings.findOwned(principal, query.building_id);
    return this.render(this.dataSource.manager, building, query.floor_id);
  }

  async exportCsv(principal: Principal, query: GatewaysQuery): Promise<string> {
    return toGatewaysCsv(await this.list(principal, query));
  }

  async get(principal: Principal, id: number): Promise<Versioned<GatewayResponseDto>> {
    const row = await this.findOwned(principal, id, this.dataSource.manager);
    return new Versioned(toGatewayResponse(row), row.version);
  }

  async create(principal: Principal, dto: GatewayInputDto): Promise<Versioned<GatewayResponseDto>> {
    return this.transactions.run(async (manager) => {
      const floor = await this.floors.findReferenced(principal, dto.floor_id, 'floor_id', manager);
      if (dto.building_id !== undefined && dto.building_id !== floor.buildingId) {
        throw invalid([{ message: 'the floor is not in this building', code: 'invalid', fields: 'building_id', value: dto.building_id }]);
      }
      const building = await this.buildings.findReferenced(principal, floor.buildingId, 'floor_id', manager);
      const placement = placeTransmitter(building, dto, '');
      if (Array.isArray(placement)) throw invalid(placement);
      if (await manager.existsBy(Gateway, { organizationId: principal.organizationId, hardwareId: dto.hardware_id })) throw taken(dto.hardware_id, 'hardware_id');
      const now = new Date();
      const row = manager.create(Gateway, {
        ...placement,
        hardwareId: dto.hardware_id,
        format: dto.format,
        name: dto.name ?? '',
        heightM: dto.height_m ?? null,
        organizationId: principal.organizationId,
        buildingId: building.id,
        floorId: floor.id,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      await manager.insert(Gateway, row);
      return new Versioned(toGatewayResponse(row), row.version);
    });
  }

  /** Partial: the keys sent change. A position is sent whole (x and y, or lat and lng); another floor must be of the same building. */
  async update(principal: Principal, id: number, dto: UpdateGatewayDto, ifMatch?: number[]): Promise<Versioned<GatewayResponseDto>> {
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const row = await this.findOwned(principal, id, manager);
        assertVersionMatches(row.version, ifMatch);
        if (dto.building_id !== undefined && dto.building_id !== row.buildingId) {
          throw invalid([{ message: 'a gateway stays in its building (delete it and add it to the other)', code: 'invalid', fields: 'building_id', value: dto.building_id }]);
        }
        let floorId = row.floorId;
        if (dto.floor_id !== undefined && dto.floor_id !== row.floorId) {
          const floor = await this.floors.findReferenced(principal, dto.floor_id, 'floor_id', manager);
          if (floor.buildingId !== row.buildingId) throw invalid([{ message: "the floor is not in the gateway's building", code: 'invalid', fields: 'floor_id', value: floor.id }]);
          floorId = floor.id;
        }
        let placement = {};
        if (dto.x !== undefined || dto.y !== undefined || dto.lat !== undefined || dto.lng !== undefined) {
          const building = await this.buildings.findReferenced(principal, row.buildingId, 'floor_id', manager);
          const placed = placeTransmitter(building, dto, '');
          if (Array.isArray(placed)) throw invalid(placed);
          placement = placed;
        }
        if (dto.hardware_id !== undefined && dto.hardware_id !== row.hardwareId) {
          if (await manager.existsBy(Gateway, { organizationId: row.organizationId, hardwareId: dto.hardware_id, id: Not(row.id) })) throw taken(dto.hardware_id, 'hardware_id');
        }
        const changes: Partial<Gateway> = {
          ...(dto.hardware_id !== undefined && { hardwareId: dto.hardware_id }),
          ...(dto.format !== undefined && { format: dto.format }),
          ...(dto.name !== undefined && { name: dto.name }),
          ...(dto.height_m !== undefined && { heightM: dto.height_m }),
          ...placement,
          floorId,
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, Gateway, row, changes))) return false;
        const updated = { ...row, ...changes, version: row.version + 1 };
        return new Versioned(toGatewayResponse(updated), updated.version);
      }),
    );
  }

  /** The gateway, its health and its observations (a tag's window never counts a gateway that is gone). */
  async remove(principal: Principal, id: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      const row = await this.findOwned(principal, id, manager, true);
      await this.removeRows(manager, [row.id]);
    });
  }

  /** `PUT ?building_id=` with a JSON array of gateways: the building's set replaced; a gateway already there (same hardware_id) keeps its id. */
  async replace(principal: Principal, query: GatewaysQuery, body: unknown): Promise<GatewayResponseDto[]> {
    if (!Array.isArray(body))
      throw ApiError.validation('The body must be an array of gateways', [{ message: 'must be a JSON array (send [] to remove every gateway)', code: 'invalid', fields: 'body' }]);
    return this.replaceValidated(
      principal,
      query.building_id,
      body,
      body.map((_item, index) => `[${index}].`),
      'geo',
    );
  }

  async replaceFromCsv(principal: Principal, query: GatewaysQuery, text: unknown): Promise<GatewayResponseDto[]> {
    const { items, prefixes } = fromGatewaysCsv(text);
    return this.replaceValidated(principal, query.building_id, items, prefixes, 'cartesian');
  }

  async healthOf(principal: Principal, id: number): Promise<GatewayHealthDto> {
    const manager = this.dataSource.manager;
    const row = await this.findOwned(principal, id, manager);
    const now = Date.now();
    const [health, tagsHeard] = await Promise.all([this.health.read(manager, row.id), this.health.tagsHeard(manager, row.id, now - RATE_WINDOW_MS)]);
    return toGatewayHealth(row, health, tagsHeard, now);
  }

  /** One query: the row of the caller's organization, on a live floor of a live building it may see. */
  private async findOwned(principal: Principal, id: number, manager: EntityManager, lock = false): Promise<Gateway> {
    const query = manager
      .createQueryBuilder(Gateway, 'gateway')
      .innerJoin(Floor, 'floor', 'floor.id = gateway.floorId AND floor.deletedAt IS NULL')
      .innerJoin(Building, 'building', 'building.id = gateway.buildingId AND building.deletedAt IS NULL')
      .where('gateway.id = :id AND gateway.organizationId = :organizationId', { id, organizationId: principal.organizationId });
    if (lock) lockForUpdate(query, manager, 'gateway');
    const row = await query.getOne();
    if (!row || !canSeeBuilding(principal, row.buildingId)) throw ApiError.notFound('Gateway', id);
    return row;
  }

  private async render(manager: EntityManager, building: Building, floorId?: number): Promise<GatewayResponseDto[]> {
    const floorIds = (await this.infrastructure.liveFloorIds(manager, building)).filter((id) => floorId === undefined || id === floorId);
    if (floorIds.length === 0) return [];
    const rows = await manager.find(Gateway, { where: { buildingId: building.id, floorId: In(floorIds) }, order: { id: 'ASC' } });
    return rows.map(toGatewayResponse);
  }

  private async removeRows(manager: EntityManager, ids: number[]): Promise<void> {
    for (let start = 0; start < ids.length; start += INSERT_BATCH) {
      const part = ids.slice(start, start + INSERT_BATCH);
      for (const id of part) {
        await this.observations.removeGateway(manager, id);
        await this.health.remove(manager, id);
      }
      await manager.delete(Gateway, { id: In(part) });
    }
  }

  private async replaceValidated(principal: Principal, buildingId: number, list: unknown[], prefixes: string[], prefer: 'geo' | 'cartesian'): Promise<GatewayResponseDto[]> {
    if (list.length > MAX_GATEWAYS_PER_BUILDING)
      throw ApiError.validation(`At most ${MAX_GATEWAYS_PER_BUILDING} gateways per building`, [{ message: 'too many gateways', code: 'invalid', fields: 'body' }]);
    const errors: FieldError[] = [];
    const incoming: Array<{ dto: GatewayInputDto; prefix: string }> = [];
    for (const [index, item] of list.entries()) {
      const prefix = prefixes[index];
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        errors.push({ message: 'must be a JSON object', code: 'invalid', fields: prefix.slice(0, -1) });
        continue;
      }
      const dto = plainToInstance(GatewayInputDto, item);
      const problems = await validate(dto, { whitelist: true, forbidUnknownValues: true });
      if (problems.length > 0) errors.push(...flattenValidationErrors(problems, prefix.slice(0, -1)));
      else incoming.push({ dto, prefix });
    }
    if (errors.length > 0) throw ApiError.validation('Some gateways are not valid; nothing was changed', errors);
    const seen = new Map<string, string>();
    const twice: FieldError[] = [];
    for (const { dto, prefix } of incoming) {
      const first = seen.get(dto.hardware_id);
      if (first !== undefined) twice.push({ message: `the same gateway as ${first.slice(0, -1)}`, code: 'taken', fields: `${prefix}hardware_id` });
      else seen.set(dto.hardware_id, prefix);
    }
    if (twice.length > 0) throw ApiError.conflict('The replacement lists a gateway twice; nothing was changed', twice);

    return this.transactions.run(async (manager) => {
      // Locked: two replacements of one building run one after the other.
      const building = await this.buildings.findOwned(principal, buildingId, manager, 'update');
      const floors = new Set(await this.infrastructure.liveFloorIds(manager, building));
      const existing = await manager.find(Gateway, { where: { organizationId: building.organizationId } });
      const byHardwareId = new Map(existing.map((row) => [row.hardwareId, row]));
      const wanted: Array<{ fields: Partial<Gateway>; row?: Gateway }> = [];
      const conflicts: FieldError[] = [];
      for (const { dto, prefix } of incoming) {
        if (!floors.has(dto.floor_id)) {
          errors.push({ message: 'not a floor of this building', code: 'invalid', fields: `${prefix}floor_id`, value: dto.floor_id });
          continue;
        }
        if (dto.building_id !== undefined && dto.building_id !== building.id) {
          errors.push({ message: 'not this building', code: 'invalid', fields: `${prefix}building_id`, value: dto.building_id });
          continue;
        }
        const placement = placeTransmitter(building, dto, prefix, prefer);
        if (Array.isArray(placement)) {
          errors.push(...placement);
          continue;
        }
        const row = byHardwareId.get(dto.hardware_id);
        if (row && row.buildingId !== building.id) {
          conflicts.push({ message: `already registered in building ${row.buildingId}`, code: 'taken', fields: `${prefix}hardware_id` });
          continue;
        }
        wanted.push({ row, fields: { ...placement, floorId: dto.floor_id, hardwareId: dto.hardware_id, format: dto.format, name: dto.name ?? '', heightM: dto.height_m ?? null } });
      }
      if (errors.length > 0) throw ApiError.validation('Some gateways are not valid; nothing was changed', errors);
      if (conflicts.length > 0) throw ApiError.conflict('Some gateways are registered in another building; nothing was changed', conflicts);
      const now = new Date();
      const kept = new Set<number>();
      const inserts: Gateway[] = [];
      for (const { row, fields } of wanted) {
        if (!row) {
          inserts.push(manager.create(Gateway, { ...fields, organizationId: building.organizationId, buildingId: building.id, version: 1, createdAt: now, updatedAt: now }));
          continue;
        }
        kept.add(row.id);
        if (Object.entries(fields).every(([key, value]) => (row as unknown as Record<string, unknown>)[key] === value)) continue;
        await manager.update(Gateway, { id: row.id }, { ...fields, updatedAt: now, version: row.version + 1 });
      }
      await this.removeRows(
        manager,
        existing.filter((row) => row.buildingId === building.id && !kept.has(row.id)).map((row) => row.id),
      );
      for (let start = 0; start < inserts.length; start += INSERT_BATCH) await manager.insert(Gateway, inserts.slice(start, start + INSERT_BATCH));
      return this.render(manager, building);
    });
  }
}
