import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { chunks } from '../database/sql-dialect';
import { DeviceNavigation } from './device-navigation.entity';

/** Where guided devices are kept (`device_navigations`, keyed by organization and device). */
@Injectable()
export class DeviceNavigationsRepository {
  constructor(@InjectRepository(DeviceNavigation) private readonly rows: Repository<DeviceNavigation>) {}

  /** A device's guidance (not one that ended by arrival), or null. */
  async guided(organizationId: string, deviceId: string, manager: EntityManager = this.rows.manager): Promise<DeviceNavigation | null> {
    return manager.findOne(DeviceNavigation, { where: { organizationId, deviceId, arrivedAt: IsNull() } });
  }

  /** The rows of these devices, arrivals not yet cleared included: one query on the key for a batch (up to 1,000 devices). */
  async ofDevices(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<DeviceNavigation[]> {
    const found: DeviceNavigation[] = [];
    for (const chunk of chunks(deviceIds, 1000)) found.push(...(await manager.find(DeviceNavigation, { where: { organizationId, deviceId: In(chunk) } })));
    return found;
  }

  /** Starts (or replaces) a device's guidance. */
  async save(manager: EntityManager, navigation: DeviceNavigation): Promise<void> {
    await manager.upsert(DeviceNavigation, navigation as QueryDeepPartialEntity<DeviceNavigation>, ['organizationId', 'deviceId']);
  }

  /** The progress (and the route, when it changed) after a device's fixes. */
  async update(manager: EntityManager, navigation: DeviceNavigation): Promise<void> {
    const { organizationId, deviceId, ...changed } = navigation;
    await manager.update(DeviceNavigation, { organizationId, deviceId }, changed as QueryDeepPartialEntity<DeviceNavigation>);
  }

  /** Ends a device's guidance; false when it had none (an arrival is none). */
  async endGuidance(manager: EntityManager, organizationId: string, deviceId: string): Promise<boolean> {
    const result = await manager.delete(DeviceNavigation, { organizationId, deviceId, arrivedAt: IsNull() });
    return (result.affected ?? 0) > 0;
  }

  /** Removes the rows of these devices whatever they hold (arrivals once followed by a fix, a deleted device). */
  async remove(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<void> {
    for (const chunk of chunks(deviceIds, 500)) await manager.delete(DeviceNavigation, { organizationId, deviceId: In(chunk) });
  }

  /** The stream's read: the rows of these devices, arrivals included (their last progress says so). */
  ofDevicesNow(organizationId: string, deviceIds: readonly string[]): Promise<DeviceNavigation[]> {
    return this.ofDevices(this.rows.manager, organizationId, deviceIds);
  }
}
