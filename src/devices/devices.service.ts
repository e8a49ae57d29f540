import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { ApiError } from '../common/errors/api-error';
import { containsPattern } from '../common/database/like';
import { Page, pageWindow, parseSort, toPage } from '../common/pagination/pagination';
import { TransactionRunner } from '../database/transactions';
import { MAX_DEVICE_ID_LENGTH } from '../positions/fix';
import { PositionRecord } from '../positions/position-record.entity';
import { deleteDeviceRollups } from '../positions/position-rollups.service';
import { PositionStore } from '../positions/position-store';
import { DeviceTrackStates } from '../positions/device-track-states.repository';
import { GeofenceEvaluator } from '../geofencing/events/geofence-evaluator.service';
import { parseTagIdentity } from '../infrastructure/gateway-formats';
import { DeviceTagsRepository } from '../positions/device-tags.repository';
import { TagObservationsRepository } from '../positions/tag-observations.repository';
import { Device } from './device.entity';
import { DevicesRepository } from './devices.repository';
import { toDeviceResponse } from './device.mapper';
import { CreateDeviceDto, DeviceResponseDto, ListDevicesQuery, UpdateDeviceDto } from './devices.dto';
import { DeviceNavigationsRepository } from '../navigation/device-navigations.repository';

const SORTABLE: Record<string, string> = {
  id: 'd.id',
  name: 'd.name',
  code: 'd.code',
  last_seen_at: 'd.lastTime',
  created_at: 'd.createdAt',
};

/** A tag identity from the wire, normalised with its canonical keys; 422 naming `tag` when it is not one. */
function tagOf(value: object): { identity: unknown; keys: string[] } {
  // The validated DTO may carry its absent fields as undefined properties.
  const parsed = parseTagIdentity(Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)));
  if (!parsed.ok) throw ApiError.validation('The tag identity is not valid', [{ message: parsed.reason, code: 'invalid', fields: 'tag' }]);
  return { identity: parsed.identity, keys: parsed.keys };
}

/**
 * The devices registry: registered by the ingest on a first report or created here (a tag before
 * it is first heard), listed, renamed, given a tag identity and deleted here.
 */
