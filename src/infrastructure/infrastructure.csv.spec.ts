import { describe, expect, it } from 'vitest';
import { ApiError } from '../common/errors/api-error';
import { fromInfrastructureCsv, toInfrastructureCsv } from './infrastructure.csv';

const wifi = { id: 4, bssid: 'a4:5e:60:e8:1f:01', ssid: 'Lobby; "main"', frequency: 5180, floor_id: 2, lat: 42.1, lng: -8.2, x: 1.5, y: 2, created_at: '', updated_at: '' };
const ble = {
  id: 9,
  uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e',
  major: 1,
  minor: 65535,
  tx_power: null,
  battery: 77,
  floor_id: 3,
  lat: 42.2,
  lng: -8.3,
  x: 0.1,
  y: 1e-7,
  created_at: '',
  updated_at: '',
};

function refusal(text: string): ApiError {
  try {
    fromInfrastructureCsv(text);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('infrastructure CSV', () => {
  it('writes one row per transmitter under a fixed header, and reads back what it wrote', () => {
    const text = toInfrastructureCsv([wifi], [ble]);
    expect(text).toBe(
      'type,id,floor_id,x,y,lat,lng,bssid,ssid,frequency,uuid,major,minor,tx_power,battery\r\n' +
        'wifi,4,2,1.5,2,42.1,-8.2,a4:5e:60:e8:1f:01,"Lobby; ""main""",5180,,,,,\r\n' +
        'ble,9,3,0.1,1e-7,42.2,-8.3,,,,f7826da6-4fa2-4e98-8024-bc5b71e0893e,1,65535,,77\r\n',
    );
    const items = fromInfrastructureCsv(text);
    expect(items.wifi).toEqual([
      { floor_id: 2, x: 1.5, y: 2, lat: 42.1, lng: -8.2, bssid: 'a4:5e:60:e8:1f:01', ssid: 'Lobby; "main"', frequency: 5180, tx_power: null, battery: null },
    ]);
    expect(items.ble).toEqual([
      {
        floor_id: 3,
        x: 0.1,
        y: 1e-7,
        lat: 42.2,
        lng: -8.3,
        ssid: null,
        frequency: null,
        uuid: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e',
        major: 1,
        minor: 65535,
        tx_power: null,
        battery: 77,
      },
    ]);
    expect(items.prefixes).toEqual({ wifi: ['line 2.'], ble: ['line 3.'] });
  });

  it('reads decimal commas, ignores unknown columns and the id, and leaves non-numbers for validation to name', () => {
    const items = fromInfrastructureCsv('TYPE;X;Y;Minor;Comment;ID\nble;1,25;-3;x7;hello;12\n');
    expect(items.ble).toEqual([{ x: 1.25, y: -3, minor: 'x7' }]);
  });

  // Review rev1: an SSID such as =HYPERLINK(...) was exported as is, and a spreadsheet runs it.
  it('escapes text cells a spreadsheet would run as a formula, keeps negative numbers, and reads back what it wrote', () => {
    const ssids = ['=HYPERLINK("http://evil.example","x")', '+1', '-cmd', '@SUM(A1)', "'=already quoted", 'plain', "it's"];
    const text = toInfrastructureCsv(
      ssids.map((ssid, index) => ({ ...wifi, id: index, ssid })),
      [{ ...ble, tx_power: -59 }],
    );
    const cells = text
      .split('\r\n')
      .slice(1, ssids.length + 1)
      .map((line) => line.split(',')[8]);
    expect(cells.slice(1, 4)).toEqual(["'+1", "'-cmd", "'@SUM(A1)"]);
    expect(cells[0]).toMatch(/^"'=HYPERLINK/);
    expect(cells.slice(4)).toEqual(["''=already quoted", 'plain', "it's"]);
    expect(text).toContain(',42.1,-8.2,'); // numbers are not escaped
    expect(text).toContain(',1,65535,-59,77\r\n');
    const items = fromInfrastructureCsv(text);
    expect(items.wifi.map((item) => item.ssid)).toEqual(ssids);
    expect(items.ble[0].tx_power).toBe(-59);
  });

  it.each([
    ['', 'body'],
    ['x,y\n1,2\n', 'line 1.type'],
    ['type,x\nwifi,1\nzigbee,2\n', 'line 3.type'],
    ['type,x\n"wifi,1\n', 'line 2'],
  ])('refuses %j: 422 naming %s', (text, field) => {
    const error = refusal(text);
    expect(error.status).toBe(422);
    expect(error.errors.map((item) => item.fields)).toContain(field);
  });
});
