import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { canSeeBuilding } from '../access/building-scope';
import { Principal } from '../access/principal';
import { Building } from '../cartography/buildings/building.entity';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../common/database/optimistic';
import { ApiError, FieldError } from '../common/errors/api-error';
import { Versioned } from '../common/http/versioned';
import { flattenValidationErrors } from '../common/validation/validation.pipe';
import { lockForUpdate } from '../database/row-locks';
import { TransactionRunner } from '../database/transactions';
import { TransmitterSites } from './transmitter-sites';
import { Floor } from '../cartography/floors/floor.entity';
import { FloorsService } from '../cartography/floors/floors.service';
import { BleBeacon } from './ble-beacon.entity';
import { fromInfrastructureCsv, toInfrastructureCsv } from './infrastructure.csv';
import { InfrastructureQuery, InfrastructureResponseDto, ReplaceInfrastructureQuery, TransmitterPositionDto, TransmitterType } from './infrastructure.dto';
import { AnyKind, BLE, KINDS, placeTransmitter, WIFI } from './transmitter-kinds';
import { PlacedTransmitter } from './transmitter.entity';
import { WifiAccessPoint } from './wifi-access-point.entity';

export const MAX_TRANSMITTERS_PER_KIND = 10_000;
const INSERT_BATCH = 500;
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

const duplicate = (kind: AnyKind, identity: string, fields: string): ApiError =>
  ApiError.conflict(`The building already has the ${kind.label} ${identity}`, [
    {
      message: 'already in this building',
      code: 'taken',
      fields: kind.identityFields
        .split(',')
        .map((field) => `${fields}${field}`)
        .join(','),
    },
  ]);

/** The items of a replacement, validated, with where each came from in the request. */
interface Incoming {
  kind: AnyKind;
  dto: TransmitterPositionDto;
  prefix: string;
}

type PositionPreference = 'geo' | 'cartesian';

