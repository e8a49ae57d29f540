import { describe, expect, it } from 'vitest';
import { parseEventLogQuery } from '../../geofencing/events/event-log-query';
import { GeofenceEventBody } from '../../geofencing/events/geofence-event';
import { eventStreamFilter } from './event-stream-filter';

const FENCE = '0b8e3a3e-9a8b-4c55-9c9c-1b2b3c4d5e6f';
const USER = '1b8e3a3e-9a8b-4c55-9c9c-1b2b3c4d5e6f';

const event = (overrides: Partial<GeofenceEventBody> = {}): GeofenceEventBody =>
  ({
    id: 'evt_1',
    seq: 1,
    type: 'geofence.enter',
    occurred_at: '2026-01-01T12:00:00.000Z',
    building_id: '7',
    geofence: { id: FENCE, name: 'A', code: 'a' },
    device_id: 'dev-1',
    user_id: USER,
    ...overrides,
  }) as GeofenceEventBody;

const filter = (raw: Record<string, unknown>, buildingIds: number[] | null = null) => {
  const { query, errors } = parseEventLogQuery(raw);
  expect(errors).toEqual([]);
  return eventStreamFilter(query, { buildingIds });
};

describe('eventStreamFilter', () => {
  it('passes everything without filters', () => {
    expect(filter({})(event())).toBe(true);
  });

  it('applies each filter of the log', () => {
    expect(filter({ types: 'geofence.exit' })(event())).toBe(false);
    expect(filter({ types: 'geofence.exit,geofence.enter' })(event())).toBe(true);
    expect(filter({ geofence_ids: FENCE.toUpperCase() })(event())).toBe(true);
    expect(filter({ geofence_ids: USER })(event())).toBe(false);
    expect(filter({ device_ids: 'dev-2' })(event())).toBe(false);
    expect(filter({ device_ids: 'dev-2,dev-1' })(event())).toBe(true);
    expect(filter({ user_ids: USER })(event())).toBe(true);
    expect(filter({ user_ids: USER })(event({ user_id: null }))).toBe(false);
    expect(filter({ building_ids: '8' })(event())).toBe(false);
    expect(filter({ building_ids: '8,7' })(event())).toBe(true);
  });

  it('bounds occurred_at inclusively by from and to', () => {
    expect(filter({ from: '2026-01-01T12:00:00.000Z' })(event())).toBe(true);
    expect(filter({ from: '2026-01-01T12:00:00.001Z' })(event())).toBe(false);
    expect(filter({ to: '2026-01-01T12:00:00.000Z' })(event())).toBe(true);
    expect(filter({ to: '2026-01-01T11:59:59.999Z' })(event())).toBe(false);
  });

  it('keeps a restricted caller to its buildings, whatever it asks for', () => {
    expect(filter({}, [7])(event())).toBe(true);
    expect(filter({}, [8])(event())).toBe(false);
    expect(filter({ building_ids: '7' }, [8])(event())).toBe(false);
    expect(filter({ building_ids: '7,8' }, [8])(event({ building_id: '8' }))).toBe(true);
  });
});
