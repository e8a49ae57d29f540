import { ScanReading } from './estimator/scan-estimator';
import { beaconKey } from './transmitter-radio';

/** What a reference point heard, as stored and as the API shows it (identifiers normalised). */
export interface StoredReadings {
  ble: Array<{ uuid: string; major: number; minor: number; rssi: number }>;
  wifi: Array<{ bssid: string; rssi: number }>;
}

export function parseStoredReadings(text: string): StoredReadings {
  try {
    const parsed = JSON.parse(text) as Partial<StoredReadings>;
    return { ble: Array.isArray(parsed.ble) ? parsed.ble : [], wifi: Array.isArray(parsed.wifi) ? parsed.wifi : [] };
  } catch {
    return { ble: [], wifi: [] };
  }
}

/** The stored readings as the estimator's. */
export function readingsOf(text: string): ScanReading[] {
  const stored = parseStoredReadings(text);
  return [
    ...stored.ble.map((reading) => ({ key: beaconKey(reading.uuid, reading.major, reading.minor), kind: 'ble' as const, rssi: reading.rssi })),
    ...stored.wifi.map((reading) => ({ key: reading.bssid, kind: 'wifi' as const, rssi: reading.rssi })),
  ];
}
