import { describe, expect, it } from 'vitest';
import { Building } from '../cartography/buildings/building.entity';
import { toCartesian, toGeoreference } from '../common/geometry/cartesian';
import { normalizeBssid } from './infrastructure.dto';
import { referenceRssiOf } from './transmitter-radio';
import { BLE, placeTransmitter, plausibleMargin, WIFI } from './transmitter-kinds';

const building = { latitude: 42.8723597, longitude: -8.5633224, width: 120.5, length: 80, rotation: 0.5 } as Building;
const frame = { ...building };

describe('placeTransmitter', () => {
  it('derives lat/lng from x/y and the reverse, as POIs do', () => {
    const at = toGeoreference(frame, { x: 10, y: 20 });
    expect(placeTransmitter(building, { x: 10, y: 20 }, '')).toEqual({ latitude: at.lat, longitude: at.lng, x: 10, y: 20 });
    const back = placeTransmitter(building, { lat: at.lat, lng: at.lng }, '');
    expect(back).toMatchObject({ latitude: at.lat, longitude: at.lng });
    expect((back as { x: number }).x).toBeCloseTo(10, 6);
  });

  it('keeps both pairs exactly when they agree within 1 cm; otherwise the preferred pair wins', () => {
    const at = toGeoreference(frame, { x: 10, y: 20 });
    expect(placeTransmitter(building, { x: 10, y: 20, lat: at.lat, lng: at.lng }, '')).toEqual({ latitude: at.lat, longitude: at.lng, x: 10, y: 20 });
    expect(placeTransmitter(building, { x: 10, y: 20, lat: at.lat, lng: at.lng }, '', 'cartesian')).toEqual({ latitude: at.lat, longitude: at.lng, x: 10, y: 20 });
    const geoWins = placeTransmitter(building, { x: 30, y: 20, lat: at.lat, lng: at.lng }, '') as { x: number };
    expect(geoWins.x).toBeCloseTo(10, 6);
    const cartesianWins = placeTransmitter(building, { x: 30, y: 20, lat: at.lat, lng: at.lng }, '', 'cartesian') as { x: number; latitude: number; longitude: number };
    expect(cartesianWins.x).toBe(30);
    expect(toCartesian(frame, { lat: cartesianWins.latitude, lng: cartesianWins.longitude }).x).toBeCloseTo(30, 6);
  });

  it('refuses a missing or half position and one beyond the plausible margin, naming the field with the prefix', () => {
    expect(placeTransmitter(building, {}, 'ble[2].')).toEqual([expect.objectContaining({ code: 'required', fields: 'ble[2].x' })]);
    expect(placeTransmitter(building, { lat: 42.87 }, '')).toEqual([expect.objectContaining({ fields: 'lng' })]);
    const margin = plausibleMargin(building);
    expect(margin).toBeCloseTo(24.1, 6);
    expect(Array.isArray(placeTransmitter(building, { x: -margin + 0.1, y: 80 + margin - 0.1 }, ''))).toBe(false);
    expect(placeTransmitter(building, { x: 120.5 + margin + 0.1, y: 0 }, '')).toEqual([expect.objectContaining({ code: 'invalid', fields: 'x' })]);
    expect(plausibleMargin({ width: 20, length: 10 })).toBe(10);
  });
});

describe('identities', () => {
  it('normalizes BSSIDs written with colons, dashes or nothing, in any case; leaves the rest for the validator', () => {
    for (const text of ['A4:5E:60:E8:1F:01', 'a4-5e-60-e8-1f-01', 'A45E60E81F01', ' a4:5e:60:e8:1f:01 ']) expect(normalizeBssid(text)).toBe('a4:5e:60:e8:1f:01');
    for (const text of ['a4:5e-60:e8:1f:01', 'a4:5e:60:e8:1f', 'g4:5e:60:e8:1f:01']) expect(normalizeBssid(text)).toBe(text);
    expect(normalizeBssid(42)).toBe(42);
  });

  it('names a beacon by uuid:major:minor and an access point by its BSSID', () => {
    expect(BLE.identity({ uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', major: 1, minor: 2 })).toBe('f7826da6-4fa2-4e98-8024-bc5b71e0893e:1:2');
    expect(WIFI.identity({ bssid: 'a4:5e:60:e8:1f:01' })).toBe('a4:5e:60:e8:1f:01');
  });

  it('reads tx_power as the RSSI at 1 m, or as radiated power above −30 dBm', () => {
    expect(referenceRssiOf(null)).toBe(-59);
    expect(referenceRssiOf(-65)).toBe(-65);
    expect(referenceRssiOf(-30)).toBe(-30);
    expect(referenceRssiOf(4)).toBe(-37);
    expect(referenceRssiOf(-12)).toBe(-53);
  });
});
