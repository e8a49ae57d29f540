import { describe, expect, it } from 'vitest';
import { parseCartograph } from './cartograph';
import { parseGatewayMessage } from './dispatch';
import { parseEspresense } from './espresense';
import { parseMinew } from './minew';
import { epochMs, ParsedMessage, ParseResult, recordTime, DEFAULT_LIMITS } from './observation';
import { parseRuuviHttp, parseRuuviMqtt } from './ruuvi';

const parsed = (result: ParseResult): ParsedMessage => {
  if (!result.ok) throw new Error(`rejected: ${result.reason}`);
  return result;
};
const reason = (result: ParseResult): string => {
  if (result.ok) throw new Error('expected a rejection');
  return result.reason;
};

describe('ESPresense', () => {
  // ESPresense-companion's recorded traffic, tests/ESPresense.Companion.Tests/TestData/stationary,7,14.75,1.25.jsonp line 1
  // (firmware 3.x/4.0: `raw` is the unfiltered distance, no rxAdj).
  const RECORDED = { mac: '58b1294494d3', id: 'watch:darrell', name: "Darrell's Watch", idType: 250, 'rssi@1m': -64, rssi: -86, raw: 5.24, distance: 5.89, int: 588 };
  const NOW = Date.UTC(2023, 10, 28, 0, 47, 59, 913);

  it('reads a recorded device message: the room is the receiver, the id and the body MAC the keys', () => {
    const result = parsed(parseEspresense('espresense/devices/watch:darrell/basement', JSON.stringify(RECORDED), NOW));
    expect(result).toEqual({
      ok: true,
      receiver: 'basement',
      rejected: 0,
      observations: [{ receiver: 'basement', transmitter: 'espresense:watch:darrell', keys: ['espresense:watch:darrell', 'mac:58b1294494d3'], rssi: -86, time: NOW, txPower: -64 }],
    });
  });

  it('current firmware (BleFingerprint::fill): rssi + rxAdj is the received power, an iBeacon id gives the ibeacon key', () => {
    // The body fill() writes at ESPresense a6f1105e: mac, id, rssi@1m, rssi (2 decimals), rxAdj, rssiVar, distance, var, int.
    const body = Buffer.from(
      '{"mac":"c7a2b1d3e4f5","id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-100-1","rssi@1m":-59,"rssi":-74.50,"rxAdj":-3,"rssiVar":2.10,"distance":4.12,"var":0.80,"int":1020}',
    );
    const [observation] = parsed(parseEspresense('espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-100-1/living_room', body, NOW)).observations;
    expect(observation).toEqual({
      receiver: 'living_room',
      transmitter: 'ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1',
      keys: ['ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:100:1', 'espresense:ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-100-1', 'mac:c7a2b1d3e4f5'],
      rssi: -77.5,
      time: NOW,
      txPower: -59,
    });
  });

  it('marks a node heard by another node (node:{id}) for calibration', () => {
    const [observation] = parsed(
      parseEspresense('espresense/devices/node:kitchen/office', '{"id":"node:kitchen","rssi@1m":-65,"rssi":-80,"rxAdj":0,"distance":6.1}', NOW),
    ).observations;
    expect(observation.transmitterNode).toBe('kitchen');
    expect(observation.receiver).toBe('office');
    expect(observation.keys).toEqual(['espresense:node:kitchen']);
  });

  it('understands telemetry, status, query reports and settings without observations', () => {
    expect(parseEspresense('espresense/rooms/office/telemetry', '{"ip":"10.0.0.5","uptime":3600,"rssi":-60,"count":4}', NOW)).toMatchObject({
      ok: true,
      receiver: 'office',
      observations: [],
      ignored: expect.any(String),
    });
    expect(parseEspresense('espresense/rooms/office/status', 'offline', NOW)).toMatchObject({ ok: true, receiver: 'office', observations: [] });
    expect(parseEspresense('espresense/devices/flora:c47c8d6a1b2c/office/battery', '{}', NOW)).toMatchObject({ ok: true, receiver: 'office', observations: [] });
    expect(parseEspresense('espresense/settings/iBeacon:e5ca1ade-f007-ba11-0000-000000000000-1-2/config', '{"id":"node:office"}', NOW)).toMatchObject({ ok: false, ignored: true });
    expect(parseEspresense('espresense/rooms/*/restart/set', 'PRESS', NOW)).toMatchObject({ ok: false, ignored: true });
  });

  it('rejects with a reason, naming the room when it is known', () => {
    expect(parseEspresense('espresense/devices/watch:darrell/basement', 'not json', NOW)).toEqual({ ok: false, reason: 'payload is not JSON', receiver: 'basement' });
    expect(reason(parseEspresense('espresense/devices/watch:darrell/basement', '{"distance":2}', NOW))).toBe('rssi missing');
    expect(reason(parseEspresense('espresense/devices/watch:darrell/basement', '{"rssi":"-70"}', NOW))).toBe('rssi is not a number');
    expect(reason(parseEspresense('espresense/devices/watch:darrell/basement', '{"rssi":-300}', NOW))).toMatch(/outside -127\.\.20/);
    expect(reason(parseEspresense('espresense/devices/watch:darrell/basement', '{"rssi":-1e400}', NOW))).toBe('rssi is not a finite number');
    expect(reason(parseEspresense('espresense/devices/watch:darrell/basement', '[1]', NOW))).toBe('payload is not a JSON object');
    expect(reason(parseEspresense('espresense/devices/watch:darrell', '{"rssi":-70}', NOW))).toMatch(/espresense\/devices\/\{id\}\/\{room\}/);
    expect(reason(parseEspresense('espresense/devices/watch/Living Room', '{"rssi":-70}', NOW))).toMatch(/not a node id/);
    expect(reason(parseEspresense('espresense/devices/watch:darrell/basement', Buffer.from([0xff, 0xfe, 0x7b]), NOW))).toBe('payload is not UTF-8');
    expect(reason(parseEspresense('espresense/devices/watch:darrell/basement', '', NOW))).toBe('payload is empty');
  });
});

