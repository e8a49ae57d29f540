import { observedKeys } from './identity';
import {
  badNow,
  field,
  guarded,
  isRecord,
  limitsOf,
  normaliseHardwareId,
  observation,
  optionalPower,
  ParseLimits,
  ParseResult,
  quote,
  readJson,
  readRssi,
  reject,
} from './observation';

/**
 * ESPresense (github.com/ESPresense/ESPresense, firmware 4.x; checked at a6f1105e, src/main.cpp and
 * src/BleFingerprint.cpp). Each node (an ESP32, named after its room) publishes, for each advertiser it reports,
 * `espresense/devices/{id}/{room}` at QoS 0, where `{room}` is the node id (`slugify(room)`) and `{id}` the device
 * id, with the body of BleFingerprint::fill:
 *
 *   {"mac":"58b1294494d3","id":"watch:darrell","name":"Darrell's Watch","rssi@1m":-64,"rssi":-86.00,
 *    "rxAdj":0,"rssiVar":1.20,"distance":5.89,"var":0.40,"int":588}
 *
 * - `rssi` is the node's filtered value (the median of recent readings) less the node's `rx_adj_rssi`, which it
 *   publishes as `rxAdj`; the received power is `rssi + rxAdj`, and that is what is kept (Cartograph learns each
 *   receiver's offset itself). Firmware before 4.1 has no `rxAdj` and an unadjusted `rssi`.
 * - `rssi@1m` is the advertiser's power at 1 m: a calibrated or advertised figure, else the node's default guess.
 * - Firmware 3.x and 4.0 send `raw` and `last`: the unfiltered distance in metres and the last raw RSSI. Neither is
 *   an advertisement, so no observation from ESPresense has `raw`; no ESPresense body has a time (`now` is used).
 * - Device ids (BleFingerprint::setId): a MAC (`58b1294494d3`, public or static random), `iBeacon:{uuid}-{major}-{minor}`,
 *   `altBeacon:…`, `eddy:{namespace}-{instance}`, `known:{mac}`, `irk:{32 hex}`, `name:{kebab name}`, `{kind}:{mac}`
 *   (tile, sonos, itag, garmin, mifit…), `apple:{type}:{length}`, `msft:cdp:…`, `md:`/`sd:` fingerprints, an alias set
 *   through `espresense/settings/{id}/config` (`watch:darrell`), and `node:{room}` for another node.
 *
 * Nodes hearing each other (for a later calibration step): every node advertises an iBeacon
 * `e5ca1ade-f007-ba11-0000-000000000000` whose major/minor come from its eFuse MAC (src/Enrollment.cpp), and publishes
 * retained `espresense/settings/iBeacon:e5ca1ade-…-{major}-{minor}/config` = `{"id":"node:{room}","name":"{room}"}`,
 * so the other nodes report it as `espresense/devices/node:{tx}/{rx}`. ESPresense-companion (github.com/ESPresense/
 * ESPresense-companion, src/Services/DeviceTracker.cs and src/Models/RxNode.cs) keeps, for each pair of stationary
 * nodes, the latest `rssi`, `rxAdj`, `rssi@1m` and `distance` against the distance between the nodes on the map, and
 * fits per node `absorption`, `rx_adj_rssi` and `tx_ref_rssi` (src/Optimizers/), which it writes back on
 * `espresense/rooms/{node}/{setting}/set`. Here such an observation carries `transmitterNode`: the transmitting node's
 * hardware id, next to the receiver's, which is what that fit needs.
 *
 * Other topics of the family: `espresense/rooms/{room}/telemetry` (JSON: ip, uptime, firm, rssi (Wi-Fi), ver,
 * count, adverts, seen, reported, freeHeap…), `espresense/rooms/{room}/status` (`online`/`offline`, the MQTT will),
 * `espresense/rooms/{room}/{setting}` (retained settings) and `espresense/devices/{id}/{room}/{report}` (query
 * reports): understood, nothing to observe (`ignored`, with the room as receiver, so health sees the node).
 * `espresense/settings/…`, `espresense/companion/…` and commands (`espresense/rooms/{room}/{setting}/set`) come from
 * no gateway: rejected with `ignored: true`.
 */
export function parseEspresense(topic: string, payload: unknown, now: number, limits?: Partial<ParseLimits>): ParseResult {
  return guarded(() => {
    const bad = badNow(now);
    if (bad) return bad;
    const parts = typeof topic === 'string' ? topic.split('/') : [];
    if (parts[0] !== 'espresense' || parts.length < 2) return reject(`topic ${quote(topic)} is not an espresense/… topic`);
    if (parts[1] === 'rooms' && parts[parts.length - 1] === 'set') return { ok: false, reason: 'a command to ESPresense nodes carries no observation', ignored: true };
    if (parts[1] === 'rooms' && parts.length >= 4) {
      const room = normaliseHardwareId(parts[2]);
      if (room === null) return reject(`room ${quote(parts[2])} in the topic is not a node id`);
      return { ok: true, receiver: room, observations: [], rejected: 0, ignored: `an ESPresense node's ${parts.slice(3).join('/')} message` };
    }
    if (parts[1] !== 'devices') return { ok: false, reason: `${parts.slice(0, 2).join('/')}/… carries no observation`, ignored: true };
    if (parts.length < 4 || parts.length > 5) return reject(`topic ${quote(topic)} is not espresense/devices/{id}/{room}`);
    const room = normaliseHardwareId(parts[3]);
    if (room === null) return reject(`room ${quote(parts[3])} in the topic is not a node id`);
    if (parts.length === 5) return { ok: true, receiver: room, observations: [], rejected: 0, ignored: 'an ESPresense query report' };
    const id = parts[2];
    const json = readJson(payload, limitsOf(limits));
    if (!json.ok) return reject(json.reason, room);
    const body = json.value;
    if (!isRecord(body)) return reject('payload is not a JSON object', room);
    const reported = readRssi(field(body, 'rssi'));
    if (!reported.ok) return reject(reported.reason, room);
    const rxAdj = field(body, 'rxAdj');
    const rssi = typeof rxAdj === 'number' && Number.isFinite(rxAdj) && Math.abs(rxAdj) <= 100 ? readRssi(reported.value + rxAdj, 'rssi + rxAdj') : reported;
    if (!rssi.ok) return reject(rssi.reason, room);
    const mac = field(body, 'mac');
    const keys = observedKeys({ espresenseId: id, mac: typeof mac === 'string' ? mac : undefined });
    if (keys.length === 0) return reject(`device id ${quote(id)} is empty, too long or contains a wildcard or control character`, room);
    const node = /^node:/i.test(id) ? normaliseHardwareId(id.slice(5)) : null;
    return {
      ok: true,
      receiver: room,
      observations: [
        observation({ receiver: room, keys, rssi: rssi.value, time: Math.round(now), txPower: optionalPower(field(body, 'rssi@1m')), transmitterNode: node ?? undefined }),
      ],
      rejected: 0,
    };
  });
}
