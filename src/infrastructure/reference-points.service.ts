import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DataSource } from 'typeorm';
import { canSeeBuilding } from '../access/building-scope';
import { Principal } from '../access/principal';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { assertVersionMatches, retryOnConcurrentUpdate } from '../common/database/optimistic';
import { ApiError, FieldError } from '../common/errors/api-error';
import { Versioned } from '../common/http/versioned';
import { flattenValidationErrors } from '../common/validation/validation.pipe';
import { TransactionRunner } from '../database/transactions';
import { FloorsService } from '../cartography/floors/floors.service';
import { InfrastructureService } from './infrastructure.service';
import { RadioModelsService } from './radio-models.service';
import { ReferencePoint } from './reference-point.entity';
import { StoredReadings } from './reference-point-readings';
import { fromReferencePointsCsv, toReferencePointsCsv } from './reference-points.csv';
import { BuildingFloorQuery, ReferencePointInputDto, ReferencePointResponseDto, UpdateReferencePointDto } from './reference-points.dto';
import { toReferencePointResponse } from './reference-points.mapper';
import { ReferencePointsRepository } from './reference-points.repository';
import { placeTransmitter } from './transmitter-kinds';

/** At most this many reference points per replacement. */
export const MAX_REFERENCE_POINTS = 20_000;

const noReadings = (prefix: string): FieldError => ({ message: 'a reference point needs at least one ble or wifi reading', code: 'required', fields: `${prefix}ble` });

function storedReadings(dto: Pick<ReferencePointInputDto, 'ble' | 'wifi'>): StoredReadings {
  return {
    ble: (dto.ble ?? []).map((reading) => ({ uuid: reading.uuid, major: reading.major, minor: reading.minor, rssi: reading.rssi })),
    wifi: (dto.wifi ?? []).map((reading) => ({ bssid: reading.bssid, rssi: reading.rssi })),
  };
}

/**
 * Reference points (issue 31): scans an installer took at known positions, managed like the
 * infrastructure (CRUD, CSV, the building's organization, cartography-write). Every write bumps
 * the building's reference revision in its transaction, so each instance refits the floor's
 * model and its fingerprints before its next scan there.
 */