describe('Ruuvi Gateway over HTTP', () => {
  // docs.ruuvi.com, github.com/ruuvi/docs ruuvi-gateway-firmware/data-formats/http-time-stamped-data-from-bluetooth-sensors.md:
  // the schema's example, timestamps and nonce as strings.
  const DOCS_BATCH = {
    data: {
      coordinates: '',
      timestamp: '1653633988',
      nonce: '2636366621',
      gw_mac: 'C8:25:2D:8E:9C:2C',
      tags: {
        'C6:A5:B9:E0:AD:06': { rssi: -71, timestamp: '1653633986', data: '0201061BFF99040513C85714C7CC00240008041CAB76F41C3CC6A5B9E0AD06' },
        'E3:75:CF:37:4E:23': { rssi: -72, timestamp: '1653633986', data: '0201061BFF99040514565D7CC7850008003C03E4A9F6741CC3E375CF374E23' },
      },
    },
  };
  // ruuvi.gateway_esp.c tests/test_http_json/test_http_json.cpp: what current firmware writes (numbers, ble_phy, ble_chan).
  const FIRMWARE_BATCH = `{
  "data": {
    "coordinates": "170.112233,59.445566",
    "timestamp": 1612358920,
    "nonce": 12345678,
    "gw_mac": "AA:CC:EE:00:11:22",
    "tags": {
      "AA:BB:CC:01:02:03": {
        "rssi": -70,
        "timestamp": 1612358929,
        "ble_phy": "2M",
        "ble_chan": 25,
        "ble_tx_power": 7,
        "data": "0201061AFF4C000215EB6D469624BE4663B15230D46B0E9CC9000D002AC0"
      }
    }
  }
}`;

  it('reads the documented batch: one observation per tag, deduplicated by nonce and tag, timed by the gateway', () => {
    const now = 1653633988_300;
    const result = parsed(parseRuuviHttp(DOCS_BATCH, now));
    expect(result.receiver).toBe('c8252d8e9c2c');
    expect(result.rejected).toBe(0);
    expect(result.observations.map((o) => [o.transmitter, o.rssi, o.time, o.dedupKey])).toEqual([
      // Heard in the second 1653633986: the middle of it (the arrival is two seconds later).
      ['mac:c6a5b9e0ad06', -71, 1653633986_500, 'ruuvi:c8252d8e9c2c:2636366621:c6a5b9e0ad06'],
      ['mac:e375cf374e23', -72, 1653633986_500, 'ruuvi:c8252d8e9c2c:2636366621:e375cf374e23'],
    ]);
    expect(result.observations[0].raw).toBe('0201061bff99040513c85714c7cc00240008041cab76f41c3cc6a5b9e0ad06');
  });

  it("reads the firmware's numbers; an iBeacon in data gives the ibeacon key and the power at 1 m, not ble_tx_power", () => {
    const [observation] = parsed(parseRuuviHttp(Buffer.from(FIRMWARE_BATCH), 1612358929_400, 'AA:CC:EE:00:11:22')).observations;
    expect(observation).toMatchObject({
      receiver: 'aaccee001122',
      keys: ['ibeacon:eb6d4696-24be-4663-b152-30d46b0e9cc9:13:42', 'mac:aabbcc010203'],
      rssi: -70,
      txPower: -64,
      dedupKey: 'ruuvi:aaccee001122:12345678:aabbcc010203',
    });
  });

  it("takes record times relative to the batch's send time when the gateway's clock is off", () => {
    const anHourLater = 1653633988_300 + 3_600_000;
    expect(parsed(parseRuuviHttp(DOCS_BATCH, anHourLater)).observations[0].time).toBe(anHourLater - 2000);
  });

  it('drops and counts a malformed tag record, keeps the others', () => {
    const body = structuredClone(DOCS_BATCH) as { data: { tags: Record<string, unknown> } };
    body.data.tags['F4:1F:0C:28:CB:D6'] = { rssi: 5000, timestamp: '1653633986', data: '' };
    body.data.tags['not-a-mac'] = { rssi: -60 };
    body.data.tags['D0:D0:D0:D0:D0:D0'] = { rssi: -60, data: 'xyz' };
    const result = parsed(parseRuuviHttp(body, 1653633988_300));
    expect(result.observations).toHaveLength(2);
    expect(result.rejected).toBe(3);
    expect(result.lastReason).toBe('tag d0d0d0d0d0d0: data is not a hex string');
  });

  it('without timestamps or nonce (counter mode): now, and no dedup key', () => {
    // ruuvi-gateway-firmware/data-formats/http-data-from-bluetooth-sensors-without-timestamps.md
    const body = { data: { coordinates: '', nonce: '2896361039', gw_mac: 'C8:25:2D:8E:9C:2C', tags: { 'E3:75:CF:37:4E:23': { rssi: -50, counter: '363', data: '02010603' } } } };
    const withoutNonce = { data: { ...body.data, nonce: undefined } };
    expect(parsed(parseRuuviHttp(body, 1_700_000_000_000)).observations[0].time).toBe(1_700_000_000_000);
    expect(parsed(parseRuuviHttp(withoutNonce, 1_700_000_000_000)).observations[0].dedupKey).toBeUndefined();
  });

  it('ignores the statistics report and rejects bodies that are not a batch', () => {
    expect(parseRuuviHttp({ DEVICE_ADDR: 'C8:25:2D:8E:9C:2C', ESP_FW: 'v1.15.0', NRF_FW: 'v1.0.0', NRF_STATUS: true }, 1)).toMatchObject({
      ok: true,
      receiver: 'c8252d8e9c2c',
      ignored: expect.any(String),
    });
    expect(reason(parseRuuviHttp({ data: { gw_mac: 'nope', tags: {} } }, 1))).toBe('gw_mac is not a MAC');
    expect(reason(parseRuuviHttp({ data: { tags: {} } }, 1))).toBe('gw_mac missing');
    expect(reason(parseRuuviHttp({ data: { gw_mac: 'C8:25:2D:8E:9C:2C', tags: [] } }, 1))).toBe('tags is missing or not an object');
    expect(reason(parseRuuviHttp({ data: { gw_mac: 'C8:25:2D:8E:9C:2C', tags: {} } }, 1, 'AA:AA:AA:AA:AA:AA'))).toBe(
      'gw_mac c8252d8e9c2c does not match the hardware id aaaaaaaaaaaa',
    );
    expect(reason(parseRuuviHttp('[', 1))).toBe('payload is not JSON');
    const many = { data: { gw_mac: 'C8:25:2D:8E:9C:2C', tags: { 'AA:AA:AA:AA:AA:01': { rssi: -1 }, 'AA:AA:AA:AA:AA:02': { rssi: -1 }, 'AA:AA:AA:AA:AA:03': { rssi: -1 } } } };
    expect(reason(parseRuuviHttp(many, 1, undefined, { maxRecords: 2 }))).toBe('batch of 3 tags exceeds the limit of 2');
    expect(reason(parseRuuviHttp(Buffer.alloc(300 * 1024, 0x20), 1))).toBe('payload larger than 262144 bytes');
  });

  it('reads a tag keyed __proto__ or constructor as data, not as a prototype', () => {
    const body = '{"data":{"gw_mac":"C8:25:2D:8E:9C:2C","tags":{"__proto__":{"rssi":-60},"constructor":{"rssi":-61},"AA:AA:AA:AA:AA:01":{"rssi":-62}}}}';
    const result = parsed(parseRuuviHttp(body, 1_700_000_000_000));
    expect(result.observations.map((o) => o.rssi)).toEqual([-62]);
    expect(result.rejected).toBe(2);
  });
});

