import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildingCorners, BuildingFrame, Cartesian, floorPointProblem, Georeference, plausibleFloorDistance, toCartesian, toGeoreference } from './cartesian';

// ---------------------------------------------------------------------------------------
// An independent model of the Earth: a sphere of the IUGG mean radius, with the usual
// great-circle formulas. The module is checked against it, never against itself.
// ---------------------------------------------------------------------------------------

const EARTH_RADIUS_M = 6_371_008.8;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
const toDegrees = (radians: number) => (radians * 180) / Math.PI;

/** Great-circle distance in metres (haversine). */
function haversine(p: Georeference, q: Georeference): number {
  const phi1 = toRadians(p.lat);
  const phi2 = toRadians(q.lat);
  const dPhi = phi2 - phi1;
  const dLambda = toRadians(q.lng - p.lng);
  const h = Math.sin(dPhi / 2) ** 2 + Math.cos(phi1) * Math.cos(phi2) * Math.sin(dLambda / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point `distance` metres from `from` along the initial bearing (radians clockwise from north). */
function destination(from: Georeference, bearing: number, distance: number): Georeference {
  const delta = distance / EARTH_RADIUS_M;
  const phi1 = toRadians(from.lat);
  const lambda1 = toRadians(from.lng);
  const phi2 = Math.asin(Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(bearing));
  const lambda2 = lambda1 + Math.atan2(Math.sin(bearing) * Math.sin(delta) * Math.cos(phi1), Math.cos(delta) - Math.sin(phi1) * Math.sin(phi2));
  return { lat: toDegrees(phi2), lng: normalizeLongitude(toDegrees(lambda2)) };
}

/** A longitude in [-180, 180]. */
const normalizeLongitude = (lng: number): number => ((((lng + 180) % 360) + 360) % 360) - 180;

/** Runs of the heavier properties; CARTESIAN_RUNS=100000 for a deep check (with --testTimeout). */
const RUNS = Number(process.env.CARTESIAN_RUNS ?? 2000);

const EAST = Math.PI / 2;
const NORTH = 0;

const euclidean = (p: Cartesian, q: Cartesian) => Math.hypot(p.x - q.x, p.y - q.y);

/** Smallest difference between two longitudes, across the antimeridian if shorter. */
const longitudeGap = (a: number, b: number) => {
  const gap = Math.abs(a - b) % 360;
  return Math.min(gap, 360 - gap);
};

// ---------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------

const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** Buildings anywhere within latitude ±80 (away from the antimeridian: see its own test), any rotation, up to 2 km a side. */
const frames = fc.record({
  latitude: finite(-80, 80),
  longitude: finite(-179, 179),
  width: finite(0.5, 2000),
  length: finite(0.5, 2000),
  rotation: finite(-4 * Math.PI, 4 * Math.PI),
});

/** A cartesian point on the floor plan or up to one plan-size beyond its edges. */
const cartesianIn = (frame: BuildingFrame) => fc.record({ x: finite(-frame.width, 2 * frame.width), y: finite(-frame.length, 2 * frame.length) });

/** A cartesian point within `radius` metres of the building centre. */
const cartesianNear = (frame: BuildingFrame, radius: number) =>
  fc
    .record({ angle: finite(0, 2 * Math.PI), distance: finite(0, radius) })
    .map(({ angle, distance }) => ({ x: frame.width / 2 + distance * Math.cos(angle), y: frame.length / 2 + distance * Math.sin(angle) }));

/** A georeference within `radius` metres of the building's location. */
const georeferenceNear = (frame: BuildingFrame, radius: number) =>
  fc
    .record({ bearing: finite(0, 2 * Math.PI), distance: finite(0, radius) })
    .map(({ bearing, distance }) => destination({ lat: frame.latitude, lng: frame.longitude }, bearing, distance));

const centreOf = (frame: BuildingFrame): Georeference => ({ lat: frame.latitude, lng: frame.longitude });

const frame = (overrides: Partial<BuildingFrame> = {}): BuildingFrame => ({
  latitude: 42.8723597,
  longitude: -8.5633224,
  width: 120.5,
  length: 80,
  rotation: 0,
  ...overrides,
});

// ---------------------------------------------------------------------------------------

describe('cartesian <-> georeference conversion', () => {
  describe('round trips', () => {
    it('georeference -> cartesian -> georeference returns the same point within 1e-9 degrees', () => {
      fc.assert(
        fc.property(
          frames.chain((building) => fc.tuple(fc.constant(building), georeferenceNear(building, 2000))),
          ([building, point]) => {
            const back = toGeoreference(building, toCartesian(building, point));
            expect(Math.abs(back.lat - point.lat)).toBeLessThanOrEqual(1e-9);
            expect(longitudeGap(back.lng, point.lng)).toBeLessThanOrEqual(1e-9);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('cartesian -> georeference -> cartesian returns the same point within 1e-6 m', () => {
      fc.assert(
        fc.property(
          frames.chain((building) => fc.tuple(fc.constant(building), cartesianIn(building))),
          ([building, point]) => {
            const back = toCartesian(building, toGeoreference(building, point));
            expect(Math.abs(back.x - point.x)).toBeLessThanOrEqual(1e-6);
            expect(Math.abs(back.y - point.y)).toBeLessThanOrEqual(1e-6);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('a cartesian point maps to a valid georeference (latitude in [-90, 90], longitude in [-180, 180])', () => {
      fc.assert(
        fc.property(
          frames.chain((building) => fc.tuple(fc.constant(building), cartesianIn(building))),
          ([building, point]) => {
            const { lat, lng } = toGeoreference(building, point);
            expect(Number.isFinite(lat) && Number.isFinite(lng)).toBe(true);
            expect(Math.abs(lat)).toBeLessThanOrEqual(90);
            expect(Math.abs(lng)).toBeLessThanOrEqual(180);
          },
        ),
        { numRuns: 500 },
      );
    });
  });

  describe('the building frame', () => {
    it('the building centre maps to (width/2, length/2), and back', () => {
      fc.assert(
        fc.property(frames, (building) => {
          const centre = toCartesian(building, centreOf(building));
          expect(centre.x).toBeCloseTo(building.width / 2, 9);
          expect(centre.y).toBeCloseTo(building.length / 2, 9);
          const back = toGeoreference(building, { x: building.width / 2, y: building.length / 2 });
          expect(Math.abs(back.lat - building.latitude)).toBeLessThanOrEqual(1e-12);
          expect(Math.abs(back.lng - building.longitude)).toBeLessThanOrEqual(1e-12);
        }),
      );
    });

    it('with rotation 0, 10 m east of the centre is x = width/2 + 10, y = length/2 (±0.01 m), anywhere within latitude ±80', () => {
      fc.assert(
        fc.property(
          frames.map((building) => ({ ...building, rotation: 0 })),
          (building) => {
            const east = toCartesian(building, destination(centreOf(building), EAST, 10));
            expect(Math.abs(east.x - (building.width / 2 + 10))).toBeLessThanOrEqual(0.01);
            expect(Math.abs(east.y - building.length / 2)).toBeLessThanOrEqual(0.01);
          },
        ),
      );
    });

    it('with rotation 0 the axes point east (x) and north (y); west and south are the negative sides', () => {
      const building = frame({ rotation: 0 });
      const centre = centreOf(building);
      const cases: Array<[number, number, number]> = [
        [NORTH, 0, 10],
        [Math.PI, 0, -10],
        [-EAST, -10, 0],
      ];
      for (const [bearing, dx, dy] of cases) {
        const point = toCartesian(building, destination(centre, bearing, 10));
        expect(point.x).toBeCloseTo(building.width / 2 + dx, 2);
        expect(point.y).toBeCloseTo(building.length / 2 + dy, 2);
      }
    });

    it('with rotation π/2 (counter-clockwise from east) the axes turn with it: x points north and y west', () => {
      const building = frame({ rotation: Math.PI / 2 });
      const centre = centreOf(building);
      const north = toCartesian(building, destination(centre, NORTH, 10));
      expect(north.x).toBeCloseTo(building.width / 2 + 10, 2);
      expect(north.y).toBeCloseTo(building.length / 2, 2);
      const east = toCartesian(building, destination(centre, EAST, 10));
      expect(east.x).toBeCloseTo(building.width / 2, 2);
      expect(east.y).toBeCloseTo(building.length / 2 - 10, 2);
      const west = toCartesian(building, destination(centre, -EAST, 10));
      expect(west.y).toBeCloseTo(building.length / 2 + 10, 2);
    });

    it('any rotation turns the frame rigidly: the point 10 m along bearing β lies 10 m from the centre at angle (π/2 - β) - rotation', () => {
      fc.assert(
        fc.property(frames, finite(0, 2 * Math.PI), (building, bearing) => {
          const point = toCartesian(building, destination(centreOf(building), bearing, 10));
          const u = point.x - building.width / 2;
          const v = point.y - building.length / 2;
          const angle = Math.PI / 2 - bearing - building.rotation;
          expect(Math.abs(u - 10 * Math.cos(angle))).toBeLessThanOrEqual(0.01);
          expect(Math.abs(v - 10 * Math.sin(angle))).toBeLessThanOrEqual(0.01);
        }),
      );
    });

    it('rotations a full turn apart give the same conversion', () => {
      fc.assert(
        fc.property(frames, fc.integer({ min: -3, max: 3 }), (building, turns) => {
          const turned = { ...building, rotation: building.rotation + turns * 2 * Math.PI };
          const point = { x: building.width / 3, y: building.length / 4 };
          const a = toGeoreference(building, point);
          const b = toGeoreference(turned, point);
          expect(Math.abs(a.lat - b.lat)).toBeLessThanOrEqual(1e-9);
          expect(Math.abs(a.lng - b.lng)).toBeLessThanOrEqual(1e-9);
        }),
      );
    });
  });

  describe('distances', () => {
    it('the Euclidean distance between two cartesian points equals the haversine distance of their georeferences within 0.1 % (points within 1 km)', () => {
      fc.assert(
        fc.property(
          frames.chain((building) => fc.tuple(fc.constant(building), georeferenceNear(building, 1000), georeferenceNear(building, 1000))),
          ([building, p, q]) => {
            const onSphere = haversine(p, q);
            fc.pre(onSphere > 0.01);
            const onPlan = euclidean(toCartesian(building, p), toCartesian(building, q));
            expect(Math.abs(onPlan - onSphere) / onSphere).toBeLessThanOrEqual(0.001);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('distances measured on the plan are the distances on the ground (cartesian -> georeference, points within 1 km)', () => {
      fc.assert(
        fc.property(
          frames.chain((building) => fc.tuple(fc.constant(building), cartesianNear(building, 1000), cartesianNear(building, 1000))),
          ([building, p, q]) => {
            const onPlan = euclidean(p, q);
            fc.pre(onPlan > 0.01);
            const onSphere = haversine(toGeoreference(building, p), toGeoreference(building, q));
            expect(Math.abs(onPlan - onSphere) / onPlan).toBeLessThanOrEqual(0.001);
          },
        ),
        { numRuns: RUNS },
      );
    });
  });

  describe('near the antimeridian', () => {
    const building = frame({ latitude: -16.8, longitude: 179.9995, width: 400, length: 300, rotation: 0.3 });

    it('a point across the ±180° line (valid longitude -179.999…) is a nearby cartesian point', () => {
      const across = destination(centreOf(building), EAST, 100);
      expect(across.lng).toBeLessThan(0); // normalized: on the other side of the line
      const point = toCartesian(building, across);
      const centre = { x: building.width / 2, y: building.length / 2 };
      expect(euclidean(point, centre)).toBeCloseTo(100, 1);
    });

    it('a cartesian point across the line maps to a longitude within [-180, 180] and back', () => {
      const point = { x: building.width, y: building.length / 2 };
      const georeference = toGeoreference(building, point);
      expect(Math.abs(georeference.lng)).toBeLessThanOrEqual(180);
      const back = toCartesian(building, georeference);
      expect(back.x).toBeCloseTo(point.x, 6);
      expect(back.y).toBeCloseTo(point.y, 6);
    });
  });
});

describe('buildingCorners', () => {
  it('gives the four corners of the rectangle: sides of width and length, diagonals through the centre', () => {
    fc.assert(
      fc.property(frames, (building) => {
        const corners = buildingCorners(building);
        expect(corners).toHaveLength(4);
        const [a, b, c, d] = corners;
        // 1 cm, plus the local projection's known error: a side along a parallel at a corner's latitude
        // is scaled with the centre's cosine, off by about size * size * tan(latitude) / (2 R) (a margin of 2 here).
        const size = Math.max(building.width, building.length);
        const tolerance = 0.01 + (size * size * Math.abs(Math.tan(toRadians(building.latitude)))) / EARTH_RADIUS_M;
        expect(Math.abs(haversine(a, b) - building.width)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(haversine(b, c) - building.length)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(haversine(c, d) - building.width)).toBeLessThanOrEqual(tolerance);
        expect(Math.abs(haversine(d, a) - building.length)).toBeLessThanOrEqual(tolerance);
        const half = Math.hypot(building.width, building.length) / 2;
        for (const corner of corners) expect(Math.abs(haversine(centreOf(building), corner) - half)).toBeLessThanOrEqual(tolerance);
      }),
    );
  });

  it('with rotation 0 runs south-west, south-east, north-east, north-west', () => {
    const building: BuildingFrame = { latitude: 42.8723597, longitude: -8.5633224, width: 40, length: 20, rotation: 0 };
    const centre = centreOf(building);
    const expected = [
      destination(destination(centre, Math.PI, 10), -EAST, 20),
      destination(destination(centre, Math.PI, 10), EAST, 20),
      destination(destination(centre, NORTH, 10), EAST, 20),
      destination(destination(centre, NORTH, 10), -EAST, 20),
    ];
    buildingCorners(building).forEach((corner, index) => expect(haversine(corner, expected[index])).toBeLessThanOrEqual(0.01));
  });

  it('turns counter-clockwise with the rotation: a quarter turn puts the first corner south-east of the centre', () => {
    const building: BuildingFrame = { latitude: 10, longitude: 20, width: 30, length: 30, rotation: Math.PI / 2 };
    const [first] = buildingCorners(building);
    expect(first.lat).toBeLessThan(building.latitude);
    expect(first.lng).toBeGreaterThan(building.longitude);
  });
});

describe('floorPointProblem', () => {
  const frame = { latitude: 42.87, longitude: -8.56, width: 120, length: 80, rotation: 0.3 };
  it('allows floor metres within max(1 km, 10 × the diagonal) of the centre, refuses those beyond', () => {
    expect(plausibleFloorDistance(frame)).toBeCloseTo(10 * Math.hypot(120, 80));
    expect(plausibleFloorDistance({ width: 10, length: 10 })).toBe(1000);
    expect(floorPointProblem(frame, { x: 60, y: 40 })).toBeNull();
    expect(floorPointProblem(frame, { x: 60 + 1400, y: 40 })).toBeNull();
    expect(floorPointProblem(frame, { x: 60, y: 40 + 1500 })).toMatch(/at most 1442 m/);
    expect(floorPointProblem(frame, { x: Number.NaN, y: 0 })).toMatch(/at most/);
  });

  it('refuses floor metres that land beyond a pole', () => {
    const polar = { latitude: 89.999, longitude: 179.999, width: 20, length: 20, rotation: 0 };
    expect(floorPointProblem(polar, { x: 10, y: 10 })).toBeNull();
    expect(floorPointProblem(polar, { x: 10, y: 900 })).toMatch(/beyond the poles/);
    expect(floorPointProblem(polar, { x: 1_000_000, y: 1_000_000 })).toMatch(/at most 1000 m/);
  });
});
