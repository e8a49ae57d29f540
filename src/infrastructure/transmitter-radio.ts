/** How the server models what a transmitter sends: shared by the transmitter cache and the scan parser. */

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

/** The estimator's key of a beacon: `uuid:major:minor`, the UUID in lower case. */
export const beaconKey = (uuid: string, major: number, minor: number): string => `${uuid}:${major}:${minor}`;