describe('Ruuvi Gateway over MQTT', () => {
  // ruuvi.gateway_esp.c tests/test_mqtt_json/test_mqtt_json.cpp (topic: main/mqtt.c, default prefix ruuvi/{gw_mac}/).
  const WITH_TIMESTAMPS = '{"gw_mac":"AA:CC:EE:00:11:22","rssi":-70,"aoa":[],"gwts":1612358920,"ts":1612358929,"data":"AA","coords":"170.112233,59.445566"}';
  // docs: ruuvi-gateway-firmware/data-formats/mqtt-data-from-bluetooth-sensors-without-timestamps.md
  const WITHOUT_TIMESTAMPS = '{"gw_mac":"C8:25:2D:8E:9C:2C","rssi":-25,"aoa":[],"cnt":"338","data":"0201061BFF990405166455D5C6DE0008FFF403F0AE760F2A8BF41F0C28CBD6","coords":""}';

  it('reads one advertisement per message; the topic names gateway and tag', () => {
    const now = 1612358920_200;
    expect(parsed(parseRuuviMqtt('ruuvi/AA:CC:EE:00:11:22/AA:BB:CC:01:02:03', WITH_TIMESTAMPS, now)).observations).toEqual([
      { receiver: 'aaccee001122', transmitter: 'mac:aabbcc010203', keys: ['mac:aabbcc010203'], rssi: -70, time: now, raw: 'aa' },
    ]);
    expect(parsed(parseRuuviMqtt('ruuvi/C8:25:2D:8E:9C:2C/F4:1F:0C:28:CB:D6', WITHOUT_TIMESTAMPS, now)).observations[0]).toMatchObject({
      transmitter: 'mac:f41f0c28cbd6',
      rssi: -25,
      time: now,
    });
  });

  it("takes ts relative to gwts when the gateway's clock is off", () => {
    const body = '{"gw_mac":"AA:CC:EE:00:11:22","rssi":-70,"aoa":[],"gwts":100000,"ts":99998,"data":"AA","coords":""}';
    expect(parsed(parseRuuviMqtt('ruuvi/AA:CC:EE:00:11:22/AA:BB:CC:01:02:03', body, 1_700_000_000_000)).observations[0].time).toBe(1_700_000_000_000 - 2000);
  });

  it('ignores gw_status and rejects a mismatched or malformed message', () => {
    expect(parseRuuviMqtt('ruuvi/AA:CC:EE:00:11:22/gw_status', '{"state": "online"}', 1)).toMatchObject({ ok: true, observations: [], ignored: expect.any(String) });
    expect(parseRuuviMqtt('ruuvi/AA:CC:EE:00:11:22/AA:BB:CC:01:02:03', WITHOUT_TIMESTAMPS, 1)).toEqual({
      ok: false,
      reason: 'gw_mac c8252d8e9c2c does not match the hardware id aaccee001122',
      receiver: 'aaccee001122',
    });
    expect(reason(parseRuuviMqtt('ruuvi/AA:CC:EE:00:11:22/sensor', WITH_TIMESTAMPS, 1))).toMatch(/not a MAC/);
    expect(reason(parseRuuviMqtt('ruuvi/AA:CC:EE:00:11:22', WITH_TIMESTAMPS, 1))).toMatch(/ruuvi\/\{gw_mac\}\/\{tag_mac\}/);
    expect(reason(parseRuuviMqtt('ruuvi/AA:CC:EE:00:11:22/AA:BB:CC:01:02:03', '{"gw_mac":"AA:CC:EE:00:11:22"}', 1))).toBe('rssi missing');
  });
});

