import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Not, Repository } from 'typeorm';
import { DeviceTagKey } from './device-tag-key.entity';

/** The organization's tags: which device each canonical key belongs to, and each device's identity. */
@Injectable()
export class DeviceTagsRepository {
  constructor(@InjectRepository(DeviceTagKey) private readonly tags: Repository<DeviceTagKey>) {}

  /** The devices of the keys that are tags of the organization, by key (an indexed lookup of the primary key). */
  async devicesOf(manager: EntityManager, organizationId: string, keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await manager.find(DeviceTagKey, { select: { key: true, deviceId: true }, where: { organizationId, key: In([...keys]) } });
    return new Map(rows.map((row) => [row.key, row.deviceId]));
  }

  /** Each device's identity (its JSON as stored), for the devices listed. */
  async identitiesOf(organizationId: string, deviceIds: readonly string[], manager: EntityManager = this.tags.manager): Promise<Map<string, unknown>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await manager.find(DeviceTagKey, { select: { deviceId: true, identity: true }, where: { organizationId, deviceId: In([...deviceIds]) } });
    return new Map(rows.map((row) => [row.deviceId, JSON.parse(row.identity) as unknown]));
  }

  /** The keys among these that another device of the organization holds. */
  async takenByOthers(manager: EntityManager, organizationId: string, deviceId: string, keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await manager.find(DeviceTagKey, { select: { key: true }, where: { organizationId, key: In([...keys]), deviceId: Not(deviceId) } });
    return rows.map((row) => row.key);
  }

  /** The device's identity replaced (null: the device is no tag any more). */
  async replace(manager: EntityManager, organizationId: string, deviceId: string, tag: { identity: unknown; keys: readonly string[] } | null, now: Date): Promise<void> {
    await manager.delete(DeviceTagKey, { organizationId, deviceId });
    if (tag === null) return;
    const identity = JSON.stringify(tag.identity);
    await manager.insert(
      DeviceTagKey,
      tag.keys.map((key) => ({ organizationId, key, deviceId, identity, createdAt: now })),
    );
  }

  async remove(manager: EntityManager, organizationId: string, deviceId: string): Promise<void> {
    await manager.delete(DeviceTagKey, { organizationId, deviceId });
  }
}
