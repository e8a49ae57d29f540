import { ibeaconKey, normaliseMac, observedKeys } from './identity';
import {
  Batch,
  field,
  guarded,
  isRecord,
  observation,
  optionalPower,
  ParseLimits,
  ParseResult,
  quote,
  readBatchJson,
  readRaw,
  readRssi,
  receiverOf,
  recordTime,
  reject,
} from './observation';

/**
 * Minew BLE gateways (G1, G2, MG3, MG4) in their JSON ("JSON-LONG") upload format: the same body over HTTP POST (to
 * the URL configured on the gateway) and MQTT (to the publish topic configured on it; here `minew/{hardware_id}`).
 * An array whose first record describes the gateway, then one record per advertisement heard:
 *
 *   [{"timestamp":"2019-08-01T05:54:25Z","type":"Gateway","mac":"AC233FC001EA","gatewayFree":98,"gatewayLoad":0.05},
 *    {"timestamp":"2020-11-16T20:28:25.365Z","type":"iBeacon","mac":"0BE383050DE8","bleName":"",
 *     "ibeaconUuid":"6A08635B25F7410A8CF860EEFA2E6EAB","ibeaconMajor":1000,"ibeaconMinor":1500,"rssi":-58,
 *     "ibeaconTxPower":-70,"battery":0},
 *    {"timestamp":"2019-08-01T05:54:25Z","type":"Unknown","mac":"AC233FA03208","bleName":"","rssi":-79,
 *     "rawData":"0201060303E1FF0D16E1FFA10264000832A03F23AC"},
 *    {"timestamp":"2019-08-01T05:54:25Z","type":"S1","mac":"AC233FA018E3","bleName":"S1","rssi":-54,"battery":100,
 *     "temperature":26.69,"humidity":65.14}]
 *
 * Sources: reelyActive's barnowl-minew (github.com/reelyactive/barnowl-minew, lib/jsonlongpacketdecoder.js: a
 * JSON-LONG array starts with a record of `type` "Gateway" and a `mac`; each record has `mac`, `rssi`, `timestamp`
 * and, in that decoder, `rawData`), and captured G1 output quoted in public code (e.g. pdhoward/emulator
 * data/messages.js; a Spring MQTT demo's sample `[{"timestamp":"2022-06-17T02:03:51Z","type":"iBeacon",
 * "mac":"10C005091CD5","bleName":"","ibeaconUuid":"64E2FEFF5AF34D2C97C4643B70CD82EB","ibeaconMajor":4,
 * "ibeaconMinor":1,"rssi":-50,"ibeaconTxPower":-70,"battery":0}]`). MACs are 12 upper-case hex digits, uuids 32
 * without dashes, times ISO-8601 UTC with or without milliseconds, `ibeaconTxPower` the measured power at 1 m.
 * `rawData` can be "" (a scan response without data). Minew's "JSON-RAW" arrays (first record with `gateway` and
 * `locator`) and binary formats are not read: the reason says to choose JSON.
 *
 * The receiver is the hardware id from the topic or path when given, else the Gateway record's `mac`; the two
 * must agree when both are MACs. Without either, the message is rejected. There is no nonce: duplicates are for
 * the transport (MQTT packet ids, HTTP retries are rare on this hardware).
 */
export function parseMinew(body: unknown, now: number, hardwareId?: string, limits?: Partial<ParseLimits>): ParseResult {
  return guarded(() => {
    const json = readBatchJson(body, now, hardwareId, limits);
    if (!json.ok) return json;
    const { limit, declared } = json;
    const records = json.value;
    if (!Array.isArray(records)) return reject('body is not a JSON array (Minew sends an array starting with the Gateway record)', declared);
    const first: unknown = records[0];
    const hasGatewayRecord = isRecord(first) && field(first, 'type') === 'Gateway';
    if (!hasGatewayRecord && isRecord(first) && field(first, 'gateway') !== undefined && field(first, 'locator') !== undefined) {
      return reject("Minew's JSON-RAW format is not read: set the gateway's upload format to JSON", declared);
    }
    if (!hasGatewayRecord && hardwareId === undefined) return reject('first record is not the Gateway record and no hardware id was given', declared);
    const gatewayMac = hasGatewayRecord ? field(first, 'mac') : undefined;
    if (hasGatewayRecord && normaliseMac(gatewayMac) === null) return reject('the Gateway record has no MAC', declared);
    const receiver = receiverOf(hardwareId, hasGatewayRecord ? normaliseMac(gatewayMac) : null, 'the Gateway record mac');
    if (!receiver.ok) return receiver;
    const count = records.length - (hasGatewayRecord ? 1 : 0);
    if (count > limit.maxRecords) return reject(`batch of ${count} records exceeds the limit of ${limit.maxRecords}`, receiver.receiver);
    const batch = new Batch(receiver.receiver);
    for (let index = hasGatewayRecord ? 1 : 0; index < records.length; index += 1) {
      const record: unknown = records[index];
      if (!isRecord(record)) {
        batch.drop(`record ${index} is not an object`);
        continue;
      }
      if (field(record, 'type') === 'Gateway') continue;
      const mac = normaliseMac(field(record, 'mac'));
      if (mac === null) {
        batch.drop(`record ${index}: mac ${quote(field(record, 'mac'))} is not a MAC`);
        continue;
      }
      const rssi = readRssi(field(record, 'rssi'));
      if (!rssi.ok) {
        batch.drop(`record ${index} (${mac}): ${rssi.reason}`);
        continue;
      }
      const raw = readRaw(field(record, 'rawData'), 'rawData');
      if (!raw.ok) {
        batch.drop(`record ${index} (${mac}): ${raw.reason}`);
        continue;
      }
      let ibeacon: { uuid: unknown; major: unknown; minor: unknown } | undefined;
      if (field(record, 'type') === 'iBeacon' || field(record, 'ibeaconUuid') !== undefined) {
        ibeacon = { uuid: field(record, 'ibeaconUuid'), major: field(record, 'ibeaconMajor'), minor: field(record, 'ibeaconMinor') };
        if (ibeaconKey(ibeacon.uuid, ibeacon.major, ibeacon.minor) === null) {
          batch.drop(`record ${index} (${mac}): ibeaconUuid, ibeaconMajor, ibeaconMinor are not a uuid and two integers 0..65535`);
          continue;
        }
      }
      batch.observations.push(
        observation({
          receiver: receiver.receiver,
          keys: observedKeys({ ibeacon, raw: raw.value.hex, mac }),
          rssi: rssi.value,
          time: recordTime(field(record, 'timestamp'), undefined, now, limit),
          txPower: optionalPower(field(record, 'ibeaconTxPower')) ?? raw.value.txPower,
          raw: raw.value.hex,
        }),
      );
    }
    return batch.result();
  });
}