describe('Minew', () => {
  // pdhoward/emulator data/messages.js (a captured G1 upload) and a captured MG3 array quoted in public code
  // (Gateway, Unknown with rawData, S1 sensor, a scan response with rawData "").
  const CAPTURED = [
    { timestamp: '2020-11-16T20:28:22.456Z', type: 'Gateway', mac: 'AC233FC07DA5', gatewayFree: 42, gatewayLoad: 1.15 },
    {
      timestamp: '2020-11-16T20:28:25.365Z',
      type: 'iBeacon',
      mac: '0BE383050DE8',
      bleName: '',
      ibeaconUuid: '6A08635B25F7410A8CF860EEFA2E6EAB',
      ibeaconMajor: 1000,
      ibeaconMinor: 1500,
      rssi: -58,
      ibeaconTxPower: -70,
      battery: 0,
    },
    { timestamp: '2020-11-16T20:28:25Z', type: 'Unknown', mac: 'AC233FA03208', bleName: '', rssi: -79, rawData: '0201060303E1FF0D16E1FFA10264000832A03F23AC' },
    { timestamp: '2020-11-16T20:28:25Z', type: 'S1', mac: 'AC233FA018E3', bleName: 'S1', rssi: -54, battery: 100, temperature: 26.69, humidity: 65.14 },
    { timestamp: '2020-11-16T20:28:25Z', type: 'Unknown', mac: 'AC233FA018E3', bleName: '', rssi: -53, rawData: '' },
  ];
  const NOW = Date.parse('2020-11-16T20:28:25.900Z');

  it('reads the array: the Gateway record names the receiver, iBeacon fields give the ibeacon key and txPower', () => {
    const result = parsed(parseMinew(JSON.stringify(CAPTURED), NOW));
    expect(result.receiver).toBe('ac233fc07da5');
    expect(result.rejected).toBe(0);
    expect(result.observations[0]).toEqual({
      receiver: 'ac233fc07da5',
      transmitter: 'ibeacon:6a08635b-25f7-410a-8cf8-60eefa2e6eab:1000:1500',
      keys: ['ibeacon:6a08635b-25f7-410a-8cf8-60eefa2e6eab:1000:1500', 'mac:0be383050de8'],
      rssi: -58,
      time: Date.parse('2020-11-16T20:28:25.365Z'),
      txPower: -70,
    });
    // Whole-second times: the arrival falls in that second.
    expect(result.observations.slice(1).map((o) => [o.transmitter, o.rssi, o.time, o.raw])).toEqual([
      ['mac:ac233fa03208', -79, NOW, '0201060303e1ff0d16e1ffa10264000832a03f23ac'],
      ['mac:ac233fa018e3', -54, NOW, undefined],
      ['mac:ac233fa018e3', -53, NOW, undefined],
    ]);
  });

  it('takes the topic or path hardware id, which must agree with the Gateway record', () => {
    expect(parsed(parseMinew(CAPTURED, NOW, 'AC:23:3F:C0:7D:A5')).receiver).toBe('ac233fc07da5');
    expect(parsed(parseMinew(CAPTURED, NOW, 'Warehouse-North')).receiver).toBe('warehouse-north');
    expect(reason(parseMinew(CAPTURED, NOW, 'AC233FC00000'))).toBe('the Gateway record mac ac233fc07da5 does not match the hardware id ac233fc00000');
    expect(parsed(parseMinew(CAPTURED.slice(1), NOW, 'ac233fc07da5')).observations).toHaveLength(4);
    expect(reason(parseMinew(CAPTURED.slice(1), NOW))).toBe('first record is not the Gateway record and no hardware id was given');
  });

  it('drops malformed records with a reason and rejects what is not a Minew array', () => {
    const records = [
      ...CAPTURED,
      { type: 'iBeacon', mac: 'AC233FA00001', rssi: -60, ibeaconUuid: 'nope', ibeaconMajor: 1, ibeaconMinor: 1 },
      { type: 'Unknown', mac: 'nope', rssi: -60 },
      'x',
    ];
    const result = parsed(parseMinew(records, NOW));
    expect(result.observations).toHaveLength(4);
    expect(result.rejected).toBe(3);
    expect(result.lastReason).toBe('record 7 is not an object');
    expect(reason(parseMinew({ type: 'Gateway' }, NOW))).toMatch(/not a JSON array/);
    expect(reason(parseMinew([{ gateway: 'AC233FC07DA5', locator: 1 }], NOW))).toMatch(/JSON-RAW/);
    expect(reason(parseMinew([{ type: 'Gateway', mac: 'x' }], NOW))).toBe('the Gateway record has no MAC');
    expect(reason(parseMinew(CAPTURED, NOW, undefined, { maxRecords: 3 }))).toBe('batch of 4 records exceeds the limit of 3');
  });
});

