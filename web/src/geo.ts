// The same conversion the server uses for POIs: one definition of the building's frame.
import { toCartesian, toGeoreference } from '../../src/common/geometry/cartesian';

export interface BuildingGeometry {
  location: { lat: number; lng: number };
  dimensions: { width: number; length: number };
  rotation: number;
}

export type LngLat = [number, number];

/** The floor plan's four corners, [lng, lat]: top-left, top-right, bottom-right, bottom-left. */
export function planCorners(b: BuildingGeometry): [LngLat, LngLat, LngLat, LngLat] {
  const frame = { latitude: b.location.lat, longitude: b.location.lng, width: b.dimensions.width, length: b.dimensions.length, rotation: b.rotation };
  const at = (x: number, y: number): LngLat => {
    const g = toGeoreference(frame, { x, y });
    return [g.lng, g.lat];
  };
  // Cartesian y grows northward from the plan's lower edge, so the image's top row is y = length.
  return [at(0, b.dimensions.length), at(b.dimensions.width, b.dimensions.length), at(b.dimensions.width, 0), at(0, 0)];
}

/** No external source at all: a background, the plan image and our own GeoJSON. */

/** The API's rings are [lat, lng] pairs (contract 4); GeoJSON wants [lng, lat]. */
export const toLngLatRing = (ring: ReadonlyArray<readonly [number, number]>): LngLat[] => ring.map(([lat, lng]) => [lng, lat]);
export const toLatLngRing = (ring: ReadonlyArray<ArrayLike<number>>): Array<[number, number]> => ring.map((p) => [p[1], p[0]]);

const frameOf = (b: BuildingGeometry) => ({ latitude: b.location.lat, longitude: b.location.lng, width: b.dimensions.width, length: b.dimensions.length, rotation: b.rotation });

/** A point of the map in floor metres (the building's plan frame, as POIs, paths and positions use). */
export function toFloorMetres(b: BuildingGeometry, lngLat: LngLat): { x: number; y: number } {
  const { x, y } = toCartesian(frameOf(b), { lat: lngLat[1], lng: lngLat[0] });
  return { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
}

export function fromFloorMetres(b: BuildingGeometry, x: number, y: number): LngLat {
  const g = toGeoreference(frameOf(b), { x, y });
  return [g.lng, g.lat];
}
