import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { PreparedQueries, PreparedQuery } from '../../database/prepared-queries';
import { namedList } from '../../positions/position-sql';
import { LatLng, LocalProjection, ProjectedRing, projectRing } from '../engine/classify';
import { FloorIndex, IndexableFence } from '../engine/floor-index';
import { effectiveRules, GeofenceRules } from '../engine/rules';

/**
 * A live fence as the index holds it: what a match reports, and everything the evaluator
 * needs to run its rules (so ingest reads no fence rows for the fences a fix matches).
 */
export interface IndexedFence {
  id: string;
  name: string;
  code: string;
  buildingId: number;
  floorId: number;
  /** Effective rules (fence over organization over defaults) as of the cached revision. */
  rules: GeofenceRules;
  /** The ring in the floor index's projection (the stored [lat, lng] ring is not kept). */
  projected: ProjectedRing;
}

export interface FloorOfCaller {
  floorId: number;
  buildingId: number;
  index: FloorIndex<IndexedFence>;
  /** The index's fences by id. */
  fences: ReadonlyMap<string, IndexedFence>;
}

interface BuiltFloor {
  floorId: number;
  index: FloorIndex<IndexedFence>;
  fences: ReadonlyMap<string, IndexedFence>;
}

interface FloorRow {
  id: number | string;
  building_id: number | string;
  latitude: number | string;
  longitude: number | string;
  revision: number | string;
  building_version: number | string;
}

interface FenceRow {
  id: string;
  name: string;
  code: string;
  geometric: string | LatLng[];
  rules: string | Partial<GeofenceRules> | null;
}

interface CachedIndex {
  /** The building's revision (its fences and rules) and version (its location, the projection's origin). */
  key: string;
  floor: BuiltFloor;
}

/**
 * How many fences the cache holds across floors. A fence of 12 corners costs about 1.7 kB
 * (measured), so this is about 70 MB: 40 floors of 1,000 fences, well inside the 512 MB
 * heap `npm start` gives the server. Larger floors are built per request and not kept.
 */
const MAX_CACHED_FENCES = 40_000;