describe('Cartograph JSON', () => {
  const NOW = Date.parse('2026-05-04T10:15:31.000Z');
  const BODY = {
    time: '2026-05-04T10:15:30.250Z',
    observations: [
      { tag: 'AC:23:3F:A0:32:08', rssi: -71 },
      { tag: 'e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42', rssi: -80.5, raw: '0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E00001002AC5' },
      { tag: 'irk:e46c37a106468d1376c58d33881ee47a', rssi: -66, time: 1777889730100 },
    ],
  };

  it('reads the documented body', () => {
    const result = parsed(parseCartograph('Pi-Lobby', BODY, NOW));
    expect(result.receiver).toBe('pi-lobby');
    expect(result.observations.map((o) => [o.transmitter, o.rssi, o.time, o.txPower])).toEqual([
      ['mac:ac233fa03208', -71, Date.parse('2026-05-04T10:15:30.250Z'), undefined],
      ['ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42', -80.5, Date.parse('2026-05-04T10:15:30.250Z'), -59],
      ['espresense:irk:e46c37a106468d1376c58d33881ee47a', -66, 1777889730100, undefined],
    ]);
  });

  it('time: epoch ms or seconds, ISO without a zone as UTC, implausible or missing → now', () => {
    const timeOf = (time: unknown) => parsed(parseCartograph('gw', { time, observations: [{ tag: 'aabbccddeeff', rssi: -70 }] }, NOW)).observations[0].time;
    expect(timeOf(NOW - 1234)).toBe(NOW - 1234);
    expect(timeOf((NOW - 1234) / 1000)).toBe(NOW - 1234);
    expect(timeOf('2026-05-04T10:15:30.5')).toBe(NOW - 500);
    expect(timeOf('2026-05-04T12:15:30.5+02:00')).toBe(NOW - 500);
    expect(timeOf('2026-05-04T12:15:30.5+0200')).toBe(NOW - 500);
    expect(timeOf(0)).toBe(NOW);
    expect(timeOf('1970-01-01T00:00:05Z')).toBe(NOW);
    expect(timeOf(NOW + 3_600_000)).toBe(NOW);
    expect(timeOf(NOW + 10_000)).toBe(NOW);
    expect(timeOf('yesterday')).toBe(NOW);
    expect(timeOf(undefined)).toBe(NOW);
  });

  it('drops bad observations with a reason; rejects a body without observations', () => {
    const result = parsed(
      parseCartograph(
        'gw',
        {
          observations: [{ tag: 'aabbccddeeff', rssi: -70 }, { tag: 'aabbccddeeff' }, { rssi: -70 }, { tag: 'a/b', rssi: -70 }, { tag: 'aabbccddeeff', rssi: -70, raw: 'xyz' }, 7],
        },
        NOW,
      ),
    );
    expect(result.observations).toHaveLength(1);
    expect(result.rejected).toBe(5);
    expect(result.lastReason).toBe('observation 5 is not an object');
    expect(reason(parseCartograph('gw', { observation: [] }, NOW))).toBe('observations is missing or not an array');
    expect(reason(parseCartograph('gw/1', { observations: [] }, NOW))).toMatch(/hardware id/);
    expect(reason(parseCartograph('gw', { observations: [] }, Number.NaN))).toBe('now is not a finite epoch ms');
  });
});