@Injectable()
export class InfrastructureService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly buildings: BuildingsService,
    private readonly floors: FloorsService,
    private readonly transactions: TransactionRunner,
    private readonly sites: TransmitterSites,
  ) {}

  async read(principal: Principal, query: InfrastructureQuery): Promise<InfrastructureResponseDto> {
    const building = await this.buildings.findOwned(principal, query.building_id);
    return this.render(this.dataSource.manager, building, query);
  }

  async exportCsv(principal: Principal, query: InfrastructureQuery): Promise<string> {
    const document = await this.read(principal, query);
    return toInfrastructureCsv(document.wifi, document.ble);
  }

  /** `PUT ?building_id=` with the GET document's shape: the set of each kind replaced (only `type` when given). */
  async replace(principal: Principal, query: ReplaceInfrastructureQuery, body: unknown): Promise<InfrastructureResponseDto> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw ApiError.validation('The body must be an object {wifi: [...], ble: [...]}', [{ message: 'must be a JSON object', code: 'invalid', fields: 'body' }]);
    }
    const types = query.type ? [query.type] : (['wifi', 'ble'] as TransmitterType[]);
    const lists: Partial<Record<TransmitterType, unknown[]>> = {};
    const errors: FieldError[] = [];
    for (const type of types) {
      const list = (body as Record<string, unknown>)[type];
      if (!Array.isArray(list)) {
        errors.push({ message: `must be an array (send [] to remove every ${KINDS[type].label})`, code: list === undefined ? 'required' : 'invalid', fields: type });
      } else lists[type] = list;
    }
    if (errors.length > 0) throw ApiError.validation('The replacement is not valid; nothing was changed', errors);
    const prefixes = Object.fromEntries(types.map((type) => [type, lists[type]!.map((_item, index) => `${type}[${index}].`)])) as Record<TransmitterType, string[]>;
    return this.replaceValidated(principal, query.building_id, types, lists, prefixes, 'geo');
  }

  async replaceFromCsv(principal: Principal, query: ReplaceInfrastructureQuery, text: unknown): Promise<InfrastructureResponseDto> {
    const items = fromInfrastructureCsv(text);
    const types = query.type ? [query.type] : (['wifi', 'ble'] as TransmitterType[]);
    if (query.type) {
      const other: TransmitterType = query.type === 'wifi' ? 'ble' : 'wifi';
      if (items[other].length > 0) {
        throw ApiError.validation(
          `This import replaces only ${query.type}`,
          items.prefixes[other].map((prefix) => ({ message: `type=${query.type} was asked`, code: 'invalid', fields: `${prefix}type` })),
        );
      }
    }
    return this.replaceValidated(principal, query.building_id, types, items, items.prefixes, 'cartesian');
  }

  async get(principal: Principal, kind: AnyKind, id: number): Promise<Versioned<unknown>> {
    const row = await this.findOwned(principal, kind, id, this.dataSource.manager);
    return new Versioned(kind.toResponse(row), row.version);
  }

  async create(principal: Principal, kind: AnyKind, dto: TransmitterPositionDto): Promise<Versioned<unknown>> {
    return this.transactions.run(async (manager) => {
      const floor = await this.floors.findReferenced(principal, dto.floor_id, 'floor_id', manager);
      const building = await this.buildings.findReferenced(principal, floor.buildingId, 'floor_id', manager);
      const placement = placeTransmitter(building, dto, '');
      if (Array.isArray(placement)) throw ApiError.validation(`The ${kind.label} is not valid`, placement);
      const columns = kind.columns(dto);
      const identity = kind.identity(columns);
      if (await manager.existsBy(kind.entity, { buildingId: building.id, ...kind.where(columns) })) throw duplicate(kind, identity, '');
      const now = new Date();
      const row = manager.create(kind.entity, {
        ...columns,
        ...placement,
        organizationId: principal.organizationId,
        buildingId: building.id,
        floorId: floor.id,
        version: 1,
        createdAt: now,
        updatedAt: now,
      }) as PlacedTransmitter;
      await manager.insert(kind.entity, row);
      await this.sites.bump(manager, building.id);
      return new Versioned(kind.toResponse(row), row.version);
    });
  }

  /** Partial: the keys sent change. A position is sent whole (x and y, or lat and lng); moving to another floor keeps x/y. */
  async update(principal: Principal, kind: AnyKind, id: number, dto: Partial<TransmitterPositionDto>, ifMatch?: number[]): Promise<Versioned<unknown>> {
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const row = await this.findOwned(principal, kind, id, manager);
        assertVersionMatches(row.version, ifMatch);
        let floorId = row.floorId;
        if (dto.floor_id !== undefined && dto.floor_id !== row.floorId) {
          const floor = await this.floors.findReferenced(principal, dto.floor_id, 'floor_id', manager);
          if (floor.buildingId !== row.buildingId) {
            throw ApiError.validation(`The ${kind.label} is not valid`, [
              { message: "the floor is not in the transmitter's building (replace it there instead)", code: 'invalid', fields: 'floor_id', value: floor.id },
            ]);
          }
          floorId = floor.id;
        }
        let placement = {};
        if (dto.x !== undefined || dto.y !== undefined || dto.lat !== undefined || dto.lng !== undefined) {
          const building = await this.buildings.findReferenced(principal, row.buildingId, 'floor_id', manager);
          const placed = placeTransmitter(building, dto, '');
          if (Array.isArray(placed)) throw ApiError.validation(`The ${kind.label} is not valid`, placed);
          placement = placed;
        }
        const own = kind.changes(dto);
        const merged = { ...row, ...own };
        if (kind.identity(merged) !== kind.identity(row)) {
          const taken = await manager.existsBy(kind.entity, { buildingId: row.buildingId, id: Not(row.id), ...kind.where(merged) });
          if (taken) throw duplicate(kind, kind.identity(merged), '');
        }
        const changes = { ...own, ...placement, floorId, updatedAt: new Date() };
        if (!(await updateIfVersion(manager, kind.entity, row, changes))) return false;
        await this.sites.bump(manager, row.buildingId);
        const updated = { ...row, ...changes, version: row.version + 1 };
        return new Versioned(kind.toResponse(updated), updated.version);
      }),
    );
  }

  async remove(principal: Principal, kind: AnyKind, id: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      const row = await this.findOwned(principal, kind, id, manager, true);
      await manager.delete(kind.entity, { id: row.id });
      await this.sites.bump(manager, row.buildingId);
    });
  }

  /** The live floors of a building (a transmitter on a deleted floor is neither shown nor used). */
  async liveFloorIds(manager: EntityManager, building: Pick<Building, 'id' | 'organizationId'>): Promise<number[]> {
    const floors = await manager.find(Floor, { select: { id: true }, where: { buildingId: building.id, organizationId: building.organizationId, deletedAt: IsNull() } });
    return floors.map((floor) => floor.id);
  }

  /** One query: the row of the caller's organization, on a live floor of a live building it may see. */
  private async findOwned(principal: Principal, kind: AnyKind, id: number, manager: EntityManager, lock = false): Promise<PlacedTransmitter & Record<string, unknown>> {
    const query = manager
      .createQueryBuilder(kind.entity, 'transmitter')
      .innerJoin(Floor, 'floor', 'floor.id = transmitter.floorId AND floor.deletedAt IS NULL')
      .innerJoin(Building, 'building', 'building.id = transmitter.buildingId AND building.deletedAt IS NULL')
      .where('transmitter.id = :id AND transmitter.organizationId = :organizationId', { id, organizationId: principal.organizationId });
    if (lock) lockForUpdate(query, manager, 'transmitter');
    const row = (await query.getOne()) as (PlacedTransmitter & Record<string, unknown>) | null;
    if (!row || !canSeeBuilding(principal, row.buildingId)) throw ApiError.notFound(kind.type === 'wifi' ? 'Access point' : 'Beacon', id);
    return row;
  }

  private async render(manager: EntityManager, building: Building, filter: { floor_id?: number; type?: TransmitterType }): Promise<InfrastructureResponseDto> {
    const floorIds = (await this.liveFloorIds(manager, building)).filter((id) => filter.floor_id === undefined || id === filter.floor_id);
    const where = { buildingId: building.id, floorId: In(floorIds) };
    const order = { id: 'ASC' as const };
    const wifi = filter.type === 'ble' || floorIds.length === 0 ? [] : await manager.find(WifiAccessPoint, { where, order });
    const ble = filter.type === 'wifi' || floorIds.length === 0 ? [] : await manager.find(BleBeacon, { where, order });
    return {
      building_id: building.id,
      beacon_uuids: await this.beaconUuids(manager, building),
      wifi: wifi.map(WIFI.toResponse),
      ble: ble.map(BLE.toResponse),
    };
  }

  /** Every UUID the building's beacons use (on live floors), plus those its `beacons_uuids` custom field lists. */
  private async beaconUuids(manager: EntityManager, building: Building): Promise<string[]> {
    const rows: Array<{ uuid: string }> = await manager
      .createQueryBuilder(BleBeacon, 'beacon')
      .select('DISTINCT beacon.uuid', 'uuid')
      .innerJoin(Floor, 'floor', 'floor.id = beacon.floor_id AND floor.deleted_at IS NULL')
      .where('beacon.building_id = :buildingId', { buildingId: building.id })
      .getRawMany();
    const uuids = new Set(rows.map((row) => row.uuid));
    for (const field of building.customFields ?? []) {
      if (field.key !== 'beacons_uuids') continue;
      for (const match of field.value.match(UUID_IN_TEXT) ?? []) uuids.add(match.toLowerCase());
    }
    return [...uuids].sort();
  }

  private async replaceValidated(
    principal: Principal,
    buildingId: number,
    types: TransmitterType[],
    lists: Partial<Record<TransmitterType, unknown[]>>,
    prefixes: Record<TransmitterType, string[]>,
    prefer: PositionPreference,
  ): Promise<InfrastructureResponseDto> {
    const errors: FieldError[] = [];
    const incoming: Incoming[] = [];
    for (const type of types) {
      const kind = KINDS[type];
      const list = lists[type] ?? [];
      if (list.length > MAX_TRANSMITTERS_PER_KIND) {
        errors.push({ message: `at most ${MAX_TRANSMITTERS_PER_KIND} per request`, code: 'invalid', fields: type });
        continue;
      }
      for (const [index, item] of list.entries()) {
        const prefix = prefixes[type][index];
        if (item === null || typeof item !== 'object' || Array.isArray(item)) {
          errors.push({ message: 'must be a JSON object', code: 'invalid', fields: prefix.slice(0, -1) });
          continue;
        }
        const dto = plainToInstance(kind.input, item) as Incoming['dto'];
        const problems = await validate(dto, { whitelist: true, forbidUnknownValues: true });
        if (problems.length > 0) errors.push(...flattenValidationErrors(problems, prefix.slice(0, -1)));
        else incoming.push({ kind, dto, prefix });
      }
    }
    if (errors.length > 0) throw ApiError.validation('Some transmitters are not valid; nothing was changed', errors);

    const seen = new Map<string, string>();
    const conflicts: FieldError[] = [];
    for (const item of incoming) {
      const key = `${item.kind.type}/${item.kind.identity(item.kind.columns(item.dto))}`;
      const first = seen.get(key);
      if (first !== undefined) {
        conflicts.push({ message: `the same ${item.kind.label} as ${first.slice(0, -1)}`, code: 'taken', fields: `${item.prefix}${item.kind.identityFields.split(',')[0]}` });
      } else seen.set(key, item.prefix);
    }
    if (conflicts.length > 0) throw ApiError.conflict('The replacement lists a transmitter twice; nothing was changed', conflicts);

    return this.transactions.run(async (manager) => {
      // Locked: two replacements of one building run one after the other.
      const building = await this.buildings.findOwned(principal, buildingId, manager, 'update');
      const floors = new Set(await this.liveFloorIds(manager, building));
      const rows = new Map<TransmitterType, Array<Record<string, unknown>>>();
      for (const item of incoming) {
        if (!floors.has(item.dto.floor_id)) {
          errors.push({ message: 'not a floor of this building', code: 'invalid', fields: `${item.prefix}floor_id`, value: item.dto.floor_id });
          continue;
        }
        const placement = placeTransmitter(building, item.dto, item.prefix, prefer);
        if (Array.isArray(placement)) {
          errors.push(...placement);
          continue;
        }
        const list = rows.get(item.kind.type) ?? [];
        list.push({ ...item.kind.columns(item.dto), ...placement, floorId: item.dto.floor_id });
        rows.set(item.kind.type, list);
      }
      if (errors.length > 0) throw ApiError.validation('Some transmitters are not valid; nothing was changed', errors);
      const now = new Date();
      for (const type of types) await this.replaceKind(manager, KINDS[type], building, rows.get(type) ?? [], now);
      await this.sites.bump(manager, building.id);
      return this.render(manager, building, {});
    });
  }

  /**
   * Keeps the rows whose identity is still listed (their id and created_at survive; changed
   * ones are updated), deletes the others and inserts the new ones in batches.
   */
  private async replaceKind(manager: EntityManager, kind: AnyKind, building: Building, wanted: Array<Record<string, unknown>>, now: Date): Promise<void> {
    const existing: Array<PlacedTransmitter & Record<string, unknown>> = await manager.find(kind.entity, { where: { buildingId: building.id } });
    const byIdentity = new Map(existing.map((row) => [kind.identity(row), row]));
    const kept = new Set<number>();
    const inserts: PlacedTransmitter[] = [];
    for (const fields of wanted) {
      const row = byIdentity.get(kind.identity(fields));
      if (!row) {
        inserts.push(
          manager.create(kind.entity, {
            ...fields,
            organizationId: building.organizationId,
            buildingId: building.id,
            version: 1,
            createdAt: now,
            updatedAt: now,
          }) as PlacedTransmitter,
        );
        continue;
      }
      kept.add(row.id);
      if (Object.entries(fields).every(([key, value]) => row[key] === value)) continue;
      await manager.update(kind.entity, { id: row.id }, { ...fields, updatedAt: now, version: row.version + 1 });
    }
    const removed = existing.filter((row) => !kept.has(row.id)).map((row) => row.id);
    for (let start = 0; start < removed.length; start += INSERT_BATCH) {
      await manager.delete(kind.entity, { id: In(removed.slice(start, start + INSERT_BATCH)) });
    }
    for (let start = 0; start < inserts.length; start += INSERT_BATCH) {
      await manager.insert(kind.entity, inserts.slice(start, start + INSERT_BATCH));
    }
  }
}
