import { describe, expect, it } from 'vitest';
import { parseEventLogQuery } from './event-log-query';

describe('parseEventLogQuery', () => {
  it('reads lists, cursors, limits and times', () => {
    const { query, errors } = parseEventLogQuery({
      after: '42',
      limit: '10',
      types: 'geofence.enter,geofence.exit',
      geofence_ids: ['0B8E3A3E-9A8B-4C55-9C9C-1B2B3C4D5E6F'],
      device_ids: 'a, b',
      building_ids: '3,4',
      from: '2026-01-01T00:00:00Z',
    });
    expect(errors).toEqual([]);
    expect(query).toEqual({
      after: 42,
      before: null,
      limit: 10,
      types: ['geofence.enter', 'geofence.exit'],
      geofenceIds: ['0b8e3a3e-9a8b-4c55-9c9c-1b2b3c4d5e6f'],
      deviceIds: ['a', 'b'],
      userIds: [],
      buildingIds: [3, 4],
      from: Date.parse('2026-01-01T00:00:00Z'),
      to: null,
    });
  });

  it('defaults to 100 events from the start', () => {
    expect(parseEventLogQuery({}).query).toMatchObject({ after: null, before: null, limit: 100 });
  });

  it('names every bad field', () => {
    const { errors } = parseEventLogQuery({ after: 'x', before: '3', limit: '1001', types: 'geofence.left', user_ids: 'nope', building_ids: '1,b', from: 'yesterday' });
    expect(errors.map((error) => error.fields)).toEqual(['after', 'limit', 'types', 'user_ids', 'building_ids', 'from']);
    expect(parseEventLogQuery({ after: '1', before: '2' }).errors.map((error) => error.fields)).toEqual(['after,before']);
    expect(parseEventLogQuery({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }).errors.map((error) => error.fields)).toEqual(['from']);
  });
});
