import { Injectable } from '@nestjs/common';
import { inList, namedList } from '../database/sql-dialect';
import { SqlRunner } from '../database/sql-runner';
import { statementFamily } from '../database/statements';

export interface PlaceRow {
  floor_id: number | null;
  building_id: number;
  latitude: number;
  longitude: number;
  width: number;
  length: number;
  rotation: number;
  /** The building's `building_tracking` settings: null where it has none (the defaults). */
  filter_positions: boolean | number | null;
  reset_after_seconds: number | string | null;
}

const USERS = statementFamily<number>('fix-places.users', [2], (size) => `SELECT id FROM users WHERE organization_id = :organization AND id IN (${inList('u', size)})`);

// The tracking settings come with the building (no query more a batch): whether it filters reported positions.
const COLUMNS = 'b.id AS building_id, b.latitude, b.longitude, b.width, b.length, b.rotation, t.positions AS filter_positions, t.reset_after_seconds';
const TRACKING = 'LEFT JOIN building_tracking t ON t.building_id = b.id';
/** The floors named (with their building) and the buildings named, one part each when named: shape `floors:buildings` (list sizes, 0 for none). */
const PLACES = statementFamily<string>('fix-places.places', ['2:0', '0:2', '2:2'], (shape) => {
  const [floors, buildings] = shape.split(':').map(Number);
  const parts: string[] = [];
  if (floors > 0) {
    parts.push(
      `SELECT f.id AS floor_id, ${COLUMNS} FROM floors f JOIN buildings b ON b.id = f.building_id ${TRACKING}
         WHERE f.organization_id = :organization AND f.deleted_at IS NULL AND b.organization_id = :organization AND b.deleted_at IS NULL AND f.id IN (${inList('f', floors)})`,
    );
  }
  if (buildings > 0)
    parts.push(
      `SELECT NULL AS floor_id, ${COLUMNS} FROM buildings b ${TRACKING} WHERE b.organization_id = :organization AND b.deleted_at IS NULL AND b.id IN (${inList('b', buildings)})`,
    );
  return parts.join(' UNION ALL ');
});

/** The reads of a batch's references: its users, its floors and buildings (prepared once per shape). */
@Injectable()
export class FixPlacesRepository {
  constructor(private readonly sql: SqlRunner) {}

  async users(organizationId: string, userIds: readonly string[]): Promise<Array<{ id: string }>> {
    const names = namedList('u', userIds);
    return this.sql.prepared<{ id: string }>(USERS.of(Object.keys(names.parameters).length))({ organization: organizationId, ...names.parameters });
  }

  /** At least one of the lists is not empty. */
  async places(organizationId: string, floorIds: readonly number[], buildingIds: readonly number[]): Promise<PlaceRow[]> {
    const floors = floorIds.length > 0 ? namedList('f', floorIds) : { parameters: {} };
    const buildings = buildingIds.length > 0 ? namedList('b', buildingIds) : { parameters: {} };
    const shape = `${Object.keys(floors.parameters).length}:${Object.keys(buildings.parameters).length}`;
    return this.sql.prepared<PlaceRow>(PLACES.of(shape))({ organization: organizationId, ...floors.parameters, ...buildings.parameters });
  }
}
