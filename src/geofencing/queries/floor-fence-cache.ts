import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { FloorFences, IndexedFence } from '../engine/batch';
import { LocalProjection, projectRing } from '../engine/classify';
import { FloorIndex, IndexableFence } from '../engine/floor-index';
import { LiveFencesRepository } from '../state/live-fences.repository';

interface CachedIndex {
  /** The building's revision (its fences and rules) and version (its location, the projection's origin). */
  key: string;
  floor: FloorFences;
}

/**
 * How many fences the cache holds across floors: 40 floors of 1,000 fences, well inside the
 * 512 MB heap `npm start` gives the server (what a cached fence costs: docs/decisions.md,
 * "Measurements behind the code"). Larger floors are built per request and not kept.
 */
const MAX_CACHED_FENCES = 40_000;

/**
 * Per-floor spatial indexes of the live fences, cached in this process and keyed by their
 * building's revision and version. Every write to a building's fences, their rules or the
 * organization's settings bumps the revision, and an edit of the building (its location is
 * the projection's origin) its version, in the database, so one indexed read per request
 * tells every instance whether its copy is still current.
 */
@Injectable()
export class FloorFenceCache {
  private readonly cache = new LRUCache<number, CachedIndex>({
    maxSize: MAX_CACHED_FENCES,
    sizeCalculation: (entry) => entry.floor.index.size + 1,
    dispose: (entry) => {
      for (const id of entry.floor.fences.keys()) if (this.floorOfFence.get(id) === entry.floor) this.floorOfFence.delete(id);
    },
  });
  /** The cached floor each fence was last seen on: a hint (`forFloors` still checks that floor's revision). */
  private readonly floorOfFence = new Map<string, FloorFences>();
  /** Builds under way, so concurrent requests for one floor share one build. */
  private readonly building = new Map<string, Promise<FloorFences>>();

  constructor(private readonly fences: LiveFencesRepository) {}

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
  async forFloors(organizationId: string, floorIds: number[]): Promise<Map<number, FloorFences>> {
    const floors = new Map<number, FloorFences>();
    if (floorIds.length === 0) return floors;
    const revisions = await this.fences.floorRevisions(organizationId, [...new Set(floorIds)]);
    await Promise.all(
      revisions.map(async (revision) => {
        const cached = this.cache.get(revision.floorId);
        floors.set(
          revision.floorId,
          cached?.key === revision.key
            ? cached.floor
            : await this.buildOnce(organizationId, revision.floorId, revision.key, revision.buildingId, new LocalProjection(revision.latitude, revision.longitude)),
        );
      }),
    );
    return floors;
  }

  private buildOnce(organizationId: string, floorId: number, key: string, buildingId: number, projection: LocalProjection): Promise<FloorFences> {
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

  private async build(organizationId: string, floorId: number, buildingId: number, projection: LocalProjection): Promise<FloorFences> {
    const fences = new Map<string, IndexedFence>();
    const indexable: Array<IndexableFence<IndexedFence>> = [];
    for (const stored of await this.fences.ofFloor(organizationId, floorId)) {
      // The stored ring is not kept: the index holds the projected one.
      const fence: IndexedFence = {
        id: stored.id,
        name: stored.name,
        code: stored.code,
        buildingId,
        floorId,
        rules: stored.rules,
        projected: projectRing(stored.ring, projection),
      };
      fences.set(fence.id, fence);
      indexable.push({ ring: stored.ring, projected: fence.projected, accuracyFactor: fence.rules.accuracy_factor, fence });
    }
    return { floorId, buildingId, index: new FloorIndex(projection, indexable), fences };
  }
}
