/** A POI that can contain positions: on a floor, with a radius, in floor metres. */
export interface PoiCircle {
  id: number;
  floorId: number;
  x: number;
  y: number;
  radius: number;
}

/**
 * `poi_id` of contract 6.1: the POI on the fix's floor whose radius contains it, nearest
 * first (ties to the lower id); null when none. Built once per request from the floors' POIs.
 */
export class PoiLookup {
  private readonly byFloor = new Map<number, PoiCircle[]>();

  constructor(pois: Iterable<PoiCircle>) {
    for (const poi of pois) {
      const list = this.byFloor.get(poi.floorId);
      if (list) list.push(poi);
      else this.byFloor.set(poi.floorId, [poi]);
    }
  }

  containing(floorId: number | null, x: number | null, y: number | null): number | null {
    if (floorId === null || x === null || y === null) return null;
    let best: PoiCircle | null = null;
    let bestDistance = Infinity;
    for (const poi of this.byFloor.get(floorId) ?? []) {
      const distance = Math.hypot(poi.x - x, poi.y - y);
      if (distance > poi.radius) continue;
      if (distance < bestDistance || (distance === bestDistance && best !== null && poi.id < best.id)) {
        best = poi;
        bestDistance = distance;
      }
    }
    return best?.id ?? null;
  }
}
