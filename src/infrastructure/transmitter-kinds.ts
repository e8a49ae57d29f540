import { Building } from '../cartography/buildings/building.entity';
import { FieldError } from '../common/errors/api-error';
import { toCartesian, toGeoreference } from '../common/geometry/cartesian';
import { BleBeacon } from './ble-beacon.entity';
import { BleInputDto, BleResponseDto, TransmitterPositionDto, TransmitterType, UpdateBleDto, UpdateWifiDto, WifiInputDto, WifiResponseDto } from './infrastructure.dto';
import { toBleResponse, toWifiResponse } from './infrastructure.mapper';
import { PlacedTransmitter } from './transmitter.entity';
import { WifiAccessPoint } from './wifi-access-point.entity';

/** What differs between access points and beacons, so the service handles both alike. */
export interface TransmitterKind<E extends PlacedTransmitter, I, U, R> {
  type: TransmitterType;
  entity: new () => E;
  input: new () => I;
  update: new () => U;
  label: string;
  /** The per-building unique identity, as a string (`bssid`, or `uuid:major:minor`). */
  identity(value: Pick<E, never> & Partial<Record<'bssid' | 'uuid' | 'major' | 'minor', unknown>>): string;
  identityFields: string;
  /** The columns of its own (not the placement) a create sets. */
  columns(dto: I): Partial<E>;
  /** The columns of its own an update changes: only the keys sent. */
  changes(dto: U): Partial<E>;
  /** Conditions that find a row by identity. */
  where(identity: Partial<E>): Partial<E>;
  toResponse(row: E): R;
}

export const WIFI: TransmitterKind<WifiAccessPoint, WifiInputDto, UpdateWifiDto, WifiResponseDto> = {
  type: 'wifi',
  entity: WifiAccessPoint,
  input: WifiInputDto,
  update: UpdateWifiDto,
  label: 'access point',
  identity: (value) => String(value.bssid),
  identityFields: 'bssid',
  columns: (dto) => ({ bssid: dto.bssid, ssid: dto.ssid ?? '', frequency: dto.frequency ?? null }),
  changes: (dto) => ({
    ...(dto.bssid !== undefined && { bssid: dto.bssid }),
    ...(dto.ssid !== undefined && { ssid: dto.ssid ?? '' }),
    ...(dto.frequency !== undefined && { frequency: dto.frequency }),
  }),
  where: (row) => ({ bssid: row.bssid }),
  toResponse: toWifiResponse,
};

export const BLE: TransmitterKind<BleBeacon, BleInputDto, UpdateBleDto, BleResponseDto> = {
  type: 'ble',
  entity: BleBeacon,
  input: BleInputDto,
  update: UpdateBleDto,
  label: 'beacon',
  identity: (value) => `${String(value.uuid)}:${String(value.major)}:${String(value.minor)}`,
  identityFields: 'uuid,major,minor',
  columns: (dto) => ({ uuid: dto.uuid, major: dto.major, minor: dto.minor, txPower: dto.tx_power ?? null, battery: dto.battery ?? null }),
  changes: (dto) => ({
    ...(dto.uuid !== undefined && { uuid: dto.uuid }),
    ...(dto.major !== undefined && { major: dto.major }),
    ...(dto.minor !== undefined && { minor: dto.minor }),
    ...(dto.tx_power !== undefined && { txPower: dto.tx_power }),
    ...(dto.battery !== undefined && { battery: dto.battery }),
  }),
  where: (row) => ({ uuid: row.uuid, major: row.major, minor: row.minor }),
  toResponse: toBleResponse,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = TransmitterKind<any, any, any, any>;

export const KINDS: Record<TransmitterType, AnyKind> = { wifi: WIFI, ble: BLE };

export type Placement = Pick<PlacedTransmitter, 'latitude' | 'longitude' | 'x' | 'y'>;

/**
 * How far outside its rectangle a transmitter may be placed: antennas on facades, in
 * courtyards or across a street. Beyond that it is a typo (swapped lat/lng, feet for metres).
 */
export function plausibleMargin(building: Pick<Building, 'width' | 'length'>): number {
  return Math.max(10, 0.2 * Math.max(building.width, building.length));
}

/** Two positions closer than this are the same (metres): a pair derived from the other, printed and read back. */
const SAME_POSITION_M = 0.01;

/**
 * Both coordinate systems of a position given in one of them, or the problems with it.
 * When both pairs are given and agree (a GET answer or an exported CSV sent back), both
 * are kept exactly as sent, so a round trip changes nothing; when they disagree, `prefer`
 * wins (lat/lng for JSON, as for POIs; x/y for CSV, where installers edit floor metres).
 */
export function placeTransmitter(
  building: Building,
  position: Partial<Pick<TransmitterPositionDto, 'x' | 'y' | 'lat' | 'lng'>>,
  prefix: string,
  prefer: 'geo' | 'cartesian' = 'geo',
): Placement | FieldError[] {
  const frame = { latitude: building.latitude, longitude: building.longitude, width: building.width, length: building.length, rotation: building.rotation };
  const hasGeo = position.lat !== undefined || position.lng !== undefined;
  const hasCartesian = position.x !== undefined || position.y !== undefined;
  if (!hasGeo && !hasCartesian) {
    return [{ message: 'a position needs x and y (floor metres) or lat and lng', code: 'required', fields: `${prefix}x` }];
  }
  const useGeo = hasGeo && !(prefer === 'cartesian' && hasCartesian);
  const pair = useGeo ? (['lat', 'lng'] as const) : (['x', 'y'] as const);
  const missing = pair.filter((key) => position[key] === undefined);
  if (missing.length > 0) {
    return missing.map((key) => ({ message: `${pair.join(' and ')} go together`, code: 'required', fields: `${prefix}${key}` }));
  }
  let cartesian: { x: number; y: number };
  let georeference: { lat: number; lng: number };
  if (useGeo) {
    georeference = { lat: position.lat!, lng: position.lng! };
    cartesian = toCartesian(frame, georeference);
    if (position.x !== undefined && position.y !== undefined && Math.hypot(position.x - cartesian.x, position.y - cartesian.y) < SAME_POSITION_M) {
      cartesian = { x: position.x, y: position.y };
    }
  } else {
    cartesian = { x: position.x!, y: position.y! };
    georeference = toGeoreference(frame, cartesian);
    if (position.lat !== undefined && position.lng !== undefined) {
      const back = toCartesian(frame, { lat: position.lat, lng: position.lng });
      if (Math.hypot(back.x - cartesian.x, back.y - cartesian.y) < SAME_POSITION_M) georeference = { lat: position.lat, lng: position.lng };
    }
  }
  const margin = plausibleMargin(building);
  if (cartesian.x < -margin || cartesian.x > building.width + margin || cartesian.y < -margin || cartesian.y > building.length + margin) {
    const where = `(${cartesian.x.toFixed(1)}, ${cartesian.y.toFixed(1)}) m`;
    return [
      {
        message: `the position ${where} is not within ${margin.toFixed(0)} m of the building's ${building.width} × ${building.length} m rectangle`,
        code: 'invalid',
        fields: `${prefix}${pair[0]}`,
      },
    ];
  }
  return { latitude: georeference.lat, longitude: georeference.lng, x: cartesian.x, y: cartesian.y };
}