describe('the dispatcher', () => {
  const NOW = 1_700_000_000_000;

  it('routes MQTT by topic and HTTP by declared format', () => {
    expect(parsed(parseGatewayMessage({ topic: 'espresense/devices/aabbccddeeff/hall', payload: '{"rssi":-70}', now: NOW })).receiver).toBe('hall');
    expect(parsed(parseGatewayMessage({ topic: 'ruuvi/AA:CC:EE:00:11:22/AA:BB:CC:01:02:03', payload: '{"rssi":-70}', now: NOW })).receiver).toBe('aaccee001122');
    const minew = '[{"type":"Gateway","mac":"AC233FC07DA5"},{"type":"Unknown","mac":"AC233FA03208","rssi":-79}]';
    expect(parsed(parseGatewayMessage({ topic: 'minew/ac233fc07da5', payload: minew, now: NOW })).observations).toHaveLength(1);
    expect(
      parsed(parseGatewayMessage({ topic: 'cartograph/gateways/pi-1/observations', payload: '{"observations":[{"tag":"aabbccddeeff","rssi":-70}]}', now: NOW })).receiver,
    ).toBe('pi-1');
    expect(parsed(parseGatewayMessage({ format: 'minew', hardwareId: 'AC233FC07DA5', payload: JSON.parse(minew), now: NOW })).receiver).toBe('ac233fc07da5');
    expect(parsed(parseGatewayMessage({ format: 'ruuvi', payload: { data: { gw_mac: 'C8:25:2D:8E:9C:2C', tags: {} } }, now: NOW })).receiver).toBe('c8252d8e9c2c');
    expect(parsed(parseGatewayMessage({ format: 'cartograph', hardwareId: 'pi-1', payload: { observations: [] }, now: NOW })).receiver).toBe('pi-1');
  });

  it('refuses what it cannot route, with a reason', () => {
    expect(reason(parseGatewayMessage({ topic: 'homeassistant/sensor/x', payload: '{}', now: NOW }))).toMatch(/not a gateway topic/);
    expect(parseGatewayMessage({ topic: 'ruuvi/AA:CC:EE:00:11:22/AA:BB:CC:01:02:03', format: 'minew', payload: '{}', now: NOW })).toMatchObject({
      ok: false,
      receiver: 'aaccee001122',
    });
    expect(reason(parseGatewayMessage({ topic: 'minew/a/b', payload: '[]', now: NOW }))).toMatch(/minew\/\{hardware_id\}/);
    expect(reason(parseGatewayMessage({ topic: 'cartograph/gateways/pi-1', payload: '{}', now: NOW }))).toMatch(/observations/);
    expect(reason(parseGatewayMessage({ format: 'espresense', payload: '{}', now: NOW }))).toMatch(/MQTT only/);
    expect(reason(parseGatewayMessage({ format: 'cartograph', payload: '{}', now: NOW }))).toMatch(/no hardware id/);
    expect(reason(parseGatewayMessage({ payload: '{}', now: NOW }))).toMatch(/no topic and no format/);
    expect(reason(parseGatewayMessage({ format: 'kontakt' as never, payload: '{}', now: NOW }))).toMatch(/not one of/);
  });
});