@Injectable()
export class DevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly transactions: TransactionRunner,
    private readonly store: PositionStore,
    private readonly geofencing: GeofenceEvaluator,
    private readonly trackStates: DeviceTrackStates,
    private readonly tags: DeviceTagsRepository,
    private readonly observations: TagObservationsRepository,
    private readonly navigations: DeviceNavigationsRepository,
  ) {}

  async list(principal: Principal, query: ListDevicesQuery): Promise<Page<DeviceResponseDto>> {
    const window = pageWindow(query);
    const sort = parseSort(query.sort, SORTABLE, { column: 'd.id', direction: 'ASC' });
    if (!sort) throw ApiError.badRequest(`sort must be one of ${Object.keys(SORTABLE).join(', ')}`, [{ message: 'unknown sort field', code: 'invalid', fields: 'sort' }]);
    const after = query.last_seen_after ? new Date(query.last_seen_after) : undefined;
    const before = query.last_seen_before ? new Date(query.last_seen_before) : undefined;
    if (after && before && after > before)
      throw ApiError.badRequest('last_seen_after must not be after last_seen_before', [{ message: 'after last_seen_before', code: 'invalid', fields: 'last_seen_after' }]);
    const [rows, total] = await this.devices.page(
      (builder) => {
        builder.where('d.organizationId = :organizationId', { organizationId: principal.organizationId });
        // A restricted USER sees the devices last seen in its buildings, as in the realtime read.
        if (principal.buildingIds !== null) builder.andWhere('d.buildingId IN (:...buildingIds)', { buildingIds: principal.buildingIds });
        if (query.building_ids?.length) builder.andWhere('d.buildingId IN (:...wantedBuildings)', { wantedBuildings: query.building_ids });
        if (query.floor_ids?.length) builder.andWhere('d.floorId IN (:...wantedFloors)', { wantedFloors: query.floor_ids });
        if (query.search) {
          // LOWER on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's only for non-ASCII.
          builder.andWhere(`(LOWER(d.id) LIKE :search ESCAPE '\\' OR LOWER(d.name) LIKE :search ESCAPE '\\' OR LOWER(d.code) LIKE :search ESCAPE '\\')`, {
            search: containsPattern(query.search.toLowerCase()),
          });
        }
        if (after) builder.andWhere('d.lastTime >= :after', { after });
        if (before) builder.andWhere('(d.lastTime < :before OR d.lastTime IS NULL)', { before });
        builder.orderBy(sort.column, sort.direction, 'NULLS LAST');
        // Ties in a stable order (an order on the same column would replace the first).
        if (sort.column !== 'd.id') builder.addOrderBy('d.id', 'ASC');
        return builder;
      },
      window.offset,
      window.size,
    );
    const tags = await this.tags.identitiesOf(
      principal.organizationId,
      rows.map((row) => row.id),
    );
    return toPage(
      rows.map((row) => toDeviceResponse(row, tags.get(row.id))),
      total,
      window,
    );
  }

  async get(principal: Principal, id: string): Promise<DeviceResponseDto> {
    const device = await this.findOwned(principal, id);
    return toDeviceResponse(device, (await this.tags.identitiesOf(device.organizationId, [device.id])).get(device.id));
  }

  /** A device before its first fix (a tag to be heard by gateways): 409 when the id is taken. */
  async create(principal: Principal, dto: CreateDeviceDto): Promise<DeviceResponseDto> {
    const tag = dto.tag === undefined || dto.tag === null ? null : tagOf(dto.tag);
    return this.transactions.run(async (manager) => {
      if (await this.devices.find(principal.organizationId, dto.id, null, manager)) {
        throw ApiError.conflict(`The organization already has the device ${dto.id}`, [{ message: 'already a device of this organization', code: 'taken', fields: 'id' }]);
      }
      const now = new Date();
      const device = await this.devices.insert(manager, {
        organizationId: principal.organizationId,
        id: dto.id,
        name: dto.name ?? '',
        code: dto.code ?? '',
        createdAt: now,
        updatedAt: now,
      });
      if (tag) await this.replaceTag(manager, device.organizationId, device.id, tag, now);
      this.transactions.afterCommit(manager, () => this.store.forget(device.organizationId, device.id));
      return toDeviceResponse(device, tag?.identity ?? null);
    });
  }

  async update(principal: Principal, id: string, dto: UpdateDeviceDto): Promise<DeviceResponseDto> {
    return this.transactions.run(async (manager) => {
      const device = await this.findOwned(principal, id, manager);
      const tag = dto.tag === undefined || dto.tag === null ? dto.tag : tagOf(dto.tag);
      const changes: Partial<Device> = {
        ...(dto.name !== undefined && { name: dto.name }),
        ...(dto.code !== undefined && { code: dto.code }),
        updatedAt: new Date(),
      };
      await this.devices.rename(manager, device.organizationId, device.id, changes);
      if (tag !== undefined) await this.replaceTag(manager, device.organizationId, device.id, tag, changes.updatedAt!);
      // Its code is kept with its newest fix: read again once this is written.
      this.transactions.afterCommit(manager, () => this.store.forget(device.organizationId, device.id));
      const identity = tag === undefined ? (await this.tags.identitiesOf(device.organizationId, [device.id], manager)).get(device.id) : (tag?.identity ?? null);
      return toDeviceResponse({ ...device, ...changes }, identity);
    });
  }

  /** The device and its whole history, in one transaction. */
  async remove(principal: Principal, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const device = await this.findOwned(principal, id, manager);
      await this.geofencing.beforeDeviceDeleted(manager, device.organizationId, device.id);
      this.transactions.afterCommit(manager, () => this.store.forget(device.organizationId, device.id));
      await manager.delete(PositionRecord, { organizationId: device.organizationId, deviceId: device.id });
      await deleteDeviceRollups(manager, device.organizationId, device.id);
      await this.trackStates.remove(manager, device.organizationId, device.id);
      await this.tags.remove(manager, device.organizationId, device.id);
      await this.observations.removeDevice(manager, device.organizationId, device.id);
      await this.navigations.remove(manager, device.organizationId, [device.id]);
      await this.devices.remove(manager, device.organizationId, device.id);
    });
  }

  /** Its tag keys replaced; a key another device of the organization holds is 409 (one advertiser, one device). */
  private async replaceTag(manager: EntityManager, organizationId: string, deviceId: string, tag: { identity: unknown; keys: string[] } | null, now: Date): Promise<void> {
    if (tag !== null) {
      const taken = await this.tags.takenByOthers(manager, organizationId, deviceId, tag.keys);
      if (taken.length > 0)
        throw ApiError.conflict(`Another device of the organization has the tag ${taken[0]}`, [{ message: 'already the tag of another device', code: 'taken', fields: 'tag' }]);
    }
    await this.tags.replace(manager, organizationId, deviceId, tag, now);
  }

  /** Settled and, in a transaction, locked (DevicesRepository). */
  private async findOwned(principal: Principal, id: string, manager?: EntityManager): Promise<Device> {
    // No device has such an id (and PostgreSQL text cannot hold NUL).
    if (id.length > MAX_DEVICE_ID_LENGTH || /[\u0000-\u001f]/.test(id)) throw ApiError.notFound('Device', id.slice(0, MAX_DEVICE_ID_LENGTH));
    const device = await this.devices.find(principal.organizationId, id, principal.buildingIds, manager);
    if (!device) throw ApiError.notFound('Device', id);
    return device;
  }
}
