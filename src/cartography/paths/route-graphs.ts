import { Injectable } from '@nestjs/common';
import type { BuildingFrame } from '../../common/geometry/cartesian';
import type { RouteGraph } from './router';

/** A building's routing graph, with what it was built at. */
export interface CachedRouteGraph {
  graph: RouteGraph;
  /** The building's frame (lat/lng of the route's points). */
  frame: BuildingFrame;
  revision: number;
  buildingVersion: number;
}

const MAX_CACHED_GRAPHS = 64;

/**
 * Routing graphs of this process, least recently used evicted first. An entry is served only
 * while the building's version and content revision, read from the database on every request,
 * are the ones it was built at: a paths (or floor) change on any instance bumps the revision in
 * its transaction, so every instance's next route rebuilds; nothing lives only here.
 */
@Injectable()
export class RouteGraphCache {
  private readonly entries = new Map<number, CachedRouteGraph>();
  private readonly building = new Map<string, Promise<CachedRouteGraph>>();

  /** The cached graph, or one built by `build`; concurrent requests for one not yet cached share one build. */
  async getOrBuild(
    buildingId: number,
    buildingVersion: number,
    revision: number,
    build: () => Promise<Omit<CachedRouteGraph, 'revision' | 'buildingVersion'>>,
  ): Promise<CachedRouteGraph> {
    const cached = this.entries.get(buildingId);
    if (cached && cached.revision === revision && cached.buildingVersion === buildingVersion) {
      this.entries.delete(buildingId);
      this.entries.set(buildingId, cached);
      return cached;
    }
    const key = `${buildingId}:${buildingVersion}:${revision}`;
    let pending = this.building.get(key);
    if (!pending) {
      pending = build().then(
        (built) => {
          this.building.delete(key);
          const entry = { ...built, revision, buildingVersion };
          this.entries.delete(buildingId);
          this.entries.set(buildingId, entry);
          for (const [oldest] of this.entries) {
            if (this.entries.size <= MAX_CACHED_GRAPHS) break;
            this.entries.delete(oldest);
          }
          return entry;
        },
        (error: unknown) => {
          this.building.delete(key);
          throw error;
        },
      );
      this.building.set(key, pending);
    }
    return pending;
  }

  /** How many graphs are held (tests). */
  get size(): number {
    return this.entries.size;
  }
}
