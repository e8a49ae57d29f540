import { normaliseMac, observedKeys } from './identity';
import {
  badNow,
  Batch,
  field,
  guarded,
  isRecord,
  limitsOf,
  normaliseHardwareId,
  observation,
  ParseLimits,
  ParseResult,
  quote,
  readBatchJson,
  readJson,
  readRaw,
  readRssi,
  receiverOf,
  recordTime,
  reject,
} from './observation';

/**
 * Ruuvi Gateway (github.com/ruuvi/ruuvi.gateway_esp.c, checked at 5d0ab900: main/http_json.c, main/mqtt_json.c,
 * main/mqtt.c, tests/test_http_json, tests/test_mqtt_json; and docs.ruuvi.com, github.com/ruuvi/docs
 * ruuvi-gateway-firmware/data-formats/). The gateway relays the advertisements its nRF52 hears; `gw_mac` is the
 * nRF52's MAC (`AA:BB:CC:DD:EE:FF`), the tag keys and topics use the same upper-case colon form.
 *
 * HTTP(S) POST, every 10 s by default, one record per tag (the latest advertisement):
 *
 *   {"data": {"coordinates": "", "timestamp": 1612358920, "nonce": 12345678, "gw_mac": "AA:CC:EE:00:11:22",
 *     "tags": {"AA:BB:CC:01:02:03": {"rssi": -70, "timestamp": 1612358929, "ble_phy": "1M", "ble_chan": 37,
 *       "data": "0201061BFF99040515714D9FC56DFFF0FFF803E4B516E84D7EF41F0C28CBD6"}}}}
 *
 * Current firmware writes `timestamp` and `nonce` as numbers; the published JSON schema (and older firmware) as
 * strings ("1653633988"): both are read. Times are Unix seconds, the batch's when it was sent, each tag's when it
 * was heard; with time stamping off a tag has `counter` instead and the batch no `timestamp`; `nonce` (a counter
 * from a random start) may be off too. The optional `ble_tx_power` and the decoded `txPower` are the tag's
 * transmit power setting, not a power at 1 m, so they are not `txPower`. The gateway's statistics POST (an object
 * with `DEVICE_ADDR`, `ESP_FW`, `NRF_FW`…, main/http_json.c) is understood and ignored.
 *
 * MQTT: `{prefix}{tag_mac}` where the prefix defaults to `ruuvi/{gw_mac}/`, one message per advertisement:
 *
 *   {"gw_mac": "AA:CC:EE:00:11:22", "rssi": -70, "aoa": [], "gwts": 1612358920, "ts": 1612358929, "data": "…", "coords": ""}
 *
 * with `cnt` instead of `gwts`/`ts` when time stamping is off, `data` left out in the decoded-only format, and
 * `{prefix}gw_status` carrying `{"state": "online"}`/`{"state": "offline"}` (ignored).
 */
