import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCartesian, toGeoreference } from '../common/geometry/cartesian';
import { BatchShapeError, BatchTooLargeError, batchItems, ItemRejection, orderAndDeduplicate, readItem, ReportedFix } from './fix-batch';
import { PoiLookup } from '../positions/poi-lookup';

const NOW = Date.UTC(2026, 10, 23, 12);
const WINDOW = { now: NOW, maxFutureMs: 60_000, maxAgeMs: 7 * 86_400_000 };
const item = (overrides: Record<string, unknown> = {}) => ({ device_id: 'd1', time: new Date(NOW - 1000).toISOString(), lat: 42.1, lng: -8.5, accuracy: 3, ...overrides });
const rejection = (raw: unknown) => readItem(raw, 7, WINDOW) as ItemRejection;

describe('batchItems', () => {
  it('reads the three body forms', () => {
    expect(batchItems({ positions: [1, 2] })).toEqual([1, 2]);
    expect(batchItems([3])).toEqual([3]);
    const collection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'dev',
          userId: 'u',
          geometry: { type: 'Point', coordinates: [42.5, -8.25] },
          properties: { time: 't', yaw: 1, local_coordinates: [1, 2], floor_id: 3, building_id: 4, accuracy: 5, poi_id: null },
        },
        { type: 'Feature', id: 'xy', geometry: null, properties: { local_coordinates: [7, 8] } },
      ],
      devicesInfo: [{ id: 'dev', code: 'SM-G980F' }],
    };
    expect(batchItems(collection)).toEqual([
      { device_id: 'dev', user_id: 'u', device_code: 'SM-G980F', time: 't', building_id: 4, floor_id: 3, accuracy: 5, yaw: 1, lat: 42.5, lng: -8.25 },
      { device_id: 'xy', time: undefined, building_id: undefined, floor_id: undefined, accuracy: undefined, yaw: undefined, x: 7, y: 8 },
    ]);
  });

  it('refuses other shapes and more than 1000 items', () => {
    expect(() => batchItems({ items: [] })).toThrow(BatchShapeError);
    expect(() => batchItems('x')).toThrow(BatchShapeError);
    expect(() => batchItems(new Array(1001).fill({}))).toThrow(BatchTooLargeError);
    expect(batchItems(new Array(1000).fill({}))).toHaveLength(1000);
  });
});

describe('readItem', () => {
  it('reads a valid item, ISO or epoch milliseconds, numeric device ids as strings', () => {
    expect(readItem(item(), 0, WINDOW)).toEqual({
      index: 0,
      deviceId: 'd1',
      deviceCode: null,
      time: NOW - 1000,
      buildingId: null,
      floorId: null,
      lat: 42.1,
      lng: -8.5,
      x: null,
      y: null,
      accuracy: 3,
      yaw: null,
      userId: null,
    });
    expect(readItem(item({ time: NOW - 5, device_id: 684560580327 }), 0, WINDOW)).toMatchObject({ time: NOW - 5, deviceId: '684560580327' });
    expect(readItem(item({ time: '2026-11-23T13:00:30+01:00' }), 0, WINDOW)).toMatchObject({ time: NOW + 30_000 });
  });

  it('accepts the time window edges and refuses beyond them', () => {
    expect(readItem(item({ time: NOW + 60_000 }), 0, WINDOW)).toMatchObject({ time: NOW + 60_000 });
    expect(readItem(item({ time: NOW - 7 * 86_400_000 }), 0, WINDOW)).toMatchObject({ deviceId: 'd1' });
    expect(rejection(item({ time: NOW + 60_001 }))).toMatchObject({ index: 7, code: 'out_of_range', fields: 'time' });
    expect(rejection(item({ time: NOW - 7 * 86_400_000 - 1 }))).toMatchObject({ code: 'out_of_range', fields: 'time' });
  });

  it.each([
    [null, 'invalid', '[7]'],
    [{ ...item(), device_id: undefined }, 'required', 'device_id'],
    [item({ device_id: 'x'.repeat(65) }), 'invalid', 'device_id'],
    [item({ device_id: 'tab\there' }), 'invalid', 'device_id'],
    [item({ device_code: 5 }), 'invalid', 'device_code'],
    [item({ time: undefined }), 'required', 'time'],
    [item({ time: '2026-11-23 12:00:00' }), 'invalid', 'time'],
    [item({ time: 1.5 }), 'invalid', 'time'],
    [item({ building_id: 0 }), 'invalid', 'building_id'],
    [item({ floor_id: '3' }), 'invalid', 'floor_id'],
    [item({ indoor: 'yes' }), 'invalid', 'indoor'],
    [item({ indoor: false, floor_id: 3 }), 'invalid', 'indoor'],
    [item({ indoor: true }), 'required', 'floor_id'],
    [item({ lat: -90.1 }), 'invalid', 'lat'],
    [item({ lng: undefined }), 'invalid', 'lng'],
    [item({ lat: undefined, lng: undefined }), 'required', 'lat,lng'],
    [item({ lat: undefined, lng: undefined, x: 1, y: Number.NaN }), 'invalid', 'y'],
    [item({ lat: undefined, lng: undefined, x: 1, y: 2 }), 'required', 'building_id'],
    [item({ accuracy: undefined }), 'required', 'accuracy'],
    [item({ accuracy: -0.1 }), 'invalid', 'accuracy'],
    [item({ yaw: Infinity }), 'invalid', 'yaw'],
    [item({ poi_id: 'x' }), 'invalid', 'poi_id'],
    [item({ user_id: 'me' }), 'invalid', 'user_id'],
  ])('rejects %j: %s %s', (raw, code, fields) => {
    expect(rejection(raw)).toEqual({ index: 7, code, fields, message: expect.any(String) });
  });
});

