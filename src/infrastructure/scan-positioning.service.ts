import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { canSeeBuilding } from '../access/building-scope';
import { Principal } from '../access/principal';
import { toGeoreference } from '../common/geometry/cartesian';
import { MAX_INTEGER_ID } from '../common/http/params';
import { BleBeacon } from './ble-beacon.entity';
import { DEFAULT_ESTIMATOR_OPTIONS, Estimate, EstimateMethod, estimatePosition, EstimatorOptions, ScanReading, TransmitterIndex } from './estimator/scan-estimator';
import { BSSID, normalizeBssid, UUID_TEXT } from './infrastructure.dto';
import { beaconKey } from './transmitter-radio';
import { LearnableFix, RadioModelsService } from './radio-models.service';
import { CalibratedSite } from './radio-state';
import { MAX_READINGS_PER_KIND } from './scans.dto';
import { TransmitterSite, TransmitterSites } from './transmitter-sites';
import { WifiAccessPoint } from './wifi-access-point.entity';

const isUint16 = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535;
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
  method: EstimateMethod;
  transmitters_used: number;
  used: Array<{ type: 'wifi' | 'ble'; id: number; rssi: number }>;
  /** What the tracker needs of the scan: its readings and the single-scan estimate (not answered as such). */
  readings: ScanReading[];
  estimate: Extract<Estimate, { ok: true }>;
}

/** A building a batch's scans were placed in: where it is, its settings, and the radio model the estimates used. */
export interface PlacedSite {
  site: TransmitterSite;
  index: TransmitterIndex;
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
  /** The buildings of the fixes, by id. */
  sites: Map<number, PlacedSite>;
}

interface ValidScan {
  index: number;
  deviceId: string;
  buildingId?: number;
  time: Date;
  readings: ScanReading[];
}

/**
 * What a batch has already parsed: the last beacon UUID seen and its checked lower-case form (a
 * site's beacons share a few UUIDs), each beacon's estimator key and each BSSID's normal form,
 * built once per batch. A key built anew for every reading costs the estimator a fresh string
 * hash at each lookup.
 */
class ReadingKeys {
  private readonly bssids = new Map<string, string | null>();
  private raw: string | null = null;
  private lower = '';
  private keys = new Map<number, string>();
  private readonly byUuid = new Map<string, Map<number, string>>();

  /** The lower-case UUID, or null when `uuid` is not one. */
  uuid(uuid: unknown): string | null {
    if (typeof uuid !== 'string') return null;
    if (uuid === this.raw) return this.lower;
    const lower = uuid.toLowerCase();
    if (!UUID_TEXT.test(lower)) return null;
    this.raw = uuid;
    this.lower = lower;
    let keys = this.byUuid.get(lower);
    if (!keys) this.byUuid.set(lower, (keys = new Map()));
    this.keys = keys;
    return lower;
  }

  /** The lower-case `xx:xx:xx:xx:xx:xx` form of a BSSID, or null when `raw` is not one. */
  bssid(raw: unknown): string | null {
    if (typeof raw !== 'string') return null;
    let bssid = this.bssids.get(raw);
    if (bssid === undefined) {
      const normal = normalizeBssid(raw);
      bssid = typeof normal === 'string' && BSSID.test(normal) ? normal : null;
      this.bssids.set(raw, bssid);
    }
    return bssid;
  }

  /** The key of (the last UUID, major, minor). */
  key(major: number, minor: number): string {
    const id = major * 65536 + minor;
    let key = this.keys.get(id);
    if (key === undefined) this.keys.set(id, (key = beaconKey(this.lower, major, minor)));
    return key;
  }
}

/**
 * Turns a batch of scans into fixes: the building (given, or the one whose transmitters the
 * scan hears loudest), its transmitters (cached while current, see TransmitterSites), the
 * estimator, and the floor-plan position turned into lat/lng. Validation of the time window
 * and storage are the position pipeline's, which takes these fixes like reported ones.
 */
