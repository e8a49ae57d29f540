import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inList, namedList } from '../../database/sql-dialect';
import { SqlRunner, StatementValue } from '../../database/sql-runner';
import { statement, statementFamily } from '../../database/statements';

/** The phases in which a device counts as inside: a pending exit is still a visit under way. */
const OCCUPYING = "('inside', 'pending_exit')";

export interface FenceOccupancyRow {
  id: string;
  name: string;
  code: string;
  building_id: number;
  floor_id: number;
  occupants: number | string;
}

export interface VisitRow {
  id: string;
  geofence_id: string;
  device_id: string;
  user_id: string | null;
  entered_at: string;
  exited_at: string | null;
  exit_reason: string | null;
  dwell_fired: boolean | number;
}

/** A fence's visits under way at any time in [from, to] (either end open where null). */
export interface VisitRange {
  from: Date | null;
  to: Date | null;
}

const OCCUPANTS = statement(
  'occupancy.occupants',
  `SELECT device_id, state FROM geofence_states WHERE geofence_id = :geofenceId AND organization_id = :organizationId AND phase IN ${OCCUPYING} ORDER BY device_id`,
);

/** Occupants per live fence of the buildings and floors named where named: shape `buildings:floors` (list sizes, 0 for none). */
const COUNTS = statementFamily<string>('occupancy.counts', ['0:0', '2:0', '0:2', '2:2'], (shape) => {
  const [buildings, floors] = shape.split(':').map(Number);
  const conditions = ['s.organization_id = :organizationId', `s.phase IN ${OCCUPYING}`, 'g.deleted = :deleted'];
  if (buildings > 0) conditions.push(`g.building_id IN (${inList('b', buildings)})`);
  if (floors > 0) conditions.push(`g.floor_id IN (${inList('f', floors)})`);
  return `SELECT g.id, g.name, g.code, g.building_id, g.floor_id, COUNT(*) AS occupants FROM geofence_states s JOIN geofences g ON g.id = s.geofence_id
       WHERE ${conditions.join(' AND ')} GROUP BY g.id, g.name, g.code, g.building_id, g.floor_id ORDER BY g.id`;
});

/** Shape `to:from` (1 where the range has that end). */
function visitsWhere(shape: string): string {
  const [to, from] = shape.split(':').map(Number);
  const conditions = ['geofence_id = :geofenceId', 'organization_id = :organizationId'];
  if (to) conditions.push('entered_at <= :to');
  if (from) conditions.push('(exited_at IS NULL OR exited_at >= :from)');
  return conditions.join(' AND ');
}

const VISITS = statementFamily<string>(
  'occupancy.visits',
  ['0:0', '1:1'],
  (shape) =>
    `SELECT id, geofence_id, device_id, user_id, entered_at, exited_at, exit_reason, dwell_fired FROM geofence_visits WHERE ${visitsWhere(shape)} ORDER BY entered_at DESC, id LIMIT :limit OFFSET :offset`,
);
const VISIT_COUNT = statementFamily<string>('occupancy.visit-count', ['0:0', '1:1'], (shape) => `SELECT COUNT(*) AS total FROM geofence_visits WHERE ${visitsWhere(shape)}`);

/** Contract 7.6's reads of the engine's states and visits, on the main connection. */
@Injectable()
export class GeofenceOccupancyRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /** The devices inside the fence now (a pending exit included) with their pair state's text, by device. */
  occupants(organizationId: string, geofenceId: string): Promise<Array<{ device_id: string; state: string }>> {
    return this.sql.query<{ device_id: string; state: string }>(this.dataSource.manager, OCCUPANTS, { geofenceId, organizationId });
  }

  /** Occupants per live fence that has any, in `buildingIds` and `floorIds` where not empty; by fence id. */
  occupancy(organizationId: string, buildingIds: readonly number[], floorIds: readonly number[]): Promise<FenceOccupancyRow[]> {
    const buildings = buildingIds.length > 0 ? namedList('b', buildingIds).parameters : {};
    const floors = floorIds.length > 0 ? namedList('f', floorIds).parameters : {};
    const shape = `${Object.keys(buildings).length}:${Object.keys(floors).length}`;
    return this.sql.query<FenceOccupancyRow>(this.dataSource.manager, COUNTS.of(shape), { organizationId, deleted: false, ...buildings, ...floors });
  }

  /** A page of the fence's visits under way in `range`, newest first. */
  visits(organizationId: string, geofenceId: string, range: VisitRange, page: { size: number; offset: number }): Promise<VisitRow[]> {
    const { shape, parameters } = visitsQuery(organizationId, geofenceId, range);
    return this.sql.query<VisitRow>(this.dataSource.manager, VISITS.of(shape), { ...parameters, limit: page.size, offset: page.offset });
  }

  /** How many of the fence's visits were under way in `range`. */
  async visitCount(organizationId: string, geofenceId: string, range: VisitRange): Promise<number> {
    const { shape, parameters } = visitsQuery(organizationId, geofenceId, range);
    const [{ total }] = await this.sql.query<{ total: number | string }>(this.dataSource.manager, VISIT_COUNT.of(shape), parameters);
    return Number(total);
  }
}

function visitsQuery(organizationId: string, geofenceId: string, range: VisitRange): { shape: string; parameters: Record<string, StatementValue> } {
  const parameters: Record<string, StatementValue> = { geofenceId, organizationId };
  if (range.to !== null) parameters.to = range.to;
  if (range.from !== null) parameters.from = range.from;
  return { shape: `${range.to === null ? 0 : 1}:${range.from === null ? 0 : 1}`, parameters };
}
