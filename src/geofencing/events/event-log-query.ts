import { FieldError } from '../../common/errors/api-error';
import { EventType } from '../engine/visit-state';
import { queryDateTime } from '../../common/time/utc-offset';

export const EVENT_TYPES: readonly EventType[] = ['geofence.enter', 'geofence.exit', 'geofence.dwell'];
export const DEFAULT_EVENT_PAGE = 100;
export const MAX_EVENT_PAGE = 1000;

/** The filters and page of `GET /geofencing/events` (contract 7.3), checked. */
export interface EventLogQuery {
  /** The cursor is the event's seq: `after` reads forward (oldest first), `before` backward (newest first). */
  after: number | null;
  before: number | null;
  limit: number;
  types: EventType[];
  geofenceIds: string[];
  deviceIds: string[];
  userIds: string[];
  buildingIds: number[];
  from: number | null;
  to: number | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_LIST = 100;

/** A query value as a list: `a,b`, repeated parameters, or both. */
function list(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return parts
    .flatMap((part) => String(part).split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function cursor(value: unknown, field: string, errors: FieldError[]): number | null {
  if (value === undefined || value === '') return null;
  const text = String(value);
  if (!/^\d{1,15}$/.test(text)) {
    errors.push({ message: 'must be a cursor from an earlier answer (next_cursor) or an event seq', code: 'invalid', fields: field, value });
    return null;
  }
  return Number(text);
}

/** Reads the query string by hand so every bad field is named at once; `[]` errors means valid. */
export function parseEventLogQuery(query: Record<string, unknown>): { query: EventLogQuery; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const after = cursor(query.after, 'after', errors);
  const before = cursor(query.before, 'before', errors);
  if (after !== null && before !== null) errors.push({ message: 'give after or before, not both', code: 'invalid', fields: 'after,before' });
  let limit = DEFAULT_EVENT_PAGE;
  if (query.limit !== undefined && query.limit !== '') {
    const text = String(query.limit);
    limit = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(limit >= 1 && limit <= MAX_EVENT_PAGE))
      errors.push({ message: `must be a whole number from 1 to ${MAX_EVENT_PAGE}`, code: 'invalid', fields: 'limit', value: query.limit });
  }
  const types = list(query.types);
  for (const type of types)
    if (!EVENT_TYPES.includes(type as EventType)) errors.push({ message: `must be among ${EVENT_TYPES.join(', ')}`, code: 'invalid', fields: 'types', value: type });
  const uuids = (field: string) => {
    const values = list(query[field]).map((value) => value.toLowerCase());
    for (const value of values) if (!UUID.test(value)) errors.push({ message: 'must be UUIDs separated by commas', code: 'invalid', fields: field, value });
    return values;
  };
  const geofenceIds = uuids('geofence_ids');
  const userIds = uuids('user_ids');
  const deviceIds = list(query.device_ids);
  for (const value of deviceIds) if (value.length > 64) errors.push({ message: 'device ids have at most 64 characters', code: 'invalid', fields: 'device_ids', value });
  const buildingIds = list(query.building_ids).map(Number);
  for (const [position, value] of list(query.building_ids).entries()) {
    if (!/^\d{1,9}$/.test(value))
      errors.push({ message: 'must be building ids separated by commas', code: 'invalid', fields: 'building_ids', value: list(query.building_ids)[position] });
  }
  for (const [field, values] of Object.entries({ types, geofence_ids: geofenceIds, user_ids: userIds, device_ids: deviceIds, building_ids: buildingIds })) {
    if (values.length > MAX_LIST) errors.push({ message: `at most ${MAX_LIST} values`, code: 'invalid', fields: field });
  }
  const from = queryDateTime(query.from, 'from', errors);
  const to = queryDateTime(query.to, 'to', errors);
  if (from !== null && to !== null && from > to) errors.push({ message: 'must not be after to', code: 'invalid', fields: 'from' });
  return { query: { after, before, limit, types: types as EventType[], geofenceIds, deviceIds, userIds, buildingIds, from, to }, errors };
}