describe('orderAndDeduplicate', () => {
  it('orders by device then time and drops exact (device, time) duplicates, keeping the first sent', () => {
    const fixes = [
      { deviceId: 'b', time: 2, index: 0 },
      { deviceId: 'a', time: 5, index: 1 },
      { deviceId: 'b', time: 1, index: 2 },
      { deviceId: 'a', time: 5, index: 3 },
      { deviceId: 'a', time: 4, index: 4 },
    ];
    const { kept, duplicates } = orderAndDeduplicate(fixes);
    expect(kept.map((fix) => fix.index)).toEqual([4, 1, 2, 0]);
    expect(duplicates.map((fix) => fix.index)).toEqual([3]);
  });
});

describe('floor coordinates of a reported fix', () => {
  const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  it('x/y reported, stored as lat/lng, read back as the same x/y (round trip, any frame)', () => {
    fc.assert(
      fc.property(
        fc.record({ latitude: finite(-80, 80), longitude: finite(-179, 179), width: finite(1, 500), length: finite(1, 500), rotation: finite(-Math.PI, Math.PI) }),
        finite(-100, 600),
        finite(-100, 600),
        (frame, x, y) => {
          const fix = readItem(item({ lat: undefined, lng: undefined, x, y, building_id: 1 }), 0, WINDOW) as ReportedFix;
          const stored = toGeoreference(frame, { x: fix.x!, y: fix.y! });
          const back = toCartesian(frame, stored);
          expect(back.x).toBeCloseTo(x, 6);
          expect(back.y).toBeCloseTo(y, 6);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('PoiLookup', () => {
  const lookup = new PoiLookup([
    { id: 1, floorId: 10, x: 0, y: 0, radius: 5 },
    { id: 2, floorId: 10, x: 3, y: 0, radius: 5 },
    { id: 3, floorId: 11, x: 0, y: 0, radius: 50 },
    { id: 4, floorId: 10, x: 3, y: 0, radius: 5 },
  ]);
  it('picks the nearest POI whose radius holds the point, on the same floor only, lower id on ties', () => {
    expect(lookup.containing(10, 1, 0)).toBe(1);
    expect(lookup.containing(10, 2, 0)).toBe(2);
    expect(lookup.containing(10, 5, 0)).toBe(2);
    expect(lookup.containing(10, 0, 5)).toBe(1);
    expect(lookup.containing(10, 0, 5.01)).toBeNull();
    expect(lookup.containing(12, 0, 0)).toBeNull();
    expect(lookup.containing(null, 0, 0)).toBeNull();
    expect(lookup.containing(10, null, null)).toBeNull();
  });
});