const parsedJson = <T>(value: string | T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * Per-floor spatial indexes of the live fences, cached in this process and keyed by their
 * building's revision and version. Every write to a building's fences, their rules or the
 * organization's settings bumps the revision, and an edit of the building (its location is
 * the projection's origin) its version, in the database, so one indexed read per request
 * tells every instance whether its copy is still current.
 * TODO(notifications): when src/database/notifications.ts lands, evict on its
 * building-changed message and drop the per-request revision read.
 */
@Injectable()
export class FloorIndexes {
  private readonly cache = new LRUCache<number, CachedIndex>({
    maxSize: MAX_CACHED_FENCES,
    sizeCalculation: (entry) => entry.floor.index.size + 1,
    dispose: (entry) => {
      for (const id of entry.floor.fences.keys()) if (this.floorOfFence.get(id) === entry.floor) this.floorOfFence.delete(id);
    },
  });
  /** The cached floor each fence was last seen on: a hint (`forFloors` still checks that floor's revision). */
  private readonly floorOfFence = new Map<string, BuiltFloor>();
  /** Builds under way, so concurrent requests for one floor share one build. */
  private readonly building = new Map<string, Promise<BuiltFloor>>();
  private readonly fencesOfFloor: PreparedQuery<FenceRow>;
  private readonly settingsOf: PreparedQuery<{ rules: string | Partial<GeofenceRules> }>;

  constructor(private readonly queries: PreparedQueries) {
    this.fencesOfFloor = queries.prepare(
      `SELECT g."id", g."name", g."code", g."geometric", r."rules" FROM "geofences" g
       LEFT JOIN "geofence_rules" r ON r."geofence_id" = g."id"
       WHERE g."organization_id" = :organizationId AND g."deleted" = :deleted AND g."floor_id" = :floorId`,
    );
    this.settingsOf = queries.prepare('SELECT "rules" FROM "geofencing_settings" WHERE "organization_id" = :organizationId');
  }

  /**
   * The floor a fence is on, if a cached index holds it: a hint for which floors to ask
   * `forFloors` for (which checks the revision; the fence may have moved or gone since).
   */
  cachedFloorOf(fenceId: string): number | undefined {
    return this.floorOfFence.get(fenceId)?.floorId;
  }

  /**
   * The indexes of the given floors of an organization (live floors of live buildings only),
   * by floor id. Floors that are missing, deleted or of another organization are absent.
   * One query for all the floors and their revisions; fences are read only for floors
   * whose cached index is missing or stale.
   */
  async forFloors(organizationId: string, floorIds: number[]): Promise<Map<number, FloorOfCaller>> {
    const distinct = [...new Set(floorIds)];
    // Padded to a power of two: a handful of statement shapes serve every batch.
    const list = namedList('f', distinct);
    const parameters = { organizationId, ...list.parameters };
    const rows = await this.queries.cached<FloorRow>(
      `SELECT f."id", f."building_id", b."latitude", b."longitude", b."version" AS "building_version", COALESCE(v."revision", 0) AS "revision"
       FROM "floors" f
       JOIN "buildings" b ON b."id" = f."building_id" AND b."deleted_at" IS NULL
       LEFT JOIN "building_revisions" v ON v."building_id" = f."building_id"
       WHERE f."organization_id" = :organizationId AND f."deleted_at" IS NULL AND f."id" IN (${list.sql})`,
    )(parameters);
    const floors = new Map<number, FloorOfCaller>();
    await Promise.all(
      rows.map(async (row) => {
        const floorId = Number(row.id);
        const key = `${Number(row.revision)}:${Number(row.building_version)}`;
        const cached = this.cache.get(floorId);
        const built = cached?.key === key ? cached.floor : await this.buildOnce(organizationId, floorId, key, Number(row.building_id), new LocalProjection(Number(row.latitude), Number(row.longitude)));
        floors.set(floorId, { floorId, buildingId: Number(row.building_id), index: built.index, fences: built.fences });
      }),
    );
    return floors;
  }

  private buildOnce(organizationId: string, floorId: number, key: string, buildingId: number, projection: LocalProjection): Promise<BuiltFloor> {
    const buildKey = `${floorId}:${key}`;
    let pending = this.building.get(buildKey);
    if (!pending) {
      // Read after the revision: the fences are at least as new as the key they are cached under.
      pending = this.build(organizationId, floorId, buildingId, projection)
        .then((floor) => {
          this.cache.set(floorId, { key, floor });
          // Only for a floor the cache kept (a larger one is not): eviction removes the hints.
          if (this.cache.peek(floorId)?.floor === floor) for (const id of floor.fences.keys()) this.floorOfFence.set(id, floor);
          return floor;
        })
        .finally(() => this.building.delete(buildKey));
      this.building.set(buildKey, pending);
    }
    return pending;
  }

  private async build(organizationId: string, floorId: number, buildingId: number, projection: LocalProjection): Promise<BuiltFloor> {
    // Booleans as 0/1: better-sqlite3 takes no booleans, and PostgreSQL reads '0'/'1' as booleans.
    const [rows, [settings]] = await Promise.all([this.fencesOfFloor({ organizationId, deleted: 0, floorId }), this.settingsOf({ organizationId })]);
    const organization = settings ? parsedJson(settings.rules) : null;
    // Fences without rules of their own share one object.
    const inherited = effectiveRules(organization, null);
    const fences = new Map<string, IndexedFence>();
    const indexable: Array<IndexableFence<IndexedFence>> = [];
    for (const row of rows) {
      const ring = parsedJson(row.geometric);
      const rules = row.rules === null ? inherited : effectiveRules(organization, parsedJson(row.rules));
      const fence: IndexedFence = { id: row.id, name: row.name, code: row.code, buildingId, floorId, rules, projected: projectRing(ring, projection) };
      fences.set(row.id, fence);
      indexable.push({ ring, projected: fence.projected, accuracyFactor: rules.accuracy_factor, fence });
    }
    return { floorId, index: new FloorIndex(projection, indexable), fences };
  }
}
