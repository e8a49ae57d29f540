import { EntityManager } from 'typeorm';
import { AcceptedFix, DeviceTrack } from './fix';

/**
 * Where fixes are kept: the history (every accepted fix, appended) and each device's newest fix
 * (the live picture). One implementation per database, chosen at start (PositionsModule).
 */
export abstract class PositionStore {
  /**
   * Each device's newest stored fix (a device without one is absent). Call under the devices'
   * lock, in the batch's transaction: it is the fix the batch lands after.
   */
  abstract newest(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<Map<string, DeviceTrack>>;

  /**
   * Stores a batch in the caller's transaction: its history rows, and each device's newest fix
   * (`newest`: each device's last fix of the batch, with the last code its fixes gave). A fix
   * older than the device's stored one leaves the live picture as it is.
   */
  abstract append(manager: EntityManager, organizationId: string, fixes: readonly AcceptedFix[], newest: readonly AcceptedFix[]): Promise<void>;

  /** Makes the `devices` table say what the store knows, before a reader or an edit of that table (in `manager`'s transaction when it is in one). */
  abstract flushNewest(manager?: EntityManager): Promise<void>;

  /** The devices whose newest fix is on the floor and no older than `since` (ms), in `manager`'s transaction. */
  abstract lastSeenOnFloor(manager: EntityManager, organizationId: string, floorId: number, since: number): Promise<DeviceTrack[]>;

  /** Makes the history ready to take fixes of these days (each a UTC day's start, ms). */
  abstract prepareDays(days: readonly number[]): Promise<void>;

  /** Removes the history older than `cutoff` (ms): whole days where the store keeps them apart, else rows. */
  abstract removeHistoryBefore(cutoff: number): Promise<RemovedHistory>;

  /** A device's row was edited or deleted outside the ingest: what is kept of it is read again next time. */
  abstract forget(organizationId: string, deviceId: string): void;
}

export interface RemovedHistory {
  /** The days removed whole (their starts, ms). */
  days: number[];
  /** Their partitions' names (PostgreSQL). */
  partitionsDropped: string[];
  rowsDeleted: number;
}

/** The history's columns, in the order the stores write them. */
export const HISTORY_COLUMNS = ['organization_id', 'device_id', 'time', 'user_id', 'building_id', 'floor_id', 'lat', 'lng', 'x', 'y', 'accuracy', 'yaw'] as const;

/** The devices' columns a new device is written with. */
export const DEVICE_COLUMNS = [
  'organization_id',
  'id',
  'code',
  'user_id',
  'last_time',
  'building_id',
  'floor_id',
  'lat',
  'lng',
  'x',
  'y',
  'accuracy',
  'yaw',
  'created_at',
  'updated_at',
] as const;

/** A track from a device's newest fix of a batch; `code` is the code stored before unless the fix gave one. */
export function trackOf(fix: AcceptedFix, previousCode: string): DeviceTrack {
  return {
    deviceId: fix.deviceId,
    code: fix.deviceCode !== '' ? fix.deviceCode : previousCode,
    userId: fix.userId,
    time: fix.time,
    buildingId: fix.buildingId,
    floorId: fix.floorId,
    lat: fix.lat,
    lng: fix.lng,
    x: fix.x,
    y: fix.y,
    accuracy: fix.accuracy,
    yaw: fix.yaw,
  };
}
