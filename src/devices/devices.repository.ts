import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import { lockOptions } from '../database/row-locks';
import { PositionStore } from '../positions/position-store';
import { Device } from './device.entity';

/**
 * The `devices` table as the devices API reads and edits it. On SQLite the position store writes
 * each device's newest fix to its row behind the ingest; every method here settles the table
 * first (`PositionStore.flushNewest`, in the caller's transaction when given one), so no reader
 * can forget to and see a device's position older than it was acknowledged.
 */
@Injectable()
export class DevicesRepository {
  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly store: PositionStore,
  ) {}

  /** A page of devices: `build` adds the filters and the order to the query of the table (alias `d`), settled. */
  async page(build: (query: SelectQueryBuilder<Device>) => SelectQueryBuilder<Device>, offset: number, size: number): Promise<[Device[], number]> {
    await this.store.flushNewest();
    return build(this.devices.createQueryBuilder('d')).skip(offset).take(size).getManyAndCount();
  }

  /** One device of the organization (within `buildingIds` where given), settled; locked for the caller's transaction where there is one. */
  async find(organizationId: string, id: string, buildingIds: readonly number[] | null, manager?: EntityManager): Promise<Device | null> {
    await this.store.flushNewest(manager);
    const reader = manager ?? this.devices.manager;
    return reader.findOne(Device, {
      where: { organizationId, id, ...(buildingIds !== null && { buildingId: In([...buildingIds]) }) },
      ...lockOptions(reader, manager ? 'update' : undefined),
    });
  }

  /** A device without a fix yet (created through the API). */
  async insert(manager: EntityManager, fields: Pick<Device, 'organizationId' | 'id' | 'name' | 'code' | 'createdAt' | 'updatedAt'>): Promise<Device> {
    const device = manager.create(Device, {
      ...fields,
      userId: null,
      lastTime: null,
      buildingId: null,
      floorId: null,
      lat: null,
      lng: null,
      x: null,
      y: null,
      accuracy: null,
      yaw: null,
    });
    await manager.insert(Device, device);
    return device;
  }

  async rename(manager: EntityManager, organizationId: string, id: string, changes: Partial<Device>): Promise<void> {
    await manager.update(Device, { organizationId, id }, changes);
  }

  async remove(manager: EntityManager, organizationId: string, id: string): Promise<void> {
    await manager.delete(Device, { organizationId, id });
  }
}
