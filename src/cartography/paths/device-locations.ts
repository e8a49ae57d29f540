import { Injectable } from '@nestjs/common';

/** A device's newest fix, as the positions store keeps it. */
export interface DeviceLocation {
  buildingId: number | null;
  floorId: number | null;
  x: number | null;
  y: number | null;
  lat: number;
  lng: number;
  /** When the fix was taken, ms since the epoch. */
  time: number;
}

/** Finds a device's newest fix: null when the organization has no such device. */
export type DeviceLocator = (organizationId: string, deviceId: string) => Promise<DeviceLocation | null>;

/**
 * Lets directions start at a device's live position without this module depending on where
 * fixes are kept (positions depends on cartography, not the other way round): the positions
 * module connects its locator at start.
 */
@Injectable()
export class DeviceLocations {
  private locator: DeviceLocator | null = null;

  connect(locator: DeviceLocator): void {
    this.locator = locator;
  }

  locate(organizationId: string, deviceId: string): Promise<DeviceLocation | null> {
    if (!this.locator) throw new Error('No device locator is connected (the positions module connects one at start)');
    return this.locator(organizationId, deviceId);
  }
}
