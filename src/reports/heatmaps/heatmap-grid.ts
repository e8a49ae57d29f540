import { BuildingFrame, toGeoreference } from '../../common/geometry/cartesian';
import { DAY_MS } from '../../common/time/durations';

/**
 * The pure part of the heatmap: which UTC days of a range are whole (cacheable) and which
 * pieces are not, and the cell counts of several pieces added into one answer.
 */

/** Cell sizes (metres) a heatmap may be asked in: a few, so cached days are shared. */
export const CELL_SIZES = [0.5, 1, 2, 5, 10] as const;
export const DEFAULT_CELL_SIZE = 2;

/** A grid cell: column and row of `cell_size` squares from the floor's origin, and the fixes in it. */
export type CellCount = [cx: number, cy: number, count: number];

export interface RangePlan {
  /** Start (epoch ms) of each whole UTC day inside the range that has ended: read from the cache. */
  days: number[];
  /** `[from, to)` pieces that are not whole ended days (the range's ends, today so far): read from the history. */
  pieces: Array<[number, number]>;
}

/** Splits `[from, to)` into whole ended UTC days and the rest (at most two pieces). */
export function planRange(from: number, to: number, now: number): RangePlan {
  const days: number[] = [];
  const first = Math.ceil(from / DAY_MS) * DAY_MS;
  const lastEnd = Math.min(Math.floor(to / DAY_MS) * DAY_MS, Math.floor(now / DAY_MS) * DAY_MS);
  if (first + DAY_MS > lastEnd) return { days, pieces: from < to ? [[from, to]] : [] };
  for (let day = first; day + DAY_MS <= lastEnd; day += DAY_MS) days.push(day);
  const pieces: Array<[number, number]> = [];
  if (from < first) pieces.push([from, first]);
  const end = days[days.length - 1] + DAY_MS;
  if (end < to) pieces.push([end, to]);
  return { days, pieces };
}

/** Adds cell counts of several pieces (days, partial pieces) into one grid. */
export function addCells(parts: Iterable<ReadonlyArray<CellCount>>): Map<string, CellCount> {
  const grid = new Map<string, CellCount>();
  for (const part of parts) {
    for (const [cx, cy, count] of part) {
      const key = `${cx}:${cy}`;
      const cell = grid.get(key);
      if (cell) cell[2] += count;
      else grid.set(key, [cx, cy, count]);
    }
  }
  return grid;
}

export interface HeatmapCell {
  /** The cell's centre in floor metres (the building's cartesian frame, as POIs and positions use). */
  x: number;
  y: number;
  lat: number;
  lng: number;
  count: number;
}

/** The grid as cells with their centres in floor metres and degrees, row by row. */
export function toCells(grid: Map<string, CellCount>, cellSize: number, frame: BuildingFrame): { cells: HeatmapCell[]; total: number; max: number } {
  const sorted = [...grid.values()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  let total = 0;
  let max = 0;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const cells = sorted.map(([cx, cy, count]) => {
    total += count;
    max = Math.max(max, count);
    const x = (cx + 0.5) * cellSize;
    const y = (cy + 0.5) * cellSize;
    const { lat, lng } = toGeoreference(frame, { x, y });
    return { x: round(x), y: round(y), lat: Math.round(lat * 1e7) / 1e7, lng: Math.round(lng * 1e7) / 1e7, count };
  });
  return { cells, total, max };
}
