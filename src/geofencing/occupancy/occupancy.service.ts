import { Injectable } from '@nestjs/common';
import { Principal } from '../../access/principal';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { Page, pageWindow, PageQuery, toPage } from '../../common/pagination/pagination';
import { GeofencesService } from '../../cartography/geofences/geofences.service';
import { GeofenceEvaluator } from '../events/geofence-evaluator.service';
import { queryDateTime } from '../../common/time/utc-offset';
import { GeofenceOccupancyRepository } from './occupancy.repository';

const SECOND = 1000;

export interface Occupant {
  device_id: string;
  user_id: string | null;
  visit_id: string;
  entered_at: string;
  dwell_seconds: number;
  /** true while an exit waits out its grace. */
  exiting: boolean;
  last_position: { lat: number; lng: number; accuracy: number | null; time: string } | null;
}

export interface FenceOccupancy {
  geofence_id: string;
  name: string;
  code: string;
  building_id: number;
  floor_id: number;
  occupants: number;
}

export interface Visit {
  id: string;
  geofence_id: string;
  device_id: string;
  user_id: string | null;
  entered_at: string;
  exited_at: string | null;
  exit_reason: string | null;
  dwell_fired: boolean;
}

const iso = (value: string | Date | null): string | null =>
  value === null ? null : new Date(typeof value === 'string' && !value.endsWith('Z') && !value.includes('+') ? `${value.replace(' ', 'T')}Z` : value).toISOString();

function ids(value: unknown, field: string, errors: FieldError[]): number[] {
  const parts = (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .flatMap((part) => String(part).split(','))
    .map((part) => part.trim())
    .filter(Boolean);
  for (const part of parts) if (!/^\d{1,9}$/.test(part)) errors.push({ message: 'must be ids separated by commas', code: 'invalid', fields: field, value: part });
  return parts.map(Number);
}

/** Contract 7.6: who is inside a fence now, counts per fence, and a fence's visits. Read from the engine's states and visits. */
@Injectable()
export class GeofenceOccupancyService {
  constructor(
    private readonly geofences: GeofencesService,
    private readonly evaluator: GeofenceEvaluator,
    private readonly rows: GeofenceOccupancyRepository,
  ) {}

  async occupants(principal: Principal, geofenceId: string, now = Date.now()): Promise<{ data: Occupant[] }> {
    await this.geofences.get(principal, geofenceId);
    const rows = await this.rows.occupants(principal.organizationId, geofenceId);
    const pairs = await this.evaluator.readPairs(
      principal.organizationId,
      geofenceId,
      rows.map((row) => ({ deviceId: row.device_id, fenceId: geofenceId, text: row.state, deadline: null })),
    );
    const data = pairs.map(({ deviceId, state, userId }) => {
      const position = state.lastPosition;
      return {
        device_id: deviceId,
        user_id: userId,
        visit_id: state.visitId as string,
        entered_at: new Date(state.enteredAt as number).toISOString(),
        dwell_seconds: Math.max(0, Math.floor((now - (state.enteredAt as number)) / SECOND)),
        exiting: state.phase === 'pending_exit',
        last_position: position && { lat: position.lat, lng: position.lng, accuracy: position.accuracy, time: new Date(position.time).toISOString() },
      };
    });
    return { data };
  }

  async occupancy(principal: Principal, raw: Record<string, unknown>): Promise<{ data: FenceOccupancy[] }> {
    const errors: FieldError[] = [];
    let buildingIds = ids(raw.building_ids, 'building_ids', errors);
    const floorIds = ids(raw.floor_ids, 'floor_ids', errors);
    if (errors.length > 0) throw ApiError.validation('The occupancy query is not valid', errors);
    if (principal.buildingIds !== null) {
      const visible = principal.buildingIds;
      buildingIds = buildingIds.length === 0 ? [...visible] : buildingIds.filter((id) => visible.includes(id));
      if (buildingIds.length === 0) return { data: [] };
    }
    const rows = await this.rows.occupancy(principal.organizationId, buildingIds, floorIds);
    return {
      data: rows.map((row) => ({
        geofence_id: row.id,
        name: row.name,
        code: row.code,
        building_id: Number(row.building_id),
        floor_id: Number(row.floor_id),
        occupants: Number(row.occupants),
      })),
    };
  }

  /** Visits under way at any time in [from, to] (open ones included), newest first, paged like every list. */
  async visits(principal: Principal, geofenceId: string, raw: Record<string, unknown>, page: PageQuery): Promise<Page<Visit>> {
    await this.geofences.get(principal, geofenceId);
    const errors: FieldError[] = [];
    const from = queryDateTime(raw.from, 'from', errors);
    const to = queryDateTime(raw.to, 'to', errors);
    if (from !== null && to !== null && from > to) errors.push({ message: 'must not be after to', code: 'invalid', fields: 'from' });
    if (errors.length > 0) throw ApiError.validation('The visits query is not valid', errors);
    const range = { from: from === null ? null : new Date(from), to: to === null ? null : new Date(to) };
    const window = pageWindow(page);
    const [rows, total] = await Promise.all([
      this.rows.visits(principal.organizationId, geofenceId, range, window),
      this.rows.visitCount(principal.organizationId, geofenceId, range),
    ]);
    const data = rows.map((row) => ({
      id: row.id,
      geofence_id: row.geofence_id,
      device_id: row.device_id,
      user_id: row.user_id,
      entered_at: iso(row.entered_at) as string,
      exited_at: iso(row.exited_at),
      exit_reason: row.exit_reason,
      dwell_fired: Boolean(row.dwell_fired),
    }));
    return toPage(data, total, window);
  }
}
