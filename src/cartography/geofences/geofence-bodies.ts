/** A geofence's response body as GET by id answers it, with what decides who may read it. */
export interface GeofenceBody {
  organizationId: string;
  buildingId: number;
  version: number;
  body: Buffer;
}

export interface GeofenceBodiesOptions {
  /** Bound on the bodies' bytes; the least recently used go first. */
  maxBytes: number;
  /** Safety net: a body is served at most this long after it was read from the database. */
  maxAgeMs: number;
}

/** Taken before reading a geofence; a store with a ticket older than an invalidation is refused. */
export type BodyTicket = number;

interface Entry extends GeofenceBody {
  expiresAt: number;
}

/**
 * Serialized geofence bodies of this process, by geofence id, dropped per building whenever
 * that building's content changes (every geofence write bumps its building's revision, which
 * announces it: see BuildingRevisions) and entirely when a change may have been missed. An
 * invalidation that lands while a geofence is being read makes the store of that read a no-op
 * (tickets), so a row read before a write is never kept after the write was announced.
 * Plain TypeScript: the service around it wires the announcements.
 */
export class GeofenceBodyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byBuilding = new Map<number, Set<string>>();
  private bytes = 0;
  private epoch = 0;
  private counters = { hits: 0, misses: 0 };

  constructor(
    private readonly options: GeofenceBodiesOptions,
    private readonly now: () => number = Date.now,
  ) {}

  get(id: string): GeofenceBody | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.expiresAt <= this.now()) {
      if (entry) this.drop(id);
      this.counters.misses++;
      return undefined;
    }
    // Map order is the recency order: move the entry to the end.
    this.entries.delete(id);
    this.entries.set(id, entry);
    this.counters.hits++;
    return entry;
  }

  ticket(): BodyTicket {
    return this.epoch;
  }

  /** Keeps `body` unless an invalidation happened since `ticket` was taken. */
  set(id: string, body: GeofenceBody, ticket: BodyTicket): boolean {
    if (ticket !== this.epoch) return false;
    this.drop(id);
    if (body.body.length > this.options.maxBytes / 4) return false;
    this.entries.set(id, { ...body, expiresAt: this.now() + this.options.maxAgeMs });
    this.bytes += body.body.length;
    let ids = this.byBuilding.get(body.buildingId);
    if (!ids) this.byBuilding.set(body.buildingId, (ids = new Set()));
    ids.add(id);
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.drop(oldest);
    }
    return true;
  }

  /** Every geofence of these buildings must be read again. */
  invalidateBuildings(buildingIds: Iterable<number>): void {
    this.epoch++;
    for (const buildingId of buildingIds) {
      for (const id of [...(this.byBuilding.get(buildingId) ?? [])]) this.drop(id);
    }
  }

  /** Every geofence must be read again. */
  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.byBuilding.clear();
    this.bytes = 0;
  }

  stats(): { hits: number; misses: number; entries: number; bytes: number } {
    return { ...this.counters, entries: this.entries.size, bytes: this.bytes };
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.body.length;
    const ids = this.byBuilding.get(entry.buildingId);
    ids?.delete(id);
    if (ids?.size === 0) this.byBuilding.delete(entry.buildingId);
  }
}
