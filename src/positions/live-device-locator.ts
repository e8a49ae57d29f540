import { Injectable, OnModuleInit } from '@nestjs/common';
import { DeviceLocation, DeviceLocations } from '../cartography/paths/device-locations';
import { parseDatabaseTimestamp } from '../common/database/raw-values';
import { LivePositionsRepository } from './live-positions.repository';

const nullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** Where directions find a device's live position: its newest fix, read settled (cartography's DeviceLocations port). */
@Injectable()
export class LiveDeviceLocator implements OnModuleInit {
  constructor(
    private readonly rows: LivePositionsRepository,
    private readonly locations: DeviceLocations,
  ) {}

  onModuleInit(): void {
    this.locations.connect((organizationId, deviceId) => this.locate(organizationId, deviceId));
  }

  async locate(organizationId: string, deviceId: string): Promise<DeviceLocation | null> {
    const [row] = await this.rows.latest(this.rows.liveRead(organizationId, { devices: [deviceId] }), () => 0);
    if (!row) return null;
    return {
      buildingId: nullableNumber(row[4]),
      floorId: nullableNumber(row[5]),
      x: nullableNumber(row[9]),
      y: nullableNumber(row[10]),
      lat: Number(row[7]),
      lng: Number(row[8]),
      time: parseDatabaseTimestamp(row[3])!.getTime(),
    };
  }
}
