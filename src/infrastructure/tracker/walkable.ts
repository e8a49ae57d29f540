/**
 * The walkable space of a building's paths graph, indexed for the tracker: per floor, the links
 * between nodes of that floor as segments in a grid of cells (a distance to the graph costs the
 * few segments of one cell), and the nodes where a floor change link starts (stairs, lifts,
 * escalators), with the floors and places it leads to.
 */
import type { TrackerSpace } from './tracker-contract';
import { segmentDistance, segmentDistance2 } from '../../common/planar/segments';

/** Where a floor change of the graph leads from a node of this floor. */
export interface FloorChange {
  x: number;
  y: number;
  toFloorId: number;
  toX: number;
  toY: number;
}

const CELL_M = 4;

class FloorSegments {
  /** Per cell, the segments (ax, ay, bx, by) that come within `reach` of it. */
  private readonly cells: Float64Array[];
  private readonly columns: number;
  private readonly rows: number;

  constructor(
    segments: ReadonlyArray<[number, number, number, number]>,
    width: number,
    length: number,
    /** Distances beyond this are reported as this: nothing the tracker weighs differs there. */
    readonly reach: number,
  ) {
    this.columns = Math.max(1, Math.ceil(width / CELL_M));
    this.rows = Math.max(1, Math.ceil(length / CELL_M));
    const lists: number[][] = Array.from({ length: this.columns * this.rows }, () => []);
    for (const [ax, ay, bx, by] of segments) {
      const c0 = this.column(Math.min(ax, bx) - reach);
      const c1 = this.column(Math.max(ax, bx) + reach);
      const r0 = this.row(Math.min(ay, by) - reach);
      const r1 = this.row(Math.max(ay, by) + reach);
      for (let r = r0; r <= r1; r += 1) {
        for (let c = c0; c <= c1; c += 1) {
          // The cell's centre within reach plus half its diagonal of the segment.
          const cx = (c + 0.5) * CELL_M;
          const cy = (r + 0.5) * CELL_M;
          if (segmentDistance(cx, cy, ax, ay, bx, by) <= reach + CELL_M * Math.SQRT1_2) lists[r * this.columns + c].push(ax, ay, bx, by);
        }
      }
    }
    this.cells = lists.map((list) => Float64Array.from(list));
  }

  private column(x: number): number {
    return Math.min(this.columns - 1, Math.max(0, Math.floor(x / CELL_M)));
  }

  private row(y: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor(y / CELL_M)));
  }

  /**
   * The direction of the nearest segment of some length (a unit vector), or null where none is
   * within reach or where another of a different direction is nearly as near (a junction).
   */
  direction(x: number, y: number, margin: number): { dx: number; dy: number } | null {
    const cell = this.cells[this.row(y) * this.columns + this.column(x)];
    let best2 = this.reach * this.reach;
    let bx = 0;
    let by = 0;
    for (let i = 0; i < cell.length; i += 4) {
      const ex = cell[i + 2] - cell[i];
      const ey = cell[i + 3] - cell[i + 1];
      if (ex === 0 && ey === 0) continue;
      const d2 = segmentDistance2(x, y, cell[i], cell[i + 1], cell[i + 2], cell[i + 3]);
      if (d2 < best2) {
        best2 = d2;
        const length = Math.hypot(ex, ey);
        bx = ex / length;
        by = ey / length;
      }
    }
    if (bx === 0 && by === 0) return null;
    const limit = (Math.sqrt(best2) + margin) ** 2;
    for (let i = 0; i < cell.length; i += 4) {
      const ex = cell[i + 2] - cell[i];
      const ey = cell[i + 3] - cell[i + 1];
      const length = Math.hypot(ex, ey);
      if (length === 0 || Math.abs(ex * by - ey * bx) / length < 0.2) continue;
      if (segmentDistance2(x, y, cell[i], cell[i + 1], cell[i + 2], cell[i + 3]) < limit) return null;
    }
    return { dx: bx, dy: by };
  }

  /** Distance from (x, y) to the nearest segment, at most `reach`. */
  distance(x: number, y: number): number {
    const cell = this.cells[this.row(y) * this.columns + this.column(x)];
    let best2 = this.reach * this.reach;
    for (let i = 0; i < cell.length; i += 4) {
      const d2 = segmentDistance2(x, y, cell[i], cell[i + 1], cell[i + 2], cell[i + 3]);
      if (d2 < best2) best2 = d2;
    }
    return Math.sqrt(best2);
  }
}

/** The paths graph of a building as the tracker uses it; floors with no links have no walkable constraint. */
export class WalkableSpace {
  private readonly segments = new Map<number, FloorSegments>();
  private readonly changes = new Map<number, FloorChange[]>();

  constructor(space: TrackerSpace, reach: number) {
    const paths = space.paths;
    if (!paths) return;
    const nodes = new Map(paths.nodes.map((node) => [node.id, node]));
    const byFloor = new Map<number, Array<[number, number, number, number]>>();
    const add = (floorId: number, segment: [number, number, number, number]) => {
      const list = byFloor.get(floorId) ?? [];
      list.push(segment);
      byFloor.set(floorId, list);
    };
    for (const link of paths.links) {
      const a = nodes.get(link.source);
      const b = nodes.get(link.target);
      if (!a || !b) continue;
      if (a.floorId === b.floorId) {
        add(a.floorId, [a.x, a.y, b.x, b.y]);
        continue;
      }
      for (const [from, to] of [
        [a, b],
        [b, a],
      ]) {
        const list = this.changes.get(from.floorId) ?? [];
        list.push({ x: from.x, y: from.y, toFloorId: to.floorId, toX: to.x, toY: to.y });
        this.changes.set(from.floorId, list);
      }
    }
    // Every node is walkable, a lift's landing with no link on its floor included.
    for (const node of paths.nodes) add(node.floorId, [node.x, node.y, node.x, node.y]);
    for (const [floorId, list] of byFloor) this.segments.set(floorId, new FloorSegments(list, space.width, space.length, reach));
  }

  /** Whether the floor has a graph to keep to. */
  has(floorId: number): boolean {
    return this.segments.has(floorId);
  }

  /** Distance to the floor's graph (at most the reach); 0 on a floor with no graph. */
  distance(floorId: number, x: number, y: number): number {
    const floor = this.segments.get(floorId);
    return floor ? floor.distance(x, y) : 0;
  }

  /** The direction of the floor's link near (x, y), or null (no graph, none near, a junction). */
  direction(floorId: number, x: number, y: number, margin: number): { dx: number; dy: number } | null {
    return this.segments.get(floorId)?.direction(x, y, margin) ?? null;
  }

  /** The floor changes that start on a floor. */
  changesFrom(floorId: number): readonly FloorChange[] {
    return this.changes.get(floorId) ?? [];
  }

  /** Whether any floor of the building has a graph. */
  get any(): boolean {
    return this.segments.size > 0;
  }
}
