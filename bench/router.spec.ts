import { expect, it } from 'vitest';
import { buildRouteGraph, type RouteFloor, type RouteLink, type RouteNode } from '../src/cartography/paths/router/graph';
import { route, type RouteOptions, type RoutePoint } from '../src/cartography/paths/router/route';

/**
 * A micro-benchmark, printed and asserting nothing about time: the bench target's building (10,000
 * nodes on 5 floors: a 50 × 40 lattice of corridors 3 m apart per floor, 4 stairs, 4 lifts and 2
 * escalators between every two floors; bench/directions.mjs, scenario 22's), routes between random
 * places on random floors.
 */
async function bigBuilding() {
  const { directionsPaths } = (await import('./directions.mjs')) as {
    directionsPaths: (floorIds: number[]) => { nodes: RouteNode[]; links: RouteLink[] };
  };
  const floors: RouteFloor[] = [0, 1, 2, 3, 4].map((level) => ({ id: level + 1, level, name: String(level) }));
  return { floors, ...directionsPaths(floors.map((floor) => floor.id)) };
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

it('prints the time per route on a 10,000-node, 5-floor building', async () => {
  const { floors, nodes, links } = await bigBuilding();
  const built = performance.now();
  const graph = buildRouteGraph(floors, nodes, links);
  const buildMs = performance.now() - built;
  expect(graph.nodeCount).toBe(10_000);
  const rnd = seeded(40);
  const place = (): RoutePoint => ({ floor_id: 1 + Math.floor(rnd() * 5), x: rnd() * 147, y: rnd() * 117 });
  const pairs = Array.from({ length: 400 }, () => [place(), place()] as const);

  const first = performance.now();
  expect(route(graph, pairs[0][0], pairs[0][1]).ok).toBe(true);
  const firstMs = performance.now() - first;

  const time = (options: Partial<RouteOptions>, many = false) => {
    for (const [from, to] of pairs.slice(0, 50)) route(graph, from, many ? [to, place(), place(), place(), place()] : to, options);
    let routed = 0;
    const started = performance.now();
    for (const [from, to] of pairs) if (route(graph, from, many ? [to, pairs[0][0], pairs[1][1], pairs[2][0], pairs[3][1]] : to, options).ok) routed += 1;
    const perRoute = ((performance.now() - started) * 1000) / pairs.length;
    expect(routed).toBeGreaterThan(0);
    return `${perRoute.toFixed(0)} µs`;
  };
  const lines = [
    `build ${buildMs.toFixed(1)} ms, first route after it ${firstMs.toFixed(2)} ms`,
    `shortest ${time({})}`,
    `ONLY_ACCESSIBLE + minimize_floor_changes ${time({ accessibility_mode: 'ONLY_ACCESSIBLE', minimize_floor_changes: true })}`,
    `avoid stairs + excluded_tags ${time({ avoid: ['stairs'], excluded_tags: ['service'] })}`,
    `nearest of 5 destinations ${time({}, true)}`,
  ];
  console.log(`router micro-benchmark (10,000 nodes, 5 floors, per route):\n  ${lines.join('\n  ')}`);
});
