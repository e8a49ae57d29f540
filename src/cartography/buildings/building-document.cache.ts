import { Injectable } from '@nestjs/common';

interface CachedDocument {
  buildingVersion: number;
  revision: number;
  body: Buffer;
}

const MAX_CACHED_BYTES = 64 * 1024 * 1024;

/**
 * Serialized building documents of this process, least recently used evicted first. An
 * entry is only served while the building's version and revision, read from the database
 * on every request, are the ones it was built at: the database stays the one source of truth.
 */
@Injectable()
export class BuildingDocumentCache {
  private readonly entries = new Map<number, CachedDocument>();
  private readonly building = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  /**
   * The cached document, or one built by `build`. Concurrent requests for a document not
   * yet cached share one build instead of each building it.
   */
  async getOrBuild(buildingId: number, buildingVersion: number, revision: number, build: () => Promise<Buffer>): Promise<Buffer> {
    const cached = this.get(buildingId, buildingVersion, revision);
    if (cached) return cached;
    const key = `${buildingId}:${buildingVersion}:${revision}`;
    let pending = this.building.get(key);
    if (!pending) {
      pending = build().then(
        (body) => {
          this.building.delete(key);
          this.set(buildingId, buildingVersion, revision, body);
          return body;
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

  get(buildingId: number, buildingVersion: number, revision: number): Buffer | undefined {
    const entry = this.entries.get(buildingId);
    if (!entry || entry.buildingVersion !== buildingVersion || entry.revision !== revision) return undefined;
    this.entries.delete(buildingId);
    this.entries.set(buildingId, entry);
    return entry.body;
  }

  set(buildingId: number, buildingVersion: number, revision: number, body: Buffer): void {
    this.drop(buildingId);
    if (body.length > MAX_CACHED_BYTES / 4) return;
    this.entries.set(buildingId, { buildingVersion, revision, body });
    this.bytes += body.length;
    for (const [oldest] of this.entries) {
      if (this.bytes <= MAX_CACHED_BYTES) break;
      this.drop(oldest);
    }
  }

  private drop(buildingId: number): void {
    const entry = this.entries.get(buildingId);
    if (!entry) return;
    this.bytes -= entry.body.length;
    this.entries.delete(buildingId);
  }
}