@Injectable()
export class ReferencePointsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly buildings: BuildingsService,
    private readonly floors: FloorsService,
    private readonly infrastructure: InfrastructureService,
    private readonly transactions: TransactionRunner,
    private readonly points: ReferencePointsRepository,
    private readonly radio: RadioModelsService,
  ) {}

  async list(principal: Principal, query: BuildingFloorQuery): Promise<ReferencePointResponseDto[]> {
    const manager = this.dataSource.manager;
    const building = await this.buildings.findOwned(principal, query.building_id, manager);
    const floorIds = (await this.infrastructure.liveFloorIds(manager, building)).filter((id) => query.floor_id === undefined || id === query.floor_id);
    return (await this.points.listOnFloors(manager, building.id, floorIds)).map(toReferencePointResponse);
  }

  async exportCsv(principal: Principal, query: BuildingFloorQuery): Promise<string> {
    return toReferencePointsCsv(await this.list(principal, query));
  }

  async get(principal: Principal, id: number): Promise<Versioned<ReferencePointResponseDto>> {
    const row = await this.findOwned(principal, id);
    return new Versioned(toReferencePointResponse(row), row.version);
  }

  async create(principal: Principal, dto: ReferencePointInputDto): Promise<Versioned<ReferencePointResponseDto>> {
    const readings = storedReadings(dto);
    if (readings.ble.length + readings.wifi.length === 0) throw ApiError.validation('The reference point is not valid', [noReadings('')]);
    return this.transactions.run(async (manager) => {
      const floor = await this.floors.findReferenced(principal, dto.floor_id, 'floor_id', manager);
      const building = await this.buildings.findReferenced(principal, floor.buildingId, 'floor_id', manager);
      const placement = placeTransmitter(building, dto, '');
      if (Array.isArray(placement)) throw ApiError.validation('The reference point is not valid', placement);
      const now = new Date();
      const [row] = await this.points.insert(manager, [
        {
          ...placement,
          organizationId: principal.organizationId,
          buildingId: building.id,
          floorId: floor.id,
          readings: JSON.stringify(readings),
          version: 1,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      await this.radio.referencesChanged(manager, building.id);
      return new Versioned(toReferencePointResponse(row), 1);
    });
  }

  /** Partial: the keys sent change; readings sent replace those of their kind. */
  async update(principal: Principal, id: number, dto: UpdateReferencePointDto, ifMatch?: number[]): Promise<Versioned<ReferencePointResponseDto>> {
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const row = await this.findOwned(principal, id, true, manager);
        assertVersionMatches(row.version, ifMatch);
        let floorId = row.floorId;
        if (dto.floor_id !== undefined && dto.floor_id !== row.floorId) {
          const floor = await this.floors.findReferenced(principal, dto.floor_id, 'floor_id', manager);
          if (floor.buildingId !== row.buildingId) {
            throw ApiError.validation('The reference point is not valid', [
              { message: "the floor is not in the reference point's building", code: 'invalid', fields: 'floor_id', value: floor.id },
            ]);
          }
          floorId = floor.id;
        }
        let placement = {};
        if (dto.x !== undefined || dto.y !== undefined || dto.lat !== undefined || dto.lng !== undefined) {
          const building = await this.buildings.findReferenced(principal, row.buildingId, 'floor_id', manager);
          const placed = placeTransmitter(building, dto, '');
          if (Array.isArray(placed)) throw ApiError.validation('The reference point is not valid', placed);
          placement = placed;
        }
        const current = JSON.parse(row.readings) as StoredReadings;
        const sent = storedReadings(dto);
        const readings = { ble: dto.ble !== undefined ? sent.ble : current.ble, wifi: dto.wifi !== undefined ? sent.wifi : current.wifi };
        if (readings.ble.length + readings.wifi.length === 0) throw ApiError.validation('The reference point is not valid', [noReadings('')]);
        const changes = { ...placement, floorId, readings: JSON.stringify(readings), updatedAt: new Date() };
        if (!(await this.points.updateIfVersion(manager, row, changes))) return false;
        await this.radio.referencesChanged(manager, row.buildingId);
        const updated = Object.assign(new ReferencePoint(), row, changes, { version: row.version + 1 });
        return new Versioned(toReferencePointResponse(updated), updated.version);
      }),
    );
  }

  async remove(principal: Principal, id: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      const row = await this.findOwned(principal, id, true, manager);
      await this.points.delete(manager, row.id);
      await this.radio.referencesChanged(manager, row.buildingId);
    });
  }

  /** `PUT ?building_id=[&floor_id=]` with a JSON array: the points of the building (or of the floor) replaced. */
  async replace(principal: Principal, query: BuildingFloorQuery, body: unknown): Promise<ReferencePointResponseDto[]> {
    if (!Array.isArray(body)) throw ApiError.validation('The body must be an array of reference points', [{ message: 'must be a JSON array', code: 'invalid', fields: 'body' }]);
    return this.replaceValidated(
      principal,
      query,
      body,
      body.map((_item, index) => `[${index}].`),
    );
  }

  async replaceFromCsv(principal: Principal, query: BuildingFloorQuery, text: unknown): Promise<ReferencePointResponseDto[]> {
    const { items, prefixes } = fromReferencePointsCsv(text);
    return this.replaceValidated(principal, query, items, prefixes);
  }

  private async replaceValidated(principal: Principal, query: BuildingFloorQuery, items: unknown[], prefixes: string[]): Promise<ReferencePointResponseDto[]> {
    if (items.length > MAX_REFERENCE_POINTS)
      throw ApiError.validation(`At most ${MAX_REFERENCE_POINTS} reference points per request`, [{ message: 'too many', code: 'invalid', fields: 'body' }]);
    const errors: FieldError[] = [];
    const valid: Array<{ dto: ReferencePointInputDto; prefix: string }> = [];
    for (const [index, item] of items.entries()) {
      const prefix = prefixes[index];
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        errors.push({ message: 'must be a JSON object', code: 'invalid', fields: prefix.slice(0, -1) });
        continue;
      }
      const dto = plainToInstance(ReferencePointInputDto, item);
      const problems = await validate(dto, { whitelist: true, forbidUnknownValues: true });
      if (problems.length > 0) errors.push(...flattenValidationErrors(problems, prefix.slice(0, -1)));
      else if ((dto.ble?.length ?? 0) + (dto.wifi?.length ?? 0) === 0) errors.push(noReadings(prefix));
      else if (query.floor_id !== undefined && dto.floor_id !== query.floor_id)
        errors.push({ message: `floor_id=${query.floor_id} was asked`, code: 'invalid', fields: `${prefix}floor_id`, value: dto.floor_id });
      else valid.push({ dto, prefix });
    }
    if (errors.length > 0) throw ApiError.validation('Some reference points are not valid; nothing was changed', errors);
    return this.transactions.run(async (manager) => {
      // Locked: two replacements of one building run one after the other.
      const building = await this.buildings.findOwned(principal, query.building_id, manager, 'update');
      const live = await this.infrastructure.liveFloorIds(manager, building);
      if (query.floor_id !== undefined && !live.includes(query.floor_id)) throw ApiError.notFound('Floor', query.floor_id);
      const floors = query.floor_id !== undefined ? [query.floor_id] : live;
      const now = new Date();
      const rows: Partial<ReferencePoint>[] = [];
      for (const { dto, prefix } of valid) {
        if (!live.includes(dto.floor_id)) {
          errors.push({ message: 'not a floor of this building', code: 'invalid', fields: `${prefix}floor_id`, value: dto.floor_id });
          continue;
        }
        const placement = placeTransmitter(building, dto, prefix, 'cartesian');
        if (Array.isArray(placement)) {
          errors.push(...placement);
          continue;
        }
        rows.push({
          ...placement,
          organizationId: building.organizationId,
          buildingId: building.id,
          floorId: dto.floor_id,
          readings: JSON.stringify(storedReadings(dto)),
          version: 1,
          createdAt: now,
          updatedAt: now,
        });
      }
      if (errors.length > 0) throw ApiError.validation('Some reference points are not valid; nothing was changed', errors);
      await this.points.deleteOnFloors(manager, building.id, floors);
      await this.points.insert(manager, rows);
      await this.radio.referencesChanged(manager, building.id);
      return (await this.points.listOnFloors(manager, building.id, floors)).map(toReferencePointResponse);
    });
  }

  private async findOwned(principal: Principal, id: number, lock = false, manager = this.dataSource.manager): Promise<ReferencePoint> {
    const row = await this.points.findOwned(manager, principal.organizationId, id, lock);
    if (!row || !canSeeBuilding(principal, row.buildingId)) throw ApiError.notFound('Reference point', id);
    return row;
  }
}
