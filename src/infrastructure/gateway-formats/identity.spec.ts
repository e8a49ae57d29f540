import { describe, expect, it } from 'vitest';
import { advertisedIds, hexBytes } from './advertisement';
import { cartographTagKeys, espresenseKeys, identityKeys, matchesIdentity, normaliseMac, normaliseUuid, observedKeys, parseTagIdentity, TagIdentity } from './identity';

/** AprilBrother's AB BLE Gateway V4 user guide (wiki.aprbrother.com), "Example data for key devices": an iBeacon advertisement. */
const IBEACON_RAW = '0201061AFF4C000215EB6D469624BE4663B15230D46B0E9CC9000D002AC0';
/** A Blue Charm beacon's Eddystone-UID advertisement as captured in public parser tests: flags, 0xFEAA list, the UID frame, more service data, a name, padding. */
const EDDYSTONE_RAW = '0201060303AAFE1716AAFE00EE626C7565636861726D31000000000001000009168020691E0EFE13551109426C7565436861726D5F313639363835000000';
/** A MikroTik tag's Eddystone-UID service data without flags (its `last-data`, from MikroTik's BLE scanner output). */
const EDDYSTONE_NO_FLAGS = '0303AAFE1716AAFE00E5B2B98DE4C81C47C2B14E7500000000000000';
/** Ruuvi's RAWv2 (data format 5) from docs.ruuvi.com's HTTP example: no beacon frame. */
const RUUVI_RAW = '0201061BFF99040513C85714C7CC00240008041CAB76F41C3CC6A5B9E0AD06';

describe('MACs', () => {
  it('match in any case, with : or - separators or none', () => {
    for (const form of ['AA:BB:CC:DD:EE:0F', 'aa:bb:cc:dd:ee:0f', 'AA-BB-CC-DD-EE-0F', 'aabbccddee0f', 'AABBCCDDEE0F', ' aa:bb:cc:dd:ee:0f '])
      expect(normaliseMac(form)).toBe('aabbccddee0f');
  });

  it('are 12 hex digits with one kind of separator, else null', () => {
    for (const bad of [
      'aa:bb-cc:dd:ee:0f',
      'aabbccddee0',
      'aabbccddee0f0',
      'gg:bb:cc:dd:ee:0f',
      'aa:bb:cc:dd:ee',
      'aabb.ccdd.ee0f',
      '',
      'aa::bb:cc:dd:ee:0f',
      42,
      null,
      undefined,
      {},
    ]) {
      expect(normaliseMac(bad)).toBeNull();
    }
  });
});

