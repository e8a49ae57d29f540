import { ScanReading } from '../../src/infrastructure/estimator/scan-estimator';
import { TestApp } from './test-app';
import { SyntheticBuilding } from './synthetic-scans';

/** A synthetic scan's beacon readings as the API takes them (`uuid:major:minor` keys split). */
export function bleOf(readings: readonly ScanReading[]): Array<{ uuid: string; major: number; minor: number; rssi: number }> {
  return readings.map((reading) => {
    const [uuid, major, minor] = reading.key.split(':');
    return { uuid, major: Number(major), minor: Number(minor), rssi: reading.rssi };
  });
}

/** The synthetic building's beacons (registered at −59 dBm) on the given floors (`floorIds[0]` is its floor 1), in one replacement. */
export async function installBeacons(t: TestApp, auth: Record<string, string>, buildingId: number, floorIds: number[], building: SyntheticBuilding): Promise<void> {
  const ble = building.transmitters.map((transmitter) => {
    const [uuid, major, minor] = transmitter.key.split(':');
    return {
      floor_id: floorIds[transmitter.floorId - 1],
      uuid,
      major: Number(major),
      minor: Number(minor),
      tx_power: building.options.registeredRssi,
      x: transmitter.x,
      y: transmitter.y,
    };
  });
  const response = await t.http.put(`/api/v1/infrastructure?building_id=${buildingId}`).set(auth).send({ wifi: [], ble });
  if (response.status !== 200) throw new Error(`installing beacons: ${response.status} ${JSON.stringify(response.body)}`);
}

/** Polls `read` until `done` holds (the running calibration merges off the request path); fails after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`not reached in ${timeoutMs} ms; last: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
