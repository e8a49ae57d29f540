import { observedKeys } from './identity';
import {
  badNow,
  Batch,
  epochMs,
  field,
  guarded,
  isRecord,
  limitsOf,
  normaliseHardwareId,
  observation,
  ParseLimits,
  ParseResult,
  quote,
  readJson,
  readRaw,
  readRssi,
  recordTime,
  reject,
} from './observation';

/**
 * Cartograph JSON: the format for any gateway that is none of the others (a Raspberry Pi with a script, a vendor's
 * gateway with a configurable template, a test). To move to docs/api.md:
 *
 * ### Cartograph gateway JSON
 * MQTT topic `cartograph/gateways/{hardware_id}/observations`, or `POST /api/v1/gateways/{hardware_id}/observations`;
 * UTF-8 JSON, at most 256 KiB and 10,000 observations a message:
 *
 * ```json
 * {"time": "2026-05-04T10:15:30.250Z",
 *  "observations": [
 *    {"tag": "AC:23:3F:A0:32:08", "rssi": -71},
 *    {"tag": "e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42", "rssi": -80.5, "raw": "0201061AFF4C000215…"},
 *    {"tag": "irk:e46c37a106468d1376c58d33881ee47a", "rssi": -66, "time": 1777889730100}]}
 * ```
 *
 * - `time` (optional): when the advertisements were heard, ISO-8601 (UTC when the zone is left out) or epoch
 *   milliseconds (a number below 1e11 is taken as seconds). An observation's own `time` overrides it (an addition to
 *   issue 39's wire, for gateways that send a second of data at once). A time more than 10 minutes old or more than
 *   a minute ahead of the server's clock, or none, is replaced by the time the message arrived.
 * - `tag` (required): the advertiser. A MAC in any case, with `:` or `-` or no separators; an iBeacon as
 *   `{uuid}:{major}:{minor}` (uuid with or without dashes, any case); a canonical key (`mac:…`, `ibeacon:…`,
 *   `eddystone:{namespace}:{instance}`); or an ESPresense device id (`iBeacon:{uuid}-{major}-{minor}` matches the
 *   iBeacon identity).
 * - `rssi` (required): dBm, a number from -127 to 20.
 * - `raw` (optional): the advertising data as hex (AD structures). An iBeacon or Eddystone-UID frame in it also
 *   identifies the tag, and gives its power at 1 m.
 *
 * An observation that is not understood is dropped and counted on the gateway's health with its reason; the others
 * are kept. A body that is not JSON, not an object or without an `observations` array is rejected whole.
 */
export function parseCartograph(hardwareId: string, body: unknown, now: number, limits?: Partial<ParseLimits>): ParseResult {
  return guarded(() => {
    const bad = badNow(now);
    if (bad) return bad;
    const receiver = normaliseHardwareId(hardwareId);
    if (receiver === null) return reject(`hardware id ${quote(hardwareId)} is not a MAC or a name of a-z 0-9 . _ : @ ~ -`);
    const limit = limitsOf(limits);
    const json = readJson(body, limit);
    if (!json.ok) return reject(json.reason, receiver);
    if (!isRecord(json.value)) return reject('body is not a JSON object', receiver);
    const observations = field(json.value, 'observations');
    if (!Array.isArray(observations)) return reject('observations is missing or not an array', receiver);
    if (observations.length > limit.maxRecords) return reject(`batch of ${observations.length} observations exceeds the limit of ${limit.maxRecords}`, receiver);
    const time = field(json.value, 'time');
    const batch = new Batch(receiver);
    observations.forEach((entry: unknown, index) => {
      if (!isRecord(entry)) return batch.drop(`observation ${index} is not an object`);
      const tag = field(entry, 'tag');
      if (typeof tag !== 'string') return batch.drop(`observation ${index}: tag ${tag === undefined ? 'missing' : 'is not a string'}`);
      const rssi = readRssi(field(entry, 'rssi'));
      if (!rssi.ok) return batch.drop(`observation ${index}: ${rssi.reason}`);
      const raw = readRaw(field(entry, 'raw'), 'raw');
      if (!raw.ok) return batch.drop(`observation ${index}: ${raw.reason}`);
      const keys = observedKeys({ tag, raw: raw.value.hex });
      if (keys.length === 0) return batch.drop(`observation ${index}: tag ${quote(tag)} is not a MAC, {uuid}:{major}:{minor}, a key or an ESPresense id`);
      const own = field(entry, 'time');
      const heard = epochMs(own) === null ? time : own;
      batch.observations.push(observation({ receiver, keys, rssi: rssi.value, time: recordTime(heard, undefined, now, limit), txPower: raw.value.txPower, raw: raw.value.hex }));
    });
    return batch.result();
  });
}
