import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inList, namedList } from '../../database/sql-dialect';
import { SqlRunner } from '../../database/sql-runner';
import { statement, statementFamily } from '../../database/statements';

/** A fence as the reports read it (its id as stored). */
export interface ReportFenceRow {
  id: string;
  name: string;
  code: string;
  building_id: number;
  floor_id: number;
  deleted: boolean | number;
}

const LIVE_BUILDINGS = statementFamily<number>(
  'report-fences.live-buildings',
  [2],
  (size) => `SELECT id FROM buildings WHERE organization_id = :organizationId AND deleted_at IS NULL AND id IN (${inList('b', size)})`,
);

/** The organization's fences, in the buildings named and of the ids named where named: shape `buildings:fences` (list sizes, 0 for none). */
const FENCES = statementFamily<string>('report-fences.fences', ['0:0', '2:0', '0:2', '2:2'], (shape) => {
  const [buildings, fences] = shape.split(':').map(Number);
  const conditions = ['organization_id = :organizationId'];
  if (buildings > 0) conditions.push(`building_id IN (${inList('b', buildings)})`);
  if (fences > 0) conditions.push(`id IN (${inList('g', fences)})`);
  return `SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE ${conditions.join(' AND ')} ORDER BY id`;
});

const FENCE_BUILDING = statement('report-fences.fence-building', 'SELECT building_id FROM geofences WHERE organization_id = :organizationId AND id = :id AND deleted = :deleted');

/** The reads of the fences a visit report or the analytics cover (VisitReader), on the main connection. */
@Injectable()
export class ReportFencesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /** The ids among `buildingIds` of the organization's buildings not deleted. */
  async liveBuildings(organizationId: string, buildingIds: readonly number[]): Promise<number[]> {
    const ids = namedList('b', buildingIds);
    const rows = await this.sql.query<{ id: number }>(this.dataSource.manager, LIVE_BUILDINGS.of(Object.keys(ids.parameters).length), { organizationId, ...ids.parameters });
    return rows.map((row) => Number(row.id));
  }

  /** The organization's fences (deleted ones included) in `buildingIds` and among `geofenceIds`, each list where not empty; by id. */
  async fences(organizationId: string, buildingIds: readonly number[], geofenceIds: readonly string[]): Promise<ReportFenceRow[]> {
    const buildings = buildingIds.length > 0 ? namedList('b', buildingIds) : { parameters: {} };
    const fences = geofenceIds.length > 0 ? namedList('g', geofenceIds) : { parameters: {} };
    const shape = `${Object.keys(buildings.parameters).length}:${Object.keys(fences.parameters).length}`;
    return this.sql.query<ReportFenceRow>(this.dataSource.manager, FENCES.of(shape), { organizationId, ...buildings.parameters, ...fences.parameters });
  }

  /** The building of the organization's fence `id` not deleted, if there is one. */
  async buildingOfLiveFence(organizationId: string, id: string): Promise<number | undefined> {
    const [row] = await this.sql.query<{ building_id: number }>(this.dataSource.manager, FENCE_BUILDING, { organizationId, id, deleted: false });
    return row ? Number(row.building_id) : undefined;
  }
}
