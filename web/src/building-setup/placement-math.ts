/**
 * Placing a building's rectangle (and so its floor plans) on the map: moving it, dragging a
 * corner, turning it, or fitting two anchor points of the plan to two points of the map. In
 * local metres east and north of a reference point (exact enough over a building).
 */
import { type BuildingFrame, buildingCorners, toCartesian, toGeoreference } from '../../../src/common/geometry/cartesian';

export interface Placement {
  lat: number;
  lng: number;
  width: number;
  length: number;
  /** Radians, counter-clockwise from east (the API's). */
  rotation: number;
}

type Vec = [number, number];
const MIN_SIDE_M = 1;

// The server's building frame, so the plan placed here lands where the API puts it (longitudes wrapped at ±180°).
const frameOf = (p: Placement): BuildingFrame => ({ latitude: p.lat, longitude: p.lng, width: p.width, length: p.length, rotation: p.rotation });
// Local metres east and north of a point: the frame of an unturned building of no size there.
const pointFrame = (origin: { lat: number; lng: number }): BuildingFrame => ({ latitude: origin.lat, longitude: origin.lng, width: 0, length: 0, rotation: 0 });

export function toLocal(origin: { lat: number; lng: number }, lngLat: Vec): Vec {
  const { x, y } = toCartesian(pointFrame(origin), { lat: lngLat[1], lng: lngLat[0] });
  return [x, y];
}

export function fromLocal(origin: { lat: number; lng: number }, [east, north]: Vec): Vec {
  const { lat, lng } = toGeoreference(pointFrame(origin), { x: east, y: north });
  return [lng, lat];
}

const axes = (rotation: number): [Vec, Vec] => [
  [Math.cos(rotation), Math.sin(rotation)],
  [-Math.sin(rotation), Math.cos(rotation)],
];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1];

/** A point of the plan frame (x along the width from the left edge, y along the length from the bottom) on the map. */
export function planPoint(p: Placement, x: number, y: number): Vec {
  const { lat, lng } = toGeoreference(frameOf(p), { x, y });
  return [lng, lat];
}

/** The corners in plan order (0,0), (w,0), (w,l), (0,l). */
export const corners = (p: Placement): Vec[] => buildingCorners(frameOf(p)).map(({ lat, lng }): Vec => [lng, lat]);

/** Corner `index` dragged to `to`: the opposite corner stays, the rotation too; the sides follow. */
export function dragCorner(p: Placement, index: number, to: Vec): Placement {
  const opposite = corners(p)[(index + 2) % 4];
  const [ax, ay] = axes(p.rotation);
  const d = toLocal({ lat: opposite[1], lng: opposite[0] }, to);
  const along = dot(d, ax);
  const across = dot(d, ay);
  const width = Math.max(MIN_SIDE_M, Math.abs(along));
  const length = Math.max(MIN_SIDE_M, Math.abs(across));
  const sx = Math.sign(along) || 1;
  const sy = Math.sign(across) || 1;
  const half: Vec = [(sx * width * ax[0] + sy * length * ay[0]) / 2, (sx * width * ax[1] + sy * length * ay[1]) / 2];
  const [lng, lat] = fromLocal({ lat: opposite[1], lng: opposite[0] }, half);
  return { ...p, lat, lng, width: round(width), length: round(length) };
}

/** The turning handle: beyond the middle of the top edge. */
export const rotationHandle = (p: Placement): Vec => planPoint(p, p.width / 2, p.length + Math.max(3, p.length * 0.15));

/** The turning handle dragged to `to`: the plan's "up" points at it. */
export function dragRotation(p: Placement, to: Vec): Placement {
  const [east, north] = toLocal(p, to);
  return { ...p, rotation: normalize(Math.atan2(north, east) - Math.PI / 2) };
}

/**
 * Two points of the plan image (fractions of its width from the left and height from the top)
 * matched to two points of the map: scale, rotation and place follow; the image keeps its shape.
 */
export function fitAnchors(image: { width: number; height: number }, planA: Vec, planB: Vec, mapA: Vec, mapB: Vec): Placement | null {
  const pa: Vec = [planA[0] * image.width, (1 - planA[1]) * image.height];
  const pb: Vec = [planB[0] * image.width, (1 - planB[1]) * image.height];
  const origin = { lat: mapA[1], lng: mapA[0] };
  const b = toLocal(origin, mapB);
  const planLength = Math.hypot(pb[0] - pa[0], pb[1] - pa[1]);
  const mapLength = Math.hypot(b[0], b[1]);
  if (planLength < 1e-9 || mapLength < 0.01) return null;
  const scale = mapLength / planLength;
  const rotation = normalize(Math.atan2(b[1], b[0]) - Math.atan2(pb[1] - pa[1], pb[0] - pa[0]));
  const width = image.width * scale;
  const length = image.height * scale;
  // A = centre + R(rotation) · (a − (w/2, l/2)) in metres, so the centre is A minus that.
  const [ax, ay] = axes(rotation);
  const u = pa[0] * scale - width / 2;
  const v = pa[1] * scale - length / 2;
  const [lng, lat] = fromLocal(origin, [-(u * ax[0] + v * ay[0]), -(u * ax[1] + v * ay[1])]);
  return { lat, lng, width: round(width), length: round(length), rotation };
}

const round = (n: number) => Math.round(n * 100) / 100;
const normalize = (r: number) => Math.atan2(Math.sin(r), Math.cos(r));
