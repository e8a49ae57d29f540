import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { inList, namedList, SqlDialect } from '../../database/sql-dialect';
import { SqlRunner } from '../../database/sql-runner';
import { perDialect, statement, statementFamily } from '../../database/statements';
import { LiveFence } from '../engine/batch';
import { LatLng } from '../engine/classify';
import { effectiveRules, GeofenceRules } from '../engine/rules';

/** A fence read from the database, with its stored ring and its effective rules. */
export interface StoredFence extends LiveFence {
  ring: LatLng[];
}

/** A floor of a live building, with what its fence index is cached under. */
export interface FloorRevision {
  floorId: number;
  buildingId: number;
  latitude: number;
  longitude: number;
  /** The building's revision (its fences and rules) and version (its location, the projection's origin). */
  key: string;
}

interface FenceRow {
  id: string;
  name: string;
  code: string;
  building_id: number | string;
  floor_id: number | string;
  geometric: string | LatLng[];
  rules: string | Partial<GeofenceRules> | null;
}

interface FloorRow {
  id: number | string;
  building_id: number | string;
  latitude: number | string;
  longitude: number | string;
  revision: number | string;
  building_version: number | string;
}

const FENCES_OF_FLOOR = statement(
  'live-fences.of-floor',
  `SELECT g."id", g."name", g."code", g."building_id", g."floor_id", g."geometric", r."rules" FROM "geofences" g
       LEFT JOIN "geofence_rules" r ON r."geofence_id" = g."id"
       WHERE g."organization_id" = :organizationId AND g."deleted" = :deleted AND g."floor_id" = :floorId`,
);
const SETTINGS = statement('live-fences.settings', 'SELECT "rules" FROM "geofencing_settings" WHERE "organization_id" = :organizationId');
const BY_IDS = statement(
  'live-fences.by-ids',
  perDialect(
    (dialect) => `SELECT g.id, g.name, g.code, g.building_id, g.floor_id, g.geometric, r.rules FROM geofences g
           LEFT JOIN geofence_rules r ON r.geofence_id = g.id
           WHERE g.organization_id = :organizationId AND (g.deleted = :deleted OR :includeDeleted = 1) AND ${dialect.anyOf('g.id', 'ids', 'uuid')}`,
  ),
);
/** Padded to a power of two (namedList): a handful of statement shapes serve every batch. */
const FLOOR_REVISIONS = statementFamily<number>(
  'live-fences.floor-revisions',
  [4],
  (size) => `SELECT f."id", f."building_id", b."latitude", b."longitude", b."version" AS "building_version", COALESCE(v."revision", 0) AS "revision"
       FROM "floors" f
       JOIN "buildings" b ON b."id" = f."building_id" AND b."deleted_at" IS NULL
       LEFT JOIN "building_revisions" v ON v."building_id" = f."building_id"
       WHERE f."organization_id" = :organizationId AND f."deleted_at" IS NULL AND f."id" IN (${inList('f', size)})`,
);

const parsedJson = <T>(value: string | T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * The live fences with their effective rules (fence over organization over defaults), for the
 * floor indexes and the evaluator: one way to read a fence with its rules.
 */
@Injectable()
export class LiveFencesRepository {
  constructor(
    private readonly sql: SqlRunner,
    private readonly dialect: SqlDialect,
  ) {}

  /** The organization's own rules (null: it has none). */
  async organizationRules(organizationId: string, manager?: EntityManager): Promise<Partial<GeofenceRules> | null> {
    const [settings] = manager
      ? await this.sql.query<{ rules: string | Partial<GeofenceRules> }>(manager, SETTINGS, { organizationId })
      : await this.sql.prepared<{ rules: string | Partial<GeofenceRules> }>(SETTINGS)({ organizationId });
    return settings ? parsedJson(settings.rules) : null;
  }

  /** The live fences of a floor, with their stored rings. */
  async ofFloor(organizationId: string, floorId: number): Promise<StoredFence[]> {
    // Booleans as 0/1: better-sqlite3 takes no booleans, and PostgreSQL reads '0'/'1' as booleans.
    const [rows, organization] = await Promise.all([this.sql.prepared<FenceRow>(FENCES_OF_FLOOR)({ organizationId, deleted: 0, floorId }), this.organizationRules(organizationId)]);
    // Fences without rules of their own share one object.
    const inherited = effectiveRules(organization, null);
    return rows.map((row) => toFence(row, row.rules === null ? inherited : effectiveRules(organization, parsedJson(row.rules))));
  }

  /** The live fences among `ids` (and deleted ones when asked); other organizations' fences are absent. */
  async byIds(manager: EntityManager, organizationId: string, ids: readonly string[], includeDeleted = false): Promise<Map<string, StoredFence>> {
    const fences = new Map<string, StoredFence>();
    if (ids.length === 0) return fences;
    const organization = await this.organizationRules(organizationId, manager);
    const rows = await this.sql.query<FenceRow>(manager, BY_IDS, { organizationId, deleted: false, includeDeleted: includeDeleted ? 1 : 0, ids: this.dialect.list(ids) });
    for (const row of rows) fences.set(row.id, toFence(row, effectiveRules(organization, row.rules === null ? null : parsedJson(row.rules))));
    return fences;
  }

  /** The given floors of live buildings of the organization, with the revision their indexes are cached under. */
  async floorRevisions(organizationId: string, floorIds: readonly number[]): Promise<FloorRevision[]> {
    const list = namedList('f', floorIds);
    const rows = await this.sql.prepared<FloorRow>(FLOOR_REVISIONS.of(Object.keys(list.parameters).length))({ organizationId, ...list.parameters });
    return rows.map((row) => ({
      floorId: Number(row.id),
      buildingId: Number(row.building_id),
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      key: `${Number(row.revision)}:${Number(row.building_version)}`,
    }));
  }
}

function toFence(row: FenceRow, rules: GeofenceRules): StoredFence {
  return { id: row.id, name: row.name, code: row.code, buildingId: Number(row.building_id), floorId: Number(row.floor_id), ring: parsedJson(row.geometric), rules };
}
