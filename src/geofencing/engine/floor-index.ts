import Flatbush from 'flatbush';
import { accuracyRadius, ClassifiedPoint, classifyPoint, LatLng, LocalProjection, MIN_RADIUS_M, ProjectedRing, projectRing, signedDistance } from './classify';

/** One fence as the index needs it; `fence` is whatever the caller wants back with a match. */
export interface IndexableFence<T> {
  ring: readonly LatLng[];
  /** The ring already projected with the index's projection (else the index projects `ring`). */
  projected?: ProjectedRing;
  accuracyFactor: number;
  fence: T;
}

export interface FenceMatch<T> extends ClassifiedPoint {
  fence: T;
}

interface Entry<T> {
  ring: ProjectedRing;
  accuracyFactor: number;
  fence: T;
}

/**
 * The live fences of one floor, projected once around their building and held in a
 * packed R-tree (flatbush) of their bounding boxes. Built whole and never mutated: when a
 * floor's fences change, the owner builds a new one.
 */
export class FloorIndex<T> {
  private readonly entries: Entry<T>[];
  private readonly tree: Flatbush | null;
  /** The largest accuracy factor on the floor: how far around a point candidates are searched. */
  private readonly maxAccuracyFactor: number;

  constructor(
    readonly projection: LocalProjection,
    fences: ReadonlyArray<IndexableFence<T>>,
  ) {
    this.entries = fences.map((fence) => ({ ring: fence.projected ?? projectRing(fence.ring, projection), accuracyFactor: fence.accuracyFactor, fence: fence.fence }));
    this.maxAccuracyFactor = this.entries.reduce((max, entry) => Math.max(max, entry.accuracyFactor), 0);
    if (this.entries.length === 0) {
      this.tree = null;
      return;
    }
    const tree = new Flatbush(this.entries.length);
    for (const entry of this.entries) tree.add(entry.ring.minX, entry.ring.minY, entry.ring.maxX, entry.ring.maxY);
    tree.finish();
    this.tree = tree;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Every fence whose boundary is nearer than the point's accuracy radius or that holds the
   * point: the fences classified inside or possibly_inside, each with its 7.1 figures.
   */
  match(lat: number, lng: number, accuracy?: number | null): FenceMatch<T>[] {
    if (!this.tree) return [];
    const x = this.projection.x(lng);
    const y = this.projection.y(lat);
    const reach = Math.max(MIN_RADIUS_M, this.maxAccuracyFactor * (accuracy ?? 0));
    const matches: FenceMatch<T>[] = [];
    for (const position of this.tree.search(x - reach, y - reach, x + reach, y + reach)) {
      const entry = this.entries[position];
      const classified = classifyPoint(entry.ring, x, y, accuracy, entry.accuracyFactor);
      if (classified.classification !== 'outside') matches.push({ ...classified, fence: entry.fence });
    }
    return matches;
  }

  /**
   * The fences `match` answers, with their signed distance only, appended to `fences` and
   * `distances` (same positions): no overlap, no object per match. The ingest's hot path.
   * `accuracyFactor`, when given, replaces every fence's own (simulate's rule override).
   */
  collect(lat: number, lng: number, accuracy: number | null, fences: T[], distances: number[], accuracyFactor?: number): void {
    if (!this.tree) return;
    const x = this.projection.x(lng);
    const y = this.projection.y(lat);
    const reach = Math.max(MIN_RADIUS_M, (accuracyFactor ?? this.maxAccuracyFactor) * (accuracy ?? 0));
    for (const position of this.tree.search(x - reach, y - reach, x + reach, y + reach)) {
      const entry = this.entries[position];
      const distance = signedDistance(entry.ring, x, y);
      // classifyDistance: outside from d ≥ r on.
      if (distance < accuracyRadius(accuracy, accuracyFactor ?? entry.accuracyFactor)) {
        fences.push(entry.fence);
        distances.push(distance);
      }
    }
  }
}
