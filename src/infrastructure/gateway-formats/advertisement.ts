/**
 * Raw BLE advertisements: the advertising data a gateway relays as hex (Ruuvi's `data`, Minew's `rawData`,
 * Cartograph's `raw`), a sequence of AD structures `[length][type][data…]` (Bluetooth Core Specification
 * Supplement, Part A). Two frames name a tag:
 * - iBeacon: manufacturer data (type 0xFF) `4C 00` (Apple) `02 15`, then uuid (16 bytes), major and minor
 *   (big-endian), and the measured power at 1 m (int8).
 * - Eddystone-UID (github.com/google/eddystone, eddystone-uid): service data (type 0x16) for uuid 0xFEAA
 *   (`AA FE` little-endian), frame type 0x00, the calibrated power at 0 m (int8), namespace (10 bytes),
 *   instance (6 bytes), two reserved bytes (often left out).
 */

/** The longest advertising data accepted: an extended advertisement carries at most 1,650 bytes. */
export const MAX_ADVERTISEMENT_BYTES = 1650;

/** Eddystone's power is at 0 m; the spec puts 1 m at 41 dB less. */
const EDDYSTONE_0M_TO_1M_DB = 41;

export interface AdvertisedIds {
  ibeacon?: { uuid: string; major: number; minor: number; txPower: number };
  /** `txPower` already converted to 1 m, like iBeacon's. */
  eddystone?: { namespace: string; instance: string; txPower: number };
}

/** Hex digits (any case, even count, at most MAX_ADVERTISEMENT_BYTES bytes) → bytes; anything else → null. */
export function hexBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || hex.length > 2 * MAX_ADVERTISEMENT_BYTES || !/^[0-9a-f]*$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const int8 = (byte: number) => (byte > 127 ? byte - 256 : byte);

/**
 * The iBeacon and Eddystone-UID identities in advertising data. Stops at a zero-length structure (padding) or
 * a structure that runs past the end; never throws.
 */
export function advertisedIds(bytes: Uint8Array): AdvertisedIds {
  const ids: AdvertisedIds = {};
  let at = 0;
  while (at < bytes.length) {
    const length = bytes[at];
    if (length === 0 || at + 1 + length > bytes.length) break;
    const type = bytes[at + 1];
    const data = bytes.subarray(at + 2, at + 1 + length);
    if (type === 0xff && data.length >= 25 && data[0] === 0x4c && data[1] === 0x00 && data[2] === 0x02 && data[3] === 0x15 && !ids.ibeacon) {
      const uuid = toHex(data.subarray(4, 20));
      ids.ibeacon = {
        uuid: `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20)}`,
        major: (data[20] << 8) | data[21],
        minor: (data[22] << 8) | data[23],
        txPower: int8(data[24]),
      };
    }
    if (type === 0x16 && data.length >= 20 && data[0] === 0xaa && data[1] === 0xfe && data[2] === 0x00 && !ids.eddystone) {
      ids.eddystone = { namespace: toHex(data.subarray(4, 14)), instance: toHex(data.subarray(14, 20)), txPower: int8(data[3]) - EDDYSTONE_0M_TO_1M_DB };
    }
    at += 1 + length;
  }
  return ids;
}
