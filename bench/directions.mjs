// Scenario 22 (issue 40): the building of the directions target and the routes asked over it.
// A 10,000-node, 5-floor building: per floor a 50 × 40 lattice of corridors 3 m apart, and between
// every two floors 4 stairs, 4 lifts and 2 escalators (the router's micro-benchmark,
// bench/router.spec.ts, routes over the same building offline, from this module).
import { createRequire } from 'node:module';
import { join } from 'node:path';

const COLUMNS = 50;
const ROWS = 40;
const SPACING_M = 3;
const CORES = [
  [0, 0, 'stairs', false],
  [49, 0, 'stairs', false],
  [0, 39, 'stairs', false],
  [49, 39, 'stairs', false],
  [10, 20, 'elevator', true],
  [25, 5, 'elevator', true],
  [25, 35, 'elevator', true],
  [40, 20, 'elevator', true],
  [20, 20, 'escalator', false],
  [30, 20, 'escalator', false],
];

/** The building's floor plan in metres (the lattice and a margin). */
export const DIRECTIONS_BUILDING = { width: (COLUMNS - 1) * SPACING_M + 10, length: (ROWS - 1) * SPACING_M + 10 };

/** The paths body of `PUT /buildings/{id}/paths` over these floors (ids of the API, bottom floor first). */
export function directionsPaths(floorIds) {
  const nodes = [];
  const links = [];
  const id = (floor, i, j) => floor * 10_000 + i * 100 + j + 1;
  floorIds.forEach((floorId, floor) => {
    for (let i = 0; i < COLUMNS; i += 1) {
      for (let j = 0; j < ROWS; j += 1) {
        nodes.push({ id: id(floor, i, j), floor_id: floorId, x: i * SPACING_M, y: j * SPACING_M });
        if (i > 0) links.push({ source: id(floor, i - 1, j), target: id(floor, i, j), tags: (i + j) % 7 === 0 ? ['service'] : [] });
        if (j > 0) links.push({ source: id(floor, i, j - 1), target: id(floor, i, j), origin: i % 13 === 0 ? 'source' : 'both' });
      }
    }
  });
  for (let floor = 0; floor + 1 < floorIds.length; floor += 1) {
    for (const [i, j, connector, accessible] of CORES) links.push({ source: id(floor, i, j), target: id(floor + 1, i, j), connector, accessible });
  }
  return { nodes, links };
}

/** A seeded generator (a linear congruential one): the same routes in every run. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * `count` directions requests between random places on random floors: half the shortest, a quarter
 * accessible with the fewest floor changes, a quarter avoiding stairs and excluding a tag.
 */
export function directionsRequests(floorIds, count, seed = 40) {
  const random = seeded(seed);
  const place = () => ({
    floor_id: floorIds[Math.floor(random() * floorIds.length)],
    x: Number((random() * (COLUMNS - 1) * SPACING_M).toFixed(2)),
    y: Number((random() * (ROWS - 1) * SPACING_M).toFixed(2)),
  });
  return Array.from({ length: count }, (_, index) => {
    const body = { from: place(), to: place() };
    if (index % 4 === 1) return { ...body, accessibility_mode: 'ONLY_ACCESSIBLE', minimize_floor_changes: true };
    if (index % 4 === 3) return { ...body, avoid: ['stairs'], excluded_tags: ['service'] };
    return body;
  });
}

/**
 * The route's CPU time alone: the server's own router (the build in dist/) over the same graph and
 * requests, in this process, without HTTP, authentication, JSON or the database.
 */
export function routeCpu(root, floors, paths, requests) {
  const require = createRequire(import.meta.url);
  const { buildRouteGraph, route } = require(join(root, 'dist/src/cartography/paths/router/index.js'));
  const built = performance.now();
  const graph = buildRouteGraph(
    floors.map((floor) => ({ id: floor.id, level: floor.level, name: floor.name })),
    paths.nodes,
    paths.links,
  );
  const buildMs = performance.now() - built;
  const options = (request) => {
    const { from: _from, to: _to, ...rest } = request;
    return rest;
  };
  for (const request of requests.slice(0, 50)) route(graph, request.from, request.to, options(request));
  let routed = 0;
  const started = performance.now();
  for (const request of requests) if (route(graph, request.from, request.to, options(request)).ok) routed += 1;
  const microsPerRoute = ((performance.now() - started) * 1000) / requests.length;
  return { buildMs, microsPerRoute, routed, requests: requests.length };
}
