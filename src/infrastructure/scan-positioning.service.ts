import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { canSeeBuilding } from '../auth/building-scope';
import { Principal } from '../auth/principal';
import { Building } from '../buildings/building.entity';
import { toGeoreference } from '../common/geometry/cartesian';
import { MAX_INTEGER_ID } from '../common/http/params';
import { Optional } from '../common/validation/optional';
import { IntegerFromString } from '../common/validation/transforms';
import { Floor } from '../floors/floor.entity';
import { BleBeacon } from './ble-beacon.entity';
import { BSSID, normalizeBssid, UUID_TEXT } from './infrastructure.dto';
import { DEFAULT_ESTIMATOR_OPTIONS, estimatePosition, EstimatorOptions, KnownTransmitter, ScanReading, TransmitterIndex } from './estimator/scan-estimator';
import { WifiAccessPoint } from './wifi-access-point.entity';

/** Expected RSSI at 1 m when a beacon has no tx_power: the usual iBeacon calibration. */
export const DEFAULT_BLE_REFERENCE_RSSI = -59;
/** Expected RSSI at 1 m from an access point (about 20 dBm EIRP less 40 dB at 1 m, 2.4 GHz). */
export const DEFAULT_WIFI_REFERENCE_RSSI = -40;
/** Free-space loss at 1 m at 2.4 GHz: turns a radiated power into an RSSI at 1 m. */
const LOSS_AT_ONE_METRE_DB = 41;

/**
 * A beacon's tx_power is the calibrated RSSI at 1 m (iBeacon "measured power", typically
 * −50 to −80) or, when above −30 dBm, the radiated power (Eddystone, vendor apps: −20 to +10).
 */
export function referenceRssiOf(txPower: number | null): number {
  if (txPower === null) return DEFAULT_BLE_REFERENCE_RSSI;
  return txPower > -30 ? txPower - LOSS_AT_ONE_METRE_DB : txPower;
}

const bleKey = (uuid: string, major: number, minor: number) => `${uuid}:${major}:${minor}`;
const isUint16 = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535;
export const MAX_READINGS_PER_KIND = 500;

class BleReadingDto {
  @ApiProperty() @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)) @IsString() @Matches(UUID_TEXT) uuid: string;
  @ApiProperty() @IsInt() @Min(0) @Max(65535) major: number;
  @ApiProperty() @IsInt() @Min(0) @Max(65535) minor: number;
  @ApiProperty({ description: 'dBm' }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-150) @Max(20) rssi: number;
}

class WifiReadingDto {
  @ApiProperty() @Transform(({ value }) => normalizeBssid(value)) @IsString() @Matches(BSSID) bssid: string;
  @ApiProperty({ description: 'dBm' }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-150) @Max(20) rssi: number;
}

/** One item of `POST /api/v1/realtime/scans`: what a device heard at a time (the documentation; `parse` checks the same rules by hand). */
export class ScanDto {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(255) device_id: string;
  @ApiProperty({ description: 'ISO 8601 or epoch milliseconds' }) time: string | number;
  @ApiPropertyOptional({ description: 'Omitted: the building whose transmitters the scan hears' })
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id?: number;
  @ApiPropertyOptional({ type: [BleReadingDto] }) @Optional() @IsArray() @ArrayMaxSize(MAX_READINGS_PER_KIND) @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => BleReadingDto) ble?: BleReadingDto[];
  @ApiPropertyOptional({ type: [WifiReadingDto] }) @Optional() @IsArray() @ArrayMaxSize(MAX_READINGS_PER_KIND) @IsObject({ each: true }) @ValidateNested({ each: true }) @Type(() => WifiReadingDto) wifi?: WifiReadingDto[];
}

/** A fix ready for the position pipeline (contract 6.2 item fields), plus what the estimate rests on. */
export interface EstimatedFix {
  index: number;
  device_id: string;
  time: Date;
  building_id: number;
  floor_id: number;
  lat: number;
  lng: number;
  x: number;
  y: number;
  accuracy: number;
  method: 'fit' | 'centroid' | 'single';
  transmitters_used: number;
  used: Array<{ type: 'wifi' | 'ble'; id: number; rssi: number }>;
}

export interface RejectedScan {
  index: number;
  code: 'invalid' | 'no_readings' | 'no_known_transmitters' | 'not_found';
  fields: string;
  message: string;
}

export interface ScanBatchResult {
  fixes: EstimatedFix[];
  rejected: RejectedScan[];
}

interface ValidScan {
  index: number;
  deviceId: string;
  buildingId?: number;
  time: Date;
  readings: ScanReading[];
}

interface LoadedBuilding {
  building: Building;
  index: TransmitterIndex;
}

/**
 * Turns a batch of scans into fixes: the building (given, or the one whose transmitters the
 * scan hears loudest), its transmitters loaded once per batch, the estimator, and the
 * floor-plan position turned into lat/lng. Validation of the time window and storage are
 * the position pipeline's, which takes these fixes like reported ones.
 */