describe('tag identities', () => {
  it('give canonical keys: uuid lowercase with dashes, MAC bare lowercase, ESPresense id lowercased', () => {
    expect(identityKeys({ ibeacon: { uuid: 'E2C56DB5DFFB48D2B060D0F5A71096E0', major: 1, minor: 42 } })).toEqual(['ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42']);
    expect(identityKeys({ mac: 'AC:23:3F:A0:32:08' })).toEqual(['mac:ac233fa03208']);
    expect(identityKeys({ espresense_id: 'watch:darrell' })).toEqual(['espresense:watch:darrell']);
    expect(identityKeys({ eddystone: { namespace: '626C7565636861726D31', instance: '000000000001' } })).toEqual(['eddystone:626c7565636861726d31:000000000001']);
  });

  it('an ESPresense iBeacon id matches the ibeacon identity, whatever the uuid case or dashes', () => {
    const observed = observedKeys({ espresenseId: 'iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-42' });
    expect(observed[0]).toBe('ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42');
    for (const uuid of ['E2C56DB5-DFFB-48D2-B060-D0F5A71096E0', 'e2c56db5dffb48d2b060d0f5a71096e0'])
      expect(matchesIdentity({ ibeacon: { uuid, major: 1, minor: 42 } }, observed)).toBe(true);
    expect(matchesIdentity({ ibeacon: { uuid: 'e2c56db5-dffb-48d2-b060-d0f5a71096e0', major: 1, minor: 43 } }, observed)).toBe(false);
    // And the other way round: a device registered by that ESPresense id matches a gateway that decodes the iBeacon itself.
    expect(matchesIdentity({ espresense_id: 'iBeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0-1-42' }, ['ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42'])).toBe(true);
  });

  it('MAC-shaped ESPresense ids (bare, known:, tile:…) also give the mac key; aliases and fingerprints do not', () => {
    expect(espresenseKeys('58b1294494d3')).toEqual(['mac:58b1294494d3', 'espresense:58b1294494d3']);
    expect(espresenseKeys('known:58b1294494d3')).toEqual(['mac:58b1294494d3', 'espresense:known:58b1294494d3']);
    expect(espresenseKeys('tile:d1e2f3a4b5c6')).toContain('mac:d1e2f3a4b5c6');
    expect(espresenseKeys('watch:darrell')).toEqual(['espresense:watch:darrell']);
    expect(espresenseKeys('apple:1005:9')).toEqual(['espresense:apple:1005:9']);
    expect(espresenseKeys('irk:E46C37A106468D1376C58D33881EE47A')).toEqual(['espresense:irk:e46c37a106468d1376c58d33881ee47a']);
    expect(matchesIdentity({ mac: '58:B1:29:44:94:D3' }, espresenseKeys('58b1294494d3'))).toBe(true);
  });

  it("reads ESPresense's eddy: ids, which print namespace byte 6 twice", () => {
    // BleFingerprint.cpp prints service-data bytes 2,3,4,5,6,6,7,…,11: the namespace 626c7565636861726d31 shows as 626c756563636861726d31.
    expect(espresenseKeys('eddy:626c756563636861726d31-000000000001')[0]).toBe('eddystone:626c7565636861726d31:000000000001');
    expect(espresenseKeys('eddy:626c7565636861726d31-000000000001')[0]).toBe('eddystone:626c7565636861726d31:000000000001');
  });

  it('Cartograph tags: a MAC, {uuid}:{major}:{minor}, a canonical key or an ESPresense id', () => {
    expect(cartographTagKeys('AC-23-3F-A0-32-08')).toEqual(['mac:ac233fa03208']);
    expect(cartographTagKeys('E2C56DB5DFFB48D2B060D0F5A71096E0:1:42')).toEqual(['ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42']);
    expect(cartographTagKeys('ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42')).toEqual(['ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42']);
    expect(cartographTagKeys('mac:AA:BB:CC:DD:EE:FF')).toEqual(['mac:aabbccddeeff']);
    expect(cartographTagKeys('eddystone:626C7565636861726D31:000000000001')).toEqual(['eddystone:626c7565636861726d31:000000000001']);
    expect(cartographTagKeys('iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-42')[0]).toBe('ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:42');
    expect(cartographTagKeys('name:keys')).toEqual(['espresense:name:keys']);
    // Malformed keys are refused rather than taken for ESPresense ids.
    for (const bad of ['e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:70000', 'mac:nothex', 'ibeacon:xyz', 'eddystone:12:34', '', 'a/b', 'a+b'])
      expect(cartographTagKeys(bad)).toEqual([]);
  });

  it('validates wire identities with a reason', () => {
    const ok = parseTagIdentity({ ibeacon: { uuid: 'E2C56DB5DFFB48D2B060D0F5A71096E0', major: 0, minor: 65535 } });
    expect(ok).toEqual({
      ok: true,
      identity: { ibeacon: { uuid: 'e2c56db5-dffb-48d2-b060-d0f5a71096e0', major: 0, minor: 65535 } },
      keys: ['ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:0:65535'],
    });
    const reasons = (value: unknown) => {
      const result = parseTagIdentity(value);
      return result.ok ? null : result.reason;
    };
    expect(reasons({ mac: 'nope' })).toMatch(/not a MAC/);
    expect(reasons({ ibeacon: { uuid: 'e2c56db5', major: 1, minor: 2 } })).toMatch(/not a uuid/);
    expect(reasons({ ibeacon: { uuid: 'e2c56db5dffb48d2b060d0f5a71096e0', major: 1.5, minor: 2 } })).toMatch(/0\.\.65535/);
    expect(reasons({ ibeacon: { uuid: 'e2c56db5dffb48d2b060d0f5a71096e0', major: 65536, minor: 2 } })).toMatch(/0\.\.65535/);
    expect(reasons({ mac: 'aabbccddeeff', espresense_id: 'x' })).toMatch(/exactly one/);
    expect(reasons({ espresense_id: 'a/b' })).toMatch(/espresense_id/);
    expect(reasons({ eddystone: { namespace: 'abc', instance: '000000000001' } })).toMatch(/20 hex/);
    expect(reasons({ phone: '1' })).toMatch(/not an identity/);
    expect(reasons(null)).toMatch(/not an object/);
    expect(identityKeys({ mac: 'nope' } as TagIdentity)).toEqual([]);
  });

  it('normalises uuids with or without dashes, and refuses misplaced dashes', () => {
    expect(normaliseUuid('E2C56DB5-DFFB-48D2-B060-D0F5A71096E0')).toBe('e2c56db5-dffb-48d2-b060-d0f5a71096e0');
    expect(normaliseUuid('E2C56DB5DFFB48D2B060D0F5A71096E0')).toBe('e2c56db5-dffb-48d2-b060-d0f5a71096e0');
    expect(normaliseUuid('E2C56DB5D-FFB-48D2-B060-D0F5A71096E0')).toBeNull();
    expect(normaliseUuid('E2C56DB5DFFB48D2B060D0F5A71096E')).toBeNull();
  });
});

