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
import { Device } from './device.entity';
import { DevicesRepository } from './devices.repository';
import { toDeviceResponse } from './device.mapper';
import { DeviceResponseDto, ListDevicesQuery, UpdateDeviceDto } from './devices.dto';

const SORTABLE: Record<string, string> = {
  id: 'd.id',
  name: 'd.name',
  code: 'd.code',
  last_seen_at: 'd.lastTime',
  created_at: 'd.createdAt',
};

/** The devices registry: registered by the ingest on a first report, listed, renamed and deleted here. */
@Injectable()
export class DevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly transactions: TransactionRunner,
    private readonly store: PositionStore,
    private readonly geofencing: GeofenceEvaluator,
    private readonly trackStates: DeviceTrackStates,
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
    return toPage(rows.map(toDeviceResponse), total, window);
  }

  async get(principal: Principal, id: string): Promise<DeviceResponseDto> {
    return toDeviceResponse(await this.findOwned(principal, id));
  }

  async update(principal: Principal, id: string, dto: UpdateDeviceDto): Promise<DeviceResponseDto> {
    return this.transactions.run(async (manager) => {
      const device = await this.findOwned(principal, id, manager);
      const changes: Partial<Device> = {
        ...(dto.name !== undefined && { name: dto.name }),
        ...(dto.code !== undefined && { code: dto.code }),
        updatedAt: new Date(),
      };
      await this.devices.rename(manager, device.organizationId, device.id, changes);
      // Its code is kept with its newest fix: read again once this is written.
      this.transactions.afterCommit(manager, () => this.store.forget(device.organizationId, device.id));
      return toDeviceResponse({ ...device, ...changes });
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
      await this.devices.remove(manager, device.organizationId, device.id);
    });
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