@Injectable()
export class ScanPositioningService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async estimateBatch(principal: Principal, items: unknown[], options: EstimatorOptions = DEFAULT_ESTIMATOR_OPTIONS): Promise<ScanBatchResult> {
    const rejected: RejectedScan[] = [];
    const valid: ValidScan[] = [];
    for (const [index, item] of items.entries()) {
      const problem = this.parse(item, index);
      if ('code' in problem) rejected.push(problem);
      else valid.push(problem);
    }
    const manager = this.dataSource.manager;
    const buildingOf = await this.resolveBuildings(manager, principal, valid, rejected);
    const loaded = await this.loadBuildings(manager, principal, new Set(buildingOf.values()));
    const fixes: EstimatedFix[] = [];
    for (const item of valid) {
      const buildingId = buildingOf.get(item.index);
      if (buildingId === undefined) continue;
      const site = loaded.get(buildingId);
      if (!site) {
        rejected.push({ index: item.index, code: 'not_found', fields: `[${item.index}].building_id`, message: `Building ${buildingId} not found` });
        continue;
      }
      const estimate = estimatePosition(item.readings, site.index, options);
      if (!estimate.ok) {
        rejected.push({ index: item.index, code: estimate.reason, fields: `[${item.index}]`, message: estimate.message });
        continue;
      }
      const { building } = site;
      const frame = { latitude: building.latitude, longitude: building.longitude, width: building.width, length: building.length, rotation: building.rotation };
      const position = toGeoreference(frame, estimate);
      fixes.push({
        index: item.index,
        device_id: item.deviceId,
        time: item.time,
        building_id: building.id,
        floor_id: estimate.floorId,
        lat: position.lat,
        lng: position.lng,
        x: estimate.x,
        y: estimate.y,
        accuracy: estimate.accuracy,
        method: estimate.method,
        transmitters_used: estimate.used.length,
        used: estimate.used.map((used) => ({ type: used.kind, id: used.id, rssi: used.rssi })),
      });
    }
    rejected.sort((a, b) => a.index - b.index);
    return { fixes, rejected };
  }

  /**
   * Checked by hand rather than with class-validator: this is the hot path (thousands of
   * scans a second, each with up to hundreds of readings), and the rules are few.
   */
  private parse(item: unknown, index: number): ValidScan | RejectedScan {
    const invalid = (field: string, message: string): RejectedScan => ({ index, code: 'invalid', fields: `[${index}]${field}`, message: `${field.replace(/^\./, '')} ${message}` });
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return { index, code: 'invalid', fields: `[${index}]`, message: 'must be a JSON object' };
    const scan = item as Record<string, unknown>;
    const deviceId = scan.device_id;
    if (typeof deviceId !== 'string' || deviceId.length === 0 || deviceId.length > 255) return invalid('.device_id', 'must be a string of 1 to 255 characters');
    const rawTime = scan.time;
    const time = typeof rawTime === 'number' || (typeof rawTime === 'string' && rawTime.trim() !== '') ? new Date(rawTime) : new Date(NaN);
    if (Number.isNaN(time.getTime())) return invalid('.time', 'must be ISO 8601 or epoch milliseconds');
    let buildingId: number | undefined;
    if (scan.building_id !== undefined) {
      const raw = typeof scan.building_id === 'string' && /^\d{1,10}$/.test(scan.building_id) ? Number(scan.building_id) : scan.building_id;
      if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > MAX_INTEGER_ID) return invalid('.building_id', 'must be a positive integer id');
      buildingId = raw;
    }
    const readings: ScanReading[] = [];
    for (const kind of ['ble', 'wifi'] as const) {
      const list = scan[kind];
      if (list === undefined) continue;
      if (!Array.isArray(list) || list.length > MAX_READINGS_PER_KIND) return invalid(`.${kind}`, `must be an array of at most ${MAX_READINGS_PER_KIND} readings`);
      for (const [position, reading] of list.entries()) {
        const at = `.${kind}[${position}]`;
        if (reading === null || typeof reading !== 'object') return invalid(at, 'must be an object');
        const { rssi } = reading as Record<string, unknown>;
        if (typeof rssi !== 'number' || !Number.isFinite(rssi) || rssi < -150 || rssi > 20) return invalid(`${at}.rssi`, 'must be a number of dBm from -150 to 20');
        if (kind === 'wifi') {
          const bssid = normalizeBssid((reading as Record<string, unknown>).bssid);
          if (typeof bssid !== 'string' || !BSSID.test(bssid)) return invalid(`${at}.bssid`, 'must look like xx:xx:xx:xx:xx:xx');
          readings.push({ key: bssid, kind, rssi });
          continue;
        }
        const { uuid, major, minor } = reading as Record<string, unknown>;
        const lower = typeof uuid === 'string' ? uuid.toLowerCase() : '';
        if (!UUID_TEXT.test(lower)) return invalid(`${at}.uuid`, 'must be a UUID');
        if (!isUint16(major)) return invalid(`${at}.major`, 'must be an integer from 0 to 65535');
        if (!isUint16(minor)) return invalid(`${at}.minor`, 'must be an integer from 0 to 65535');
        readings.push({ key: bleKey(lower, major, minor), kind, rssi });
      }
    }
    if (readings.length === 0) return { index, code: 'no_readings', fields: `[${index}]`, message: 'The scan has no ble or wifi readings' };
    return { index, deviceId, buildingId, time, readings };
  }

  /** The building of each scan: the one named, or the one owning most of its strongest known transmitters. */
  private async resolveBuildings(manager: EntityManager, principal: Principal, scans: ValidScan[], rejected: RejectedScan[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    const unplaced = scans.filter((item) => {
      if (item.buildingId === undefined) return true;
      result.set(item.index, item.buildingId);
      return false;
    });
    if (unplaced.length === 0) return result;
    const bssids = new Set<string>();
    const uuids = new Set<string>();
    for (const item of unplaced) {
      for (const reading of item.readings) {
        if (reading.kind === 'wifi') bssids.add(reading.key);
        else uuids.add(reading.key.slice(0, 36));
      }
    }
    // A BSSID or beacon is unique per building, not per organization: one may be listed in two buildings.
    const owners = new Map<string, number[]>();
    const own = (key: string, buildingId: number) => owners.set(key, [...(owners.get(key) ?? []), buildingId]);
    const organizationId = principal.organizationId;
    for (const chunk of chunks([...bssids], 500)) {
      const rows = await manager.find(WifiAccessPoint, { select: { bssid: true, buildingId: true }, where: { organizationId, bssid: In(chunk) } });
      for (const row of rows) if (canSeeBuilding(principal, row.buildingId)) own(`wifi/${row.bssid}`, row.buildingId);
    }
    for (const chunk of chunks([...uuids], 500)) {
      const rows = await manager.find(BleBeacon, { select: { uuid: true, major: true, minor: true, buildingId: true }, where: { organizationId, uuid: In(chunk) } });
      for (const row of rows) if (canSeeBuilding(principal, row.buildingId)) own(`ble/${bleKey(row.uuid, row.major, row.minor)}`, row.buildingId);
    }
    for (const item of unplaced) {
      const votes = new Map<number, number>();
      const strongest = [...item.readings].sort((a, b) => b.rssi - a.rssi);
      let counted = 0;
      for (const reading of strongest) {
        const buildings = owners.get(`${reading.kind}/${reading.key}`);
        if (buildings === undefined) continue;
        for (const owner of buildings) votes.set(owner, (votes.get(owner) ?? 0) + 1);
        if (++counted === 5) break;
      }
      let best: number | undefined;
      for (const [buildingId, count] of votes) if (best === undefined || count > votes.get(best)!) best = buildingId;
      if (best === undefined) {
        rejected.push({ index: item.index, code: 'no_known_transmitters', fields: `[${item.index}]`, message: 'None of the transmitters heard is known in your buildings' });
      } else result.set(item.index, best);
    }
    return result;
  }

  /** Each building once per batch with the transmitters on its live floors, indexed for the estimator. */
  private async loadBuildings(manager: EntityManager, principal: Principal, buildingIds: Set<number>): Promise<Map<number, LoadedBuilding>> {
    const loaded = new Map<number, LoadedBuilding>();
    const ids = [...buildingIds].filter((id) => canSeeBuilding(principal, id));
    if (ids.length === 0) return loaded;
    const buildings = await manager.find(Building, { where: { id: In(ids), organizationId: principal.organizationId, deletedAt: IsNull() } });
    if (buildings.length === 0) return loaded;
    const liveIds = buildings.map((building) => building.id);
    const floors = await manager.find(Floor, { select: { id: true }, where: { buildingId: In(liveIds), deletedAt: IsNull() } });
    const liveFloors = new Set(floors.map((floor) => floor.id));
    const wifi = await manager.find(WifiAccessPoint, { where: { buildingId: In(liveIds) } });
    const ble = await manager.find(BleBeacon, { where: { buildingId: In(liveIds) } });
    const perBuilding = new Map<number, KnownTransmitter[]>(liveIds.map((id) => [id, []]));
    for (const row of wifi) {
      if (!liveFloors.has(row.floorId)) continue;
      perBuilding.get(row.buildingId)!.push({ key: row.bssid, kind: 'wifi', id: row.id, floorId: row.floorId, x: row.x, y: row.y, referenceRssi: DEFAULT_WIFI_REFERENCE_RSSI });
    }
    for (const row of ble) {
      if (!liveFloors.has(row.floorId)) continue;
      perBuilding.get(row.buildingId)!.push({ key: bleKey(row.uuid, row.major, row.minor), kind: 'ble', id: row.id, floorId: row.floorId, x: row.x, y: row.y, referenceRssi: referenceRssiOf(row.txPower) });
    }
    for (const building of buildings) loaded.set(building.id, { building, index: new TransmitterIndex(perBuilding.get(building.id)!) });
    return loaded;
  }
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
