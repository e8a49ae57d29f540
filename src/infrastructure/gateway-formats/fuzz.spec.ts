import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCartograph } from './cartograph';
import { parseGatewayMessage } from './dispatch';
import { parseEspresense } from './espresense';
import { observedKeys, parseTagIdentity } from './identity';
import { parseMinew } from './minew';
import { MAX_RSSI, MIN_RSSI, normaliseHardwareId, ParseResult } from './observation';
import { parseRuuviHttp, parseRuuviMqtt } from './ruuvi';

/** Property runs are reproducible: a fixed seed, enough runs to reach the nested paths. */
const RUNS = { seed: 39, numRuns: 400 } as const;
const NOW = 1_700_000_000_000;

let produced = 0;

/**
 * Whatever came in, what comes out is well-formed: a reason, or observations that keep every promise of Observation.
 * A parser's guard turns a throw into an "internal error" rejection; none may happen.
 */
function wellFormed(result: ParseResult): void {
  expect(() => JSON.stringify(result)).not.toThrow();
  if (!result.ok) {
    expect(typeof result.reason).toBe('string');
    expect(result.reason).not.toMatch(/^internal error/);
    expect(result.reason.length).toBeGreaterThan(0);
    if (result.receiver !== undefined) expect(normaliseHardwareId(result.receiver)).toBe(result.receiver);
    return;
  }
  expect(normaliseHardwareId(result.receiver)).toBe(result.receiver);
  expect(Number.isInteger(result.rejected) && result.rejected >= 0).toBe(true);
  produced += result.observations.length;
  for (const observation of result.observations) {
    expect(observation.receiver).toBe(result.receiver);
    expect(observation.keys.length).toBeGreaterThan(0);
    expect(observation.transmitter).toBe(observation.keys[0]);
    expect(new Set(observation.keys).size).toBe(observation.keys.length);
    expect(Number.isFinite(observation.rssi) && observation.rssi >= MIN_RSSI && observation.rssi <= MAX_RSSI).toBe(true);
    expect(Number.isInteger(observation.time) && observation.time <= NOW && observation.time >= NOW - 10 * 60_000).toBe(true);
    if (observation.txPower !== undefined) expect(observation.txPower >= MIN_RSSI && observation.txPower <= MAX_RSSI).toBe(true);
    if (observation.raw !== undefined) expect(observation.raw).toMatch(/^(?:[0-9a-f]{2})+$/);
  }
}

const segment = fc.oneof(
  fc.constantFrom('espresense', 'devices', 'rooms', 'settings', 'telemetry', 'set', 'ruuvi', 'gw_status', 'minew', 'cartograph', 'gateways', 'observations'),
  fc.constantFrom('AA:BB:CC:DD:EE:FF', 'aabbccddeeff', 'node:kitchen', 'iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2', '', '+', '#', '*'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const topic = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/')),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const mac = fc.constantFrom('AA:BB:CC:DD:EE:FF', 'aa-bb-cc-dd-ee-01', 'C8252D8E9C2C', 'nope', '');
const hex = fc.oneof(
  fc.constantFrom('0201061AFF4C000215EB6D469624BE4663B15230D46B0E9CC9000D002AC0', '0201060303AAFE1716AAFE00E5B2B98DE4C81C47C2B14E7500000000000000', '', 'zz', '0'),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('hex')),
);
const time = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(NOW, NOW / 1000, String(NOW / 1000), '2023-11-14T22:13:20Z', 'x', null), fc.string({ maxLength: 30 }));
/** A value that is sometimes of the expected kind and often not. */
const either = <T>(likely: fc.Arbitrary<T>) => fc.oneof(likely, likely, fc.jsonValue({ maxDepth: 2 }));
const rssi = either(fc.oneof(fc.integer({ min: -200, max: 50 }), fc.double({ noNaN: false })));
const payloadOf = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    value,
    value.map((v) => JSON.stringify(v) ?? ''),
    value.map((v) => Buffer.from(JSON.stringify(v) ?? '')),
  );