export function parseRuuviHttp(body: unknown, now: number, hardwareId?: string, limits?: Partial<ParseLimits>): ParseResult {
  return guarded(() => {
    const json = readBatchJson(body, now, hardwareId, limits);
    if (!json.ok) return json;
    const { limit, declared } = json;
    if (!isRecord(json.value)) return reject('body is not a JSON object', declared);
    const data = field(json.value, 'data');
    if (data === undefined && field(json.value, 'DEVICE_ADDR') !== undefined) {
      const receiver = receiverOf(hardwareId, normaliseMac(field(json.value, 'DEVICE_ADDR')), 'DEVICE_ADDR');
      return receiver.ok ? { ok: true, receiver: receiver.receiver, observations: [], rejected: 0, ignored: 'a Ruuvi Gateway statistics report' } : receiver;
    }
    if (!isRecord(data)) return reject('data is missing or not an object', declared);
    const gwMac = field(data, 'gw_mac');
    if (normaliseMac(gwMac) === null) return reject(gwMac === undefined ? 'gw_mac missing' : 'gw_mac is not a MAC', declared);
    const receiver = receiverOf(hardwareId, normaliseMac(gwMac), 'gw_mac');
    if (!receiver.ok) return receiver;
    const tags = field(data, 'tags');
    if (!isRecord(tags)) return reject('tags is missing or not an object', receiver.receiver);
    const entries = Object.entries(tags);
    if (entries.length > limit.maxRecords) return reject(`batch of ${entries.length} tags exceeds the limit of ${limit.maxRecords}`, receiver.receiver);
    const nonce = field(data, 'nonce');
    const dedup = (typeof nonce === 'number' && Number.isSafeInteger(nonce)) || (typeof nonce === 'string' && /^\d{1,20}$/.test(nonce)) ? String(nonce) : undefined;
    const sent = field(data, 'timestamp');
    const batch = new Batch(receiver.receiver);
    for (const [key, record] of entries) {
      const mac = normaliseMac(key);
      if (mac === null) {
        batch.drop(`tag key ${quote(key)} is not a MAC`);
        continue;
      }
      if (!isRecord(record)) {
        batch.drop(`tag ${mac} is not an object`);
        continue;
      }
      const rssi = readRssi(field(record, 'rssi'));
      if (!rssi.ok) {
        batch.drop(`tag ${mac}: ${rssi.reason}`);
        continue;
      }
      const raw = readRaw(field(record, 'data'), 'data');
      if (!raw.ok) {
        batch.drop(`tag ${mac}: ${raw.reason}`);
        continue;
      }
      batch.observations.push(
        observation({
          receiver: receiver.receiver,
          keys: observedKeys({ raw: raw.value.hex, mac }),
          rssi: rssi.value,
          time: recordTime(field(record, 'timestamp'), sent, now, limit),
          txPower: raw.value.txPower,
          raw: raw.value.hex,
          dedupKey: dedup === undefined ? undefined : `ruuvi:${normaliseMac(gwMac)}:${dedup}:${mac}`,
        }),
      );
    }
    return batch.result();
  });
}

/** Ruuvi Gateway's MQTT message on `ruuvi/{gw_mac}/{tag_mac}` (see parseRuuviHttp). */
export function parseRuuviMqtt(topic: string, payload: unknown, now: number, limits?: Partial<ParseLimits>): ParseResult {
  return guarded(() => {
    const bad = badNow(now);
    if (bad) return bad;
    const parts = typeof topic === 'string' ? topic.split('/') : [];
    if (parts.length !== 3 || parts[0] !== 'ruuvi') return reject(`topic ${quote(topic)} is not ruuvi/{gw_mac}/{tag_mac}`);
    const gateway = normaliseHardwareId(parts[1]);
    if (gateway === null) return reject(`gateway ${quote(parts[1])} in the topic is not a MAC or a name`);
    if (parts[2] === 'gw_status') return { ok: true, receiver: gateway, observations: [], rejected: 0, ignored: 'a Ruuvi Gateway status message' };
    const mac = normaliseMac(parts[2]);
    if (mac === null) return reject(`tag ${quote(parts[2])} in the topic is not a MAC`, gateway);
    const limit = limitsOf(limits);
    const json = readJson(payload, limit);
    if (!json.ok) return reject(json.reason, gateway);
    const body = json.value;
    if (!isRecord(body)) return reject('payload is not a JSON object', gateway);
    const gwMac = field(body, 'gw_mac');
    if (gwMac !== undefined && normaliseMac(gwMac) === null) return reject('gw_mac is not a MAC', gateway);
    const receiver = receiverOf(parts[1], normaliseMac(gwMac), 'gw_mac');
    if (!receiver.ok) return receiver;
    const rssi = readRssi(field(body, 'rssi'));
    if (!rssi.ok) return reject(rssi.reason, gateway);
    const raw = readRaw(field(body, 'data'), 'data');
    if (!raw.ok) return reject(raw.reason, gateway);
    const keys = observedKeys({ raw: raw.value.hex, mac });
    const time = recordTime(field(body, 'ts'), field(body, 'gwts'), now, limit);
    return {
      ok: true,
      receiver: gateway,
      observations: [observation({ receiver: gateway, keys, rssi: rssi.value, time, txPower: raw.value.txPower, raw: raw.value.hex })],
      rejected: 0,
    };
  });
}
