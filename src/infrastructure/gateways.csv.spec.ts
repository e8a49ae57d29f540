import { describe, expect, it } from 'vitest';
import { ApiError } from '../common/errors/api-error';
import { fromGatewaysCsv, toGatewaysCsv } from './gateways.csv';

const row = {
  id: 1,
  building_id: 2,
  floor_id: 3,
  x: 1.5,
  y: -2,
  lat: 42.1,
  lng: -8.5,
  height_m: null,
  hardware_id: 'aaccee001122',
  name: '=cmd|"/c calc"!A1',
  format: 'ruuvi' as const,
  created_at: '',
  updated_at: '',
};

describe('gateways CSV', () => {
  it('escapes formula-like text cells and reads its own export back to the same fields (null height as empty)', () => {
    const text = toGatewaysCsv([row]);
    expect(text.split('\r\n')[1]).toContain(`"'=cmd|""/c calc""!A1"`);
    const { items, prefixes } = fromGatewaysCsv(text);
    expect(prefixes).toEqual(['line 2.']);
    expect(items).toEqual([{ floor_id: 3, x: 1.5, y: -2, lat: 42.1, lng: -8.5, height_m: null, hardware_id: 'aaccee001122', name: row.name, format: 'ruuvi' }]);
  });

  it('refuses a body without a hardware_id column, naming line 1', () => {
    expect(() => fromGatewaysCsv('floor_id,x,y\r\n1,2,3\r\n')).toThrow(ApiError);
  });
});
