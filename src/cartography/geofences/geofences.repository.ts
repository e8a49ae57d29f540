import { Injectable } from '@nestjs/common';
import { containsPattern } from '../../common/database/like';
import { PreparedQueries } from '../../database/prepared-queries';
import { inList, namedList } from '../../database/sql-dialect';
import { SqlRunner } from '../../database/sql-runner';
import { statement, statementFamily } from '../../database/statements';
import { Geofence } from './geofence.entity';

/** The columns a search sorts by (then by id). */
export type GeofenceSortColumn = 'name_lower' | 'code' | 'created_at' | 'updated_at';
const SORT_COLUMNS: ReadonlySet<string> = new Set<GeofenceSortColumn>(['name_lower', 'code', 'created_at', 'updated_at']);

/** A search of the organization's geofences; each list filters where not empty, `visibleBuildingIds` where not null. */
export interface GeofenceSearch {
  organizationId: string;
  deleted: boolean;
  buildingIds: readonly number[];
  /** The buildings the caller may see (null: all of the organization's). */
  visibleBuildingIds: readonly number[] | null;
  floorIds: readonly number[];
  code: string | undefined;
  /** A substring of the lower-cased name. */
  nameContains: string | undefined;
  sort: { column: GeofenceSortColumn; direction: 'ASC' | 'DESC' };
}

const BY_ID = statement('geofences.by-id', 'SELECT * FROM "geofences" WHERE "id" = :id AND "organization_id" = :organizationId');

/**
 * The conditions of a search of shape `buildings:visible:floors:code:name`: the sizes of the
 * building and floor filters (0: none), of the visible buildings (`-`: all), and 0/1 for the
 * code and the name filters.
 */
function searchWhere(shape: string): string {
  const [buildings, visible, floors, code, name] = shape.split(':');
  const conditions = ['"organization_id" = :organizationId', '"deleted" = :deleted'];
  if (Number(buildings) > 0) conditions.push(`"building_id" IN (${inList('b', Number(buildings))})`);
  if (visible !== '-') conditions.push(`"building_id" IN (${inList('v', Number(visible))})`);
  if (Number(floors) > 0) conditions.push(`"floor_id" IN (${inList('f', Number(floors))})`);
  if (code === '1') conditions.push('"code" = :code');
  if (name === '1') conditions.push(`"name_lower" LIKE :name ESCAPE '\\'`);
  return conditions.join(' AND ');
}

/** A page of a search: shape `…:column:direction` (searchWhere's, then the sort). */
const SEARCH_PAGE = statementFamily<string>('geofences.search-page', ['0:-:0:0:0:created_at:ASC', '2:2:2:1:1:name_lower:DESC'], (shape) => {
  const parts = shape.split(':');
  const [column, direction] = parts.slice(5);
  if (!SORT_COLUMNS.has(column) || (direction !== 'ASC' && direction !== 'DESC')) throw new Error(`No geofence search sorts by ${column} ${direction}`);
  return `SELECT * FROM "geofences" WHERE ${searchWhere(parts.slice(0, 5).join(':'))} ORDER BY "${column}" ${direction}, "id" ASC LIMIT :limit OFFSET :offset`;
});
const SEARCH_COUNT = statementFamily<string>(
  'geofences.search-count',
  ['0:-:0:0:0', '2:2:2:1:1'],
  (shape) => `SELECT COUNT(*) AS "total" FROM "geofences" WHERE ${searchWhere(shape)}`,
);

/** The `IN` list parameters of `values` under `prefix` (none for an empty list). */
const listParameters = (prefix: string, values: readonly number[]): Record<string, number> =>
  values.length === 0 ? {} : (namedList(prefix, values).parameters as Record<string, number>);

/** The geofence reads of the API: by id and searches, prepared once per shape on the driver and read as entities. */
@Injectable()
export class GeofencesRepository {
  private readonly hydrate: (row: Record<string, unknown>) => Geofence;

  constructor(
    private readonly sql: SqlRunner,
    queries: PreparedQueries,
  ) {
    this.hydrate = queries.hydrator(Geofence);
  }

  /** The organization's geofence `id`, deleted or not. */
  async byId(organizationId: string, id: string): Promise<Geofence | undefined> {
    const [row] = await this.sql.prepared<Record<string, unknown>>(BY_ID)({ id, organizationId });
    return row ? this.hydrate(row) : undefined;
  }

  /** A page of the search's geofences in its order, then by id. */
  async page(search: GeofenceSearch, window: { size: number; offset: number }): Promise<Geofence[]> {
    const { shape, parameters } = searchQuery(search);
    const rows = await this.sql.prepared<Record<string, unknown>>(SEARCH_PAGE.of(`${shape}:${search.sort.column}:${search.sort.direction}`))({
      ...parameters,
      limit: window.size,
      offset: window.offset,
    });
    return rows.map(this.hydrate);
  }

  /** How many geofences the search finds. */
  async count(search: GeofenceSearch): Promise<number> {
    const { shape, parameters } = searchQuery(search);
    const [counted] = await this.sql.prepared<{ total: number | string }>(SEARCH_COUNT.of(shape))(parameters);
    return Number(counted.total);
  }
}

function searchQuery(search: GeofenceSearch): { shape: string; parameters: Record<string, string | number> } {
  // Booleans as 0/1: better-sqlite3 takes no booleans, and PostgreSQL reads '0'/'1' as booleans.
  const parameters: Record<string, string | number> = { organizationId: search.organizationId, deleted: search.deleted ? 1 : 0 };
  const buildings = listParameters('b', search.buildingIds);
  const visible = search.visibleBuildingIds === null ? {} : listParameters('v', search.visibleBuildingIds);
  const floors = listParameters('f', search.floorIds);
  Object.assign(parameters, buildings, visible, floors);
  if (search.code !== undefined) parameters.code = search.code;
  if (search.nameContains) parameters.name = containsPattern(search.nameContains);
  const size = (list: Record<string, number>) => Object.keys(list).length;
  const shape = [size(buildings), search.visibleBuildingIds === null ? '-' : size(visible), size(floors), search.code === undefined ? 0 : 1, search.nameContains ? 1 : 0].join(':');
  return { shape, parameters };
}
