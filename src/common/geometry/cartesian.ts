/**
 * Converts between geographic coordinates and a building's floor-plan coordinates.
 *
 * The floor plan is the building's rectangle (`dimensions.width` x `dimensions.length`
 * metres) centred on `location` and turned by `rotation` (radians, counter-clockwise from
 * east). Cartesian `x` runs along the width and `y` along the length, in metres from the
 * rectangle's corner, so the centre is (width/2, length/2). Over a building's extent a local
 * equirectangular projection is exact to well under a millimetre.
 */
export interface BuildingFrame {
  latitude: number;
  longitude: number;
  width: number;
  length: number;
  rotation: number;
}

export interface Georeference {
  lat: number;
  lng: number;
}

export interface Cartesian {
  x: number;
  y: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const METRES_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_M;

function metresPerDegreeLongitude(latitude: number): number {
  return METRES_PER_DEGREE * Math.cos((latitude * Math.PI) / 180);
}

/** A longitude difference or value brought into [-180, 180): buildings may straddle the antimeridian. */
function wrapLongitude(degrees: number): number {
  return ((((degrees + 180) % 360) + 360) % 360) - 180;
}

export function toCartesian(frame: BuildingFrame, point: Georeference): Cartesian {
  const east = wrapLongitude(point.lng - frame.longitude) * metresPerDegreeLongitude(frame.latitude);
  const north = (point.lat - frame.latitude) * METRES_PER_DEGREE;
  const cos = Math.cos(frame.rotation);
  const sin = Math.sin(frame.rotation);
  return {
    x: east * cos + north * sin + frame.width / 2,
    y: -east * sin + north * cos + frame.length / 2,
  };
}

export function toGeoreference(frame: BuildingFrame, point: Cartesian): Georeference {
  const u = point.x - frame.width / 2;
  const v = point.y - frame.length / 2;
  const cos = Math.cos(frame.rotation);
  const sin = Math.sin(frame.rotation);
  const east = u * cos - v * sin;
  const north = u * sin + v * cos;
  return {
    lat: frame.latitude + north / METRES_PER_DEGREE,
    lng: wrapLongitude(frame.longitude + east / metresPerDegreeLongitude(frame.latitude)),
  };
}

/**
 * The building rectangle's four corners, in floor-plan order: (0, 0), (width, 0),
 * (width, length), (0, length), i.e. counter-clockwise seen from above.
 */
export function buildingCorners(frame: BuildingFrame): Georeference[] {
  return [
    { x: 0, y: 0 },
    { x: frame.width, y: 0 },
    { x: frame.width, y: frame.length },
    { x: 0, y: frame.length },
  ].map((corner) => toGeoreference(frame, corner));
}

/** The range sent cartesians are held to (metres from the floor plan's corner); derived ones too. */
export const MAX_CARTESIAN_METRES = 100_000;

/**
 * Why a georeference derived from cartesians cannot be stored, or null when it can: a point
 * far enough north or south of its building lands beyond a pole (issue 9: x 100,000 in a
 * building at 89.9999° gave latitude 90.899). Longitudes come out of toGeoreference wrapped.
 */
export function derivedGeoreferenceProblem(point: Georeference): string | null {
  if (!Number.isFinite(point.lat) || !Number.isFinite(point.lng)) return 'these cartesians give no finite latitude and longitude in this building';
  if (point.lat < -90 || point.lat > 90) return `these cartesians give latitude ${point.lat}, beyond the poles (-90 to 90)`;
  if (point.lng < -180 || point.lng > 180) return `these cartesians give longitude ${point.lng}, outside -180 to 180`;
  return null;
}

/** Why cartesians derived from a georeference cannot be stored, or null when they can. */
export function derivedCartesianProblem(point: Cartesian): string | null {
  if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) return 'this georeference gives no finite x and y in this building';
  if (Math.abs(point.x) > MAX_CARTESIAN_METRES || Math.abs(point.y) > MAX_CARTESIAN_METRES) {
    return `this georeference is more than ${MAX_CARTESIAN_METRES} m from the building's floor plan (x ${point.x}, y ${point.y})`;
  }
  return null;
}

/** How far from its building's centre floor metres may place a position: 1 km, or ten times the building's diagonal. */
export function plausibleFloorDistance(frame: Pick<BuildingFrame, 'width' | 'length'>): number {
  return Math.max(1000, 10 * Math.hypot(frame.width, frame.length));
}

/**
 * Why floor metres cannot be a position in this building, or null when they can: farther from
 * the building than plausibleFloorDistance (a unit or frame mistake, not a place on its floor),
 * or converting to a latitude beyond a pole.
 */
export function floorPointProblem(frame: BuildingFrame, point: Cartesian): string | null {
  const distance = Math.hypot(point.x - frame.width / 2, point.y - frame.length / 2);
  const limit = plausibleFloorDistance(frame);
  if (!(distance <= limit)) {
    return `x and y are ${Math.round(distance)} m from the building's centre; a position on its floors is at most ${Math.round(limit)} m from it`;
  }
  return derivedGeoreferenceProblem(toGeoreference(frame, point));
}