describe('times', () => {
  it('detect seconds, milliseconds, microseconds and nanoseconds', () => {
    expect(epochMs(1_700_000_000)).toEqual({ ms: 1_700_000_000_000, resolution: 1000 });
    expect(epochMs(1_700_000_000.25)).toEqual({ ms: 1_700_000_000_250, resolution: 0 });
    expect(epochMs('1700000000')).toEqual({ ms: 1_700_000_000_000, resolution: 1000 });
    expect(epochMs(1_700_000_000_123)).toEqual({ ms: 1_700_000_000_123, resolution: 0 });
    expect(epochMs(1_700_000_000_123_000)).toEqual({ ms: 1_700_000_000_123, resolution: 0 });
    expect(epochMs(1_700_000_000_123_000_000)).toEqual({ ms: 1_700_000_000_123, resolution: 0 });
    expect(epochMs('2023-11-14T22:13:20Z')).toEqual({ ms: 1_700_000_000_000, resolution: 1000 });
    expect(epochMs('2023-11-14T22:13Z')).toEqual({ ms: 1_699_999_980_000, resolution: 60_000 });
    for (const bad of [-1, 0, Number.NaN, Number.POSITIVE_INFINITY, 'soon', '2023-11-14', '2023-13-45T99:99:99Z', null, {}, []]) expect(epochMs(bad)).toBeNull();
  });

  it('a record time within the limits is kept, never later than now', () => {
    const now = 1_700_000_000_000;
    expect(recordTime(now - 400, undefined, now, DEFAULT_LIMITS)).toBe(now - 400);
    expect(recordTime(now + 400, undefined, now, DEFAULT_LIMITS)).toBe(now);
    expect(recordTime(now - DEFAULT_LIMITS.maxPastMs - 1, undefined, now, DEFAULT_LIMITS)).toBe(now);
    // A batch sent by a clock a day behind, with a record heard 3 s before sending.
    expect(recordTime(1_000_000_000 - 3, 1_000_000_000, now, DEFAULT_LIMITS)).toBe(now - 3000);
    // A record heard "after" it was sent, by more than the skew: the arrival.
    expect(recordTime(1_000_000_100, 1_000_000_000, now, DEFAULT_LIMITS)).toBe(now);
  });
});