@Injectable()
export class ScanPositioningService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: TransmitterSites,
    private readonly radio: RadioModelsService,
  ) {}

  async estimateBatch(principal: Principal, items: unknown[], options: EstimatorOptions = DEFAULT_ESTIMATOR_OPTIONS): Promise<ScanBatchResult> {
    const rejected: RejectedScan[] = [];
    const valid: ValidScan[] = [];
    const keys = new ReadingKeys();
    for (let index = 0; index < items.length; index += 1) {
      const problem = this.parse(items[index], index, keys);
      if ('code' in problem) rejected.push(problem);
      else valid.push(problem);
    }
    const manager = this.dataSource.manager;
    const buildingOf = await this.resolveBuildings(manager, principal, valid, rejected);
    const visible = [...new Set(buildingOf.values())].filter((id) => canSeeBuilding(principal, id));
    const loaded = await this.sites.forBuildings(manager, principal.organizationId, visible);
    const calibrated = new Map<number, CalibratedSite>();
    await Promise.all([...loaded.values()].map(async (site) => calibrated.set(site.buildingId, await this.radio.calibrated(manager, site))));
    const fixes: EstimatedFix[] = [];
    const learnable = new Map<number, LearnableFix[]>();
    for (const item of valid) {
      const buildingId = buildingOf.get(item.index);
      if (buildingId === undefined) continue;
      const site = loaded.get(buildingId);
      if (!site) {
        rejected.push({ index: item.index, code: 'not_found', fields: `[${item.index}].building_id`, message: `Building ${buildingId} not found` });
        continue;
      }
      const estimate = estimatePosition(item.readings, calibrated.get(buildingId)!.index, options);
      if (!estimate.ok) {
        rejected.push({ index: item.index, code: estimate.reason, fields: `[${item.index}]`, message: estimate.message });
        continue;
      }
      const position = toGeoreference(site.frame, estimate);
      const fix: EstimatedFix = {
        index: item.index,
        device_id: item.deviceId,
        time: item.time,
        building_id: site.buildingId,
        floor_id: estimate.floorId,
        lat: position.lat,
        lng: position.lng,
        x: estimate.x,
        y: estimate.y,
        accuracy: estimate.accuracy,
        method: estimate.method,
        transmitters_used: estimate.used.length,
        used: estimate.used.map((used) => ({ type: used.kind, id: used.id, rssi: used.rssi })),
        readings: item.readings,
        estimate,
      };
      fixes.push(fix);
      const learnt: LearnableFix = { floorId: estimate.floorId, x: estimate.x, y: estimate.y, method: estimate.method, readings: item.readings };
      const list = learnable.get(buildingId);
      if (list) list.push(learnt);
      else learnable.set(buildingId, [learnt]);
    }
    for (const [buildingId, list] of learnable) this.radio.learn(loaded.get(buildingId)!, calibrated.get(buildingId)!, list);
    rejected.sort((a, b) => a.index - b.index);
    const sites = new Map<number, PlacedSite>();
    for (const [buildingId, site] of loaded) if (calibrated.has(buildingId)) sites.set(buildingId, { site, index: calibrated.get(buildingId)!.index });
    return { fixes, rejected, sites };
  }

  /**
   * Checked by hand rather than with class-validator: this is the hot path (thousands of
   * scans a second, each with up to hundreds of readings), and the rules are few.
   */
  private parse(item: unknown, index: number, keys: ReadingKeys): ValidScan | RejectedScan {
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
      // A plain loop, the field names built only for an error: this runs for every reading of every scan.
      for (let position = 0; position < list.length; position += 1) {
        const reading = list[position] as Record<string, unknown> | null;
        if (reading === null || typeof reading !== 'object') return invalid(`.${kind}[${position}]`, 'must be an object');
        const rssi = reading.rssi;
        if (typeof rssi !== 'number' || !Number.isFinite(rssi) || rssi < -150 || rssi > 20) return invalid(`.${kind}[${position}].rssi`, 'must be a number of dBm from -150 to 20');
        if (kind === 'wifi') {
          const bssid = keys.bssid(reading.bssid);
          if (bssid === null) return invalid(`.${kind}[${position}].bssid`, 'must look like xx:xx:xx:xx:xx:xx');
          readings.push({ key: bssid, kind, rssi });
          continue;
        }
        const { uuid, major, minor } = reading;
        if (keys.uuid(uuid) === null) return invalid(`.${kind}[${position}].uuid`, 'must be a UUID');
        if (!isUint16(major)) return invalid(`.${kind}[${position}].major`, 'must be an integer from 0 to 65535');
        if (!isUint16(minor)) return invalid(`.${kind}[${position}].minor`, 'must be an integer from 0 to 65535');
        readings.push({ key: keys.key(major, minor), kind, rssi });
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
      for (const row of rows) if (canSeeBuilding(principal, row.buildingId)) own(`ble/${beaconKey(row.uuid, row.major, row.minor)}`, row.buildingId);
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
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