describe('raw advertisements', () => {
  it('read an iBeacon frame: uuid, major, minor and the power at 1 m', () => {
    expect(advertisedIds(hexBytes(IBEACON_RAW)!)).toEqual({ ibeacon: { uuid: 'eb6d4696-24be-4663-b152-30d46b0e9cc9', major: 13, minor: 42, txPower: -64 } });
    expect(observedKeys({ raw: IBEACON_RAW, mac: 'C8:FD:19:49:A5:30' })).toEqual(['ibeacon:eb6d4696-24be-4663-b152-30d46b0e9cc9:13:42', 'mac:c8fd1949a530']);
  });

  it('read an Eddystone-UID frame among other structures, its power taken to 1 m', () => {
    expect(advertisedIds(hexBytes(EDDYSTONE_RAW)!)).toEqual({ eddystone: { namespace: '626c7565636861726d31', instance: '000000000001', txPower: -18 - 41 } });
    expect(advertisedIds(hexBytes(EDDYSTONE_NO_FLAGS)!).eddystone).toEqual({ namespace: 'b2b98de4c81c47c2b14e', instance: '750000000000', txPower: -27 - 41 });
    expect(matchesIdentity({ eddystone: { namespace: '626C7565636861726D31', instance: '000000000001' } }, observedKeys({ raw: EDDYSTONE_RAW }))).toBe(true);
  });

  it('find no beacon in other frames, truncated or malformed data', () => {
    expect(advertisedIds(hexBytes(RUUVI_RAW)!)).toEqual({});
    // Cut inside the iBeacon structure, a length running past the end, an Eddystone URL frame (type 0x10).
    expect(advertisedIds(hexBytes(IBEACON_RAW.slice(0, 40))!)).toEqual({});
    expect(advertisedIds(hexBytes('02010640FF4C000215')!)).toEqual({});
    expect(advertisedIds(hexBytes('0201060303AAFE1716AAFE10EE01626C7565636861726D626561636F6E7300')!)).toEqual({});
    expect(hexBytes('0g')).toBeNull();
    expect(hexBytes('abc')).toBeNull();
    expect(hexBytes('ab'.repeat(1651))).toBeNull();
    expect(observedKeys({ raw: 'zz', mac: 'aabbccddeeff' })).toEqual(['mac:aabbccddeeff']);
  });
});
