/**
 * Plane geometry of segments in floor metres, shared by the pure cores that need it (the router's
 * snapping and grid, the tracker's walkable space). No dependencies: a pure folder (eslint/layers.mjs).
 */

/** The squared distance from (x, y) to the segment from (ax, ay) to (bx, by) (a point when both ends are one). */
export function segmentDistance2(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax;
  const ey = by - ay;
  const length2 = ex * ex + ey * ey;
  let t = length2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / length2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const dx = x - (ax + t * ex);
  const dy = y - (ay + t * ey);
  return dx * dx + dy * dy;
}

/** The distance from (x, y) to the segment from (ax, ay) to (bx, by). */
export function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  return Math.sqrt(segmentDistance2(x, y, ax, ay, bx, by));
}