const ruuviBody = fc.record(
  {
    data: either(
      fc.record(
        {
          gw_mac: either(mac),
          nonce: either(fc.oneof(fc.nat(), fc.nat().map(String))),
          timestamp: either(time),
          tags: either(
            fc.dictionary(fc.oneof(mac, fc.string({ maxLength: 20 })), either(fc.record({ rssi, timestamp: either(time), data: either(hex) }, { requiredKeys: [] })), {
              maxKeys: 5,
            }),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
    DEVICE_ADDR: either(mac),
  },
  { requiredKeys: [] },
);
const minewRecord = fc.record(
  {
    type: either(fc.constantFrom('Gateway', 'iBeacon', 'Unknown', 'S1')),
    mac: either(mac),
    rssi,
    timestamp: either(time),
    rawData: either(hex),
    ibeaconUuid: either(fc.constantFrom('6A08635B25F7410A8CF860EEFA2E6EAB', 'e2c56db5-dffb-48d2-b060-d0f5a71096e0', 'x')),
    ibeaconMajor: either(fc.integer({ min: -1, max: 70_000 })),
    ibeaconMinor: either(fc.integer({ min: -1, max: 70_000 })),
    ibeaconTxPower: either(fc.integer({ min: -200, max: 50 })),
  },
  { requiredKeys: [] },
);
const cartographBody = fc.record(
  {
    time: either(time),
    observations: either(
      fc.array(
        either(
          fc.record(
            { tag: either(fc.oneof(mac, fc.constantFrom('e2c56db5dffb48d2b060d0f5a71096e0:1:2', 'irk:ab'), fc.string())), rssi, raw: either(hex), time: either(time) },
            { requiredKeys: [] },
          ),
        ),
        {
          maxLength: 6,
        },
      ),
    ),
  },
  { requiredKeys: [] },
);
const espresenseBody = fc.record({ rssi, rxAdj: either(fc.integer({ min: -150, max: 150 })), 'rssi@1m': rssi, mac: either(mac), id: fc.string() }, { requiredKeys: [] });

describe('no input makes a parser throw', () => {
  it('arbitrary JSON, text and bytes, on arbitrary topics', () => {
    const anything = fc.oneof(
      fc.jsonValue(),
      fc.string({ unit: 'binary' }),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
      fc.constantFrom(undefined, null, '', '\u{feff}{}', '{"rssi":1e999}'),
    );
    fc.assert(
      fc.property(topic, anything, fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), (t, payload, hardwareId) => {
        wellFormed(parseEspresense(t, payload, NOW));
        wellFormed(parseRuuviMqtt(t, payload, NOW));
        wellFormed(parseRuuviHttp(payload, NOW, hardwareId));
        wellFormed(parseMinew(payload, NOW, hardwareId));
        wellFormed(parseCartograph(hardwareId as string, payload, NOW));
        wellFormed(parseGatewayMessage({ topic: t, payload, now: NOW }));
        for (const format of ['espresense', 'ruuvi', 'minew', 'cartograph'] as const) wellFormed(parseGatewayMessage({ format, hardwareId, payload, now: NOW }));
      }),
      RUNS,
    );
  });

  it('bodies shaped like each format with hostile fields', () => {
    produced = 0;
    fc.assert(
      fc.property(payloadOf(ruuviBody), fc.option(mac, { nil: undefined }), (body, hardwareId) => wellFormed(parseRuuviHttp(body, NOW, hardwareId))),
      RUNS,
    );
    fc.assert(
      fc.property(payloadOf(espresenseBody), fc.constantFrom('ruuvi/AA:BB:CC:DD:EE:FF/C8:25:2D:8E:9C:2C', 'ruuvi/lobby/C8252D8E9C2C'), (body, t) =>
        wellFormed(parseRuuviMqtt(t, body, NOW)),
      ),
      RUNS,
    );
    fc.assert(
      fc.property(payloadOf(fc.array(minewRecord, { maxLength: 6 })), fc.option(fc.constantFrom('AA:BB:CC:DD:EE:FF', 'lobby', 'x/y'), { nil: undefined }), (body, hardwareId) =>
        wellFormed(parseMinew(body, NOW, hardwareId)),
      ),
      RUNS,
    );
    fc.assert(
      fc.property(payloadOf(cartographBody), (body) => wellFormed(parseCartograph('pi-1', body, NOW))),
      RUNS,
    );
    fc.assert(
      fc.property(payloadOf(espresenseBody), fc.string({ maxLength: 60 }), fc.constantFrom('hall', 'Hall', 'x y'), (body, id, room) =>
        wellFormed(parseEspresense(`espresense/devices/${id}/${room}`, body, NOW)),
      ),
      RUNS,
    );
    // The shaped bodies reach the observation path, not only the rejections.
    expect(produced).toBeGreaterThan(200);
  });

  it('arguments of the wrong type', () => {
    const wrong = [42, null, {}, ['a'], undefined];
    for (const value of wrong) {
      wellFormed(parseEspresense(value as never, '{"rssi":-70}', NOW));
      wellFormed(parseRuuviMqtt(value as never, '{"rssi":-70}', NOW));
      wellFormed(parseRuuviHttp({ data: { gw_mac: 'C8:25:2D:8E:9C:2C', tags: {} } }, NOW, value as never));
      wellFormed(parseMinew([{ type: 'Gateway', mac: 'AC233FC07DA5' }], NOW, value as never));
      wellFormed(parseCartograph(value as never, { observations: [] }, NOW));
      wellFormed(parseGatewayMessage({ topic: value as never, format: value as never, hardwareId: value as never, payload: '{}', now: NOW }));
      wellFormed(parseRuuviHttp({ data: { gw_mac: 'C8:25:2D:8E:9C:2C', tags: {} } }, value as never));
    }
  });

  it('identities and observed keys from anything', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), fc.uint8Array({ maxLength: 64 }), (value, text, bytes) => {
        const identity = parseTagIdentity(value);
        expect(typeof identity.ok).toBe('boolean');
        const keys = observedKeys({ tag: text, espresenseId: text, raw: bytes, mac: text, ibeacon: { uuid: text, major: value, minor: value } });
        expect(new Set(keys).size).toBe(keys.length);
      }),
      RUNS,
    );
  });
});
