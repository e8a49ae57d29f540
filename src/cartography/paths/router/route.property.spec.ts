import fc from 'fast-check';
import { expect, it } from 'vitest';
import { CONNECTOR_TYPES, type ConnectorType } from './connectors';
import { buildRouteGraph, DEFAULT_ROUTE_SETTINGS, type RouteFloor, type RouteLink, type RouteNode, type RouteSettings } from './graph';
import { ACCESSIBILITY_MODES, floorLabel, route, type RouteOptions, type RoutePoint } from './route';
import { seededRandom as random } from '../../../../test/support/seeded-random';

interface Building {
  floors: RouteFloor[];
  nodes: RouteNode[];
  links: RouteLink[];
  /** The connector type each link was made as (null: a walk, or a link the graph leaves out). */
  types: Array<ConnectorType | null>;
  settings: RouteSettings;
}

const TAG_WORDS: Record<ConnectorType, string[]> = { stairs: ['Stairs', 'staircase'], elevator: ['lift', 'Elevator'], escalator: ['escalator'], ramp: ['Ramp'] };

/** 1 to 4 floors (levels with gaps) of a jittered lattice, random links, connectors between floors (some across two, some landing far across), bad links. */
function building(seed: number): Building {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const levels = [-1, 0, 1, 3, 4].filter(() => rnd() < 0.6);
  if (levels.length === 0) levels.push(0);
  const floors = levels.map((level, i) => ({ id: 10 + i, level, name: i % 2 ? `Level ${level}` : String(level) }));
  const width = 2 + Math.floor(rnd() * 3);
  const height = 2 + Math.floor(rnd() * 2);
  const nodes: RouteNode[] = [];
  const has = new Set<number>();
  const id = (f: number, i: number, j: number) => (f + 1) * 100 + i * 10 + j;
  floors.forEach((_, f) => {
    for (let i = 0; i < width; i += 1) {
      for (let j = 0; j < height; j += 1) {
        if (rnd() < 0.1) continue;
        has.add(id(f, i, j));
        nodes.push({ id: id(f, i, j), floor_id: floors[f].id, x: i * 10 + (rnd() - 0.5) * 4, y: j * 10 + (rnd() - 0.5) * 4 });
      }
    }
  });
  const links: RouteLink[] = [];
  const types: Array<ConnectorType | null> = [];
  const origin = (both: number) => (rnd() < both ? 'both' : rnd() < 0.5 ? 'source' : 'target');
  const tags = () => ['a', 'b', 'C'].filter(() => rnd() < 0.3);
  floors.forEach((_, f) => {
    for (let i = 0; i < width; i += 1) {
      for (let j = 0; j < height; j += 1) {
        for (const [di, dj, p] of [
          [1, 0, 0.75],
          [0, 1, 0.75],
          [1, 1, 0.25],
          [1, -1, 0.25],
        ]) {
          const a = id(f, i, j);
          const b = id(f, i + di, j + dj);
          if (!has.has(a) || !has.has(b) || rnd() >= p) continue;
          const [source, target] = rnd() < 0.5 ? [a, b] : [b, a];
          links.push({ source, target, origin: origin(0.7), tags: tags(), accessible: rnd() < 0.85 });
          types.push(null);
        }
      }
    }
  });
  for (let f = 0; f < floors.length; f += 1) {
    for (const step of [1, 2]) {
      if (f + step >= floors.length || (step === 2 && rnd() < 0.6)) continue;
      const count = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < count; k += 1) {
        const i = Math.floor(rnd() * width);
        const j = Math.floor(rnd() * height);
        const a = id(f, i, j);
        // Mostly straight up; some (a long ramp or escalator) land across the floor.
        const b = rnd() < 0.3 ? id(f + step, Math.floor(rnd() * width), Math.floor(rnd() * height)) : id(f + step, i, j);
        if (!has.has(a) || !has.has(b)) continue;
        let type = pick(CONNECTOR_TYPES);
        const accessible = rnd() < (type === 'stairs' ? 0.2 : 0.8);
        const link: RouteLink = { source: a, target: b, origin: origin(0.8), tags: tags(), accessible };
        const how = rnd();
        if (how < 0.33) link.connector = type;
        else if (how < 0.66) link.tags = [...(link.tags ?? []), pick(TAG_WORDS[type])];
        else type = accessible ? 'elevator' : 'stairs';
        if (rnd() < 0.5) [link.source, link.target, link.origin] = [b, a, link.origin === 'source' ? 'target' : link.origin === 'target' ? 'source' : 'both'];
        links.push(link);
        types.push(type);
      }
    }
  }
  if (rnd() < 0.3) {
    links.push({ source: nodes[0].id, target: 99_999 });
    types.push(null);
  }
  if (rnd() < 0.3) {
    links.push({ source: nodes[0].id, target: nodes[0].id, tags: ['stairs'] });
    types.push(null);
  }
  const settings: RouteSettings = {
    ...DEFAULT_ROUTE_SETTINGS,
    snap_distance_m: pick([3, 10, 30]),
    stairs_speed_factor: pick([0.5, 0.7, 1.5]),
    elevator_wait_s: pick([0, 30]),
    escalator_s_per_floor: pick([5, 20]),
    ramp_speed_factor: pick([0.8, 1, 2]),
  };
  // The floors in any order.
  floors.sort(() => rnd() - 0.5);
  return { floors, nodes, links, types, settings };
}

type Outcome = { cost: number; changes: number } | 'from' | 'to' | 'none';

/**
 * The plain Dijkstra the router must agree with, written from the documented rules over the
 * building as generated: states "node id / connector type arrived by", the open set scanned for
 * its least (changes, time), links scanned whole at every node, ends snapped by scanning every link.
 */
function reference(b: Building, from: RoutePoint, to: RoutePoint[], options: RouteOptions): Outcome {
  const s = b.settings;
  const node = new Map<number, RouteNode>();
  for (const n of b.nodes) if (!node.has(n.id)) node.set(n.id, n);
  const levels = [...new Set(b.floors.map((f) => f.level))].sort((x, y) => x - y);
  const rank = new Map(b.floors.map((f) => [f.id, levels.indexOf(f.level)]));
  const valid = b.links.map((l) => node.has(l.source) && node.has(l.target) && l.source !== l.target);
  const floorOf = (l: RouteLink) => node.get(l.source)!.floor_id;
  const isFloorLink = (l: RouteLink) => node.get(l.source)!.floor_id !== node.get(l.target)!.floor_id;
  const lower = (list: readonly string[]) => list.map((t) => t.toLowerCase());
  const allowed = (i: number) => {
    const l = b.links[i];
    const type = isFloorLink(l) ? b.types[i] : null;
    const accessible = l.accessible ?? true;
    const tags = lower(l.tags ?? []);
    if (options.accessibility_mode === 'ONLY_ACCESSIBLE' && !accessible) return false;
    if (options.accessibility_mode === 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES' && type !== null && accessible) return false;
    if (type !== null && options.exclude.includes(type)) return false;
    if (options.included_tags.length > 0 && !tags.some((t) => lower(options.included_tags).includes(t))) return false;
    if (tags.some((t) => lower(options.excluded_tags).includes(t))) return false;
    return true;
  };
  const forward = (l: RouteLink) => (l.origin ?? 'both') !== 'target';
  const backward = (l: RouteLink) => (l.origin ?? 'both') !== 'source';
  const length = (l: RouteLink) => Math.hypot(node.get(l.target)!.x - node.get(l.source)!.x, node.get(l.target)!.y - node.get(l.source)!.y);

  type Snap = { link: number; t: number; d: number } | { node: number; d: number };
  const snap = (p: RoutePoint): Snap | null => {
    let best: Snap | null = null;
    let bestD = s.snap_distance_m;
    b.links.forEach((l, i) => {
      if (!valid[i] || isFloorLink(l) || floorOf(l) !== p.floor_id || !allowed(i)) return;
      const a = node.get(l.source)!;
      const c = node.get(l.target)!;
      const len2 = (c.x - a.x) ** 2 + (c.y - a.y) ** 2;
      const t = Math.min(1, Math.max(0, ((p.x - a.x) * (c.x - a.x) + (p.y - a.y) * (c.y - a.y)) / len2));
      const d = Math.hypot(p.x - (a.x + t * (c.x - a.x)), p.y - (a.y + t * (c.y - a.y)));
      if (d < bestD || (d === bestD && best === null)) [best, bestD] = [{ link: i, t, d }, d];
    });
    for (const n of node.values()) {
      if (n.floor_id !== p.floor_id) continue;
      const incident = b.links.map((l, i) => i).filter((i) => valid[i] && (b.links[i].source === n.id || b.links[i].target === n.id));
      if (incident.some((i) => !isFloorLink(b.links[i]))) continue;
      if (!incident.some(allowed)) continue;
      const d = Math.hypot(p.x - n.x, p.y - n.y);
      if (d < bestD || (d === bestD && best === null)) [best, bestD] = [{ node: n.id, d }, d];
    }
    return best;
  };

  const start = snap(from);
  if (!start) return 'from';
  const ends = to.map(snap);
  if (ends.every((e) => e === null)) return 'to';
  const v = options.speed_m_s;
  const key = (id: number, arrived: string) => `${id}/${arrived}`;
  const best = new Map<string, [number, number]>();
  const open = new Set<string>();
  const better = (a: [number, number], c: [number, number] | undefined) => !c || a[0] < c[0] || (a[0] === c[0] && a[1] < c[1]);
  const offer = (k: string, cost: [number, number]) => {
    if (better(cost, best.get(k))) {
      best.set(k, cost);
      open.add(k);
    }
  };
  const near = 1e-9;
  if ('node' in start) offer(key(start.node, 'foot'), [0, start.d / v]);
  else {
    const l = b.links[start.link];
    if (start.t * length(l) <= near || backward(l)) offer(key(l.source, 'foot'), [0, (start.d + start.t * length(l)) / v]);
    if ((1 - start.t) * length(l) <= near || forward(l)) offer(key(l.target, 'foot'), [0, (start.d + (1 - start.t) * length(l)) / v]);
  }
  const exits = new Map<number, number>();
  const exit = (id: number, cost: number) => exits.set(id, Math.min(cost, exits.get(id) ?? Infinity));
  for (const end of ends) {
    if (!end) continue;
    if ('node' in end) {
      exit(end.node, end.d / v);
      continue;
    }
    const l = b.links[end.link];
    if (end.t * length(l) <= near || forward(l)) exit(l.source, (end.d + end.t * length(l)) / v);
    if ((1 - end.t) * length(l) <= near || backward(l)) exit(l.target, (end.d + (1 - end.t) * length(l)) / v);
    if (!('node' in start) && start.link === end.link) {
      const along = (end.t - start.t) * length(l);
      if (Math.abs(along) <= near || (along > 0 ? forward(l) : backward(l))) offer('end', [0, (start.d + Math.abs(along) + end.d) / v]);
    }
  }
  while (open.size > 0) {
    let k = '';
    for (const candidate of open) if (k === '' || better(best.get(candidate)!, best.get(k))) k = candidate;
    open.delete(k);
    const [changes, time] = best.get(k)!;
    if (k === 'end') return { cost: time, changes };
    const [idText, arrived] = k.split('/');
    const at = Number(idText);
    if (exits.has(at)) offer('end', [changes, time + exits.get(at)!]);
    b.links.forEach((l, i) => {
      if (!valid[i] || !allowed(i)) return;
      const next = l.source === at && forward(l) ? l.target : l.target === at && backward(l) ? l.source : null;
      if (next === null) return;
      if (!isFloorLink(l)) return offer(key(next, 'foot'), [changes, time + length(l) / v]);
      const type = b.types[i]!;
      const storeys = Math.max(1, Math.abs(rank.get(node.get(at)!.floor_id)! - rank.get(node.get(next)!.floor_id)!));
      const ride = arrived !== type;
      let t = {
        stairs: length(l) / (v * s.stairs_speed_factor) + storeys * s.stairs_s_per_floor,
        elevator: length(l) / v + storeys * s.elevator_s_per_floor + (ride ? s.elevator_wait_s : 0),
        escalator: length(l) / v + storeys * s.escalator_s_per_floor,
        ramp: length(l) / (v * s.ramp_speed_factor),
      }[type];
      if (options.avoid.includes(type)) t *= options.avoid_factor;
      offer(key(next, type), [changes + (options.minimize_floor_changes && ride ? 1 : 0), time + t]);
    });
  }
  return 'none';
}

const optionsArb = fc.record({
  accessibility_mode: fc.constantFrom(...ACCESSIBILITY_MODES),
  minimize_floor_changes: fc.boolean(),
  avoid: fc.subarray([...CONNECTOR_TYPES]),
  exclude: fc.oneof(fc.constant([]), fc.subarray([...CONNECTOR_TYPES], { maxLength: 2 })),
  avoid_factor: fc.constantFrom(0.5, 1, 3, 10),
  included_tags: fc.oneof(fc.constant([]), fc.constant([]), fc.subarray(['a', 'B', 'c', 'zzz'], { minLength: 1 })),
  excluded_tags: fc.oneof(fc.constant([]), fc.constant([]), fc.subarray(['A', 'b', 'c'], { minLength: 1 })),
  speed_m_s: fc.constantFrom(0.8, 1.2, 2),
});

/** A node's place exactly, or a random place near the lattice, on a floor of the building (or none). */
function place(b: Building, rnd: () => number): RoutePoint {
  if (rnd() < 0.6) {
    const n = b.nodes[Math.floor(rnd() * b.nodes.length)];
    return { floor_id: n.floor_id, x: n.x, y: n.y };
  }
  const floor = rnd() < 0.05 ? 999 : b.floors[Math.floor(rnd() * b.floors.length)].id;
  return { floor_id: floor, x: -5 + rnd() * 45, y: -5 + rnd() * 30 };
}

it('routes as a plain Dijkstra over the same graph and options, and keeps to every rule on the way', () => {
  let routed = 0;
  const outcomes = { from: 0, to: 0, none: 0 };
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), optionsArb, (seed, generated) => {
      const options: RouteOptions = generated;
      const b = building(seed);
      const graph = buildRouteGraph(b.floors, b.nodes, b.links, b.settings);
      const rnd = random(seed ^ 0x5bd1e995);
      for (let q = 0; q < 3; q += 1) {
        const from = place(b, rnd);
        const to = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => place(b, rnd));
        const expected = reference(b, from, to, options);
        const result = route(graph, from, to.length === 1 && rnd() < 0.5 ? to[0] : to, options);
        if (!result.ok) {
          const got = result.failure.code === 'no_route' ? 'none' : result.failure.end;
          expect(got).toBe(expected);
          outcomes[got] += 1;
          expect(result.failure.reason).not.toBe('');
          continue;
        }
        routed += 1;
        if (typeof expected === 'string') throw new Error(`the reference found ${expected}, the router a route of ${result.route.cost}`);
        const r = result.route;
        expect(Math.abs(r.cost - expected.cost)).toBeLessThanOrEqual(1e-7 * Math.max(1, expected.cost));
        if (options.minimize_floor_changes) expect(r.floor_changes).toBe(expected.changes);

        // Distance: the edges and the snap legs; the indications walk it all.
        const edges = r.edges.reduce((sum, e) => sum + e.distance, 0);
        expect(r.distance).toBeCloseTo(edges + r.snap_distance.from + r.snap_distance.to, 9);
        expect(r.indications.reduce((sum, i) => sum + i.distance, 0)).toBeCloseTo(r.distance, 9);
        if (options.avoid_factor >= 1) expect(r.duration).toBeLessThanOrEqual(r.cost + 1e-9);
        expect(r.indications[r.indications.length - 1].action).toBe('arrive');
        for (const i of r.indications) expect(i.text).not.toBe('');

        // The links used keep to the options.
        for (const e of r.edges) {
          const link = b.links[e.link];
          const source = b.nodes.find((n) => n.id === link.source)!;
          const target = b.nodes.find((n) => n.id === link.target)!;
          const type = source.floor_id === target.floor_id ? null : b.types[e.link];
          expect(e.connector).toBe(type);
          if (type !== null) expect(options.exclude).not.toContain(type);
          if (options.accessibility_mode === 'ONLY_ACCESSIBLE') expect(link.accessible).not.toBe(false);
          if (options.accessibility_mode === 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES' && type !== null) expect(link.accessible).toBe(false);
          const tags = (link.tags ?? []).map((t) => t.toLowerCase());
          if (options.included_tags.length > 0) expect(tags.some((t) => options.included_tags.map((x) => x.toLowerCase()).includes(t))).toBe(true);
          expect(tags.filter((t) => options.excluded_tags.map((x) => x.toLowerCase()).includes(t))).toEqual([]);
          // Between two nodes, walked its way.
          const [a, c] = [r.points[e.from], r.points[e.to]];
          const is = (p: RoutePoint, n: RouteNode) => p.floor_id === n.floor_id && p.x === n.x && p.y === n.y;
          if (is(a, source) && is(c, target)) expect(link.origin).not.toBe('target');
          if (is(a, target) && is(c, source)) expect(link.origin).not.toBe('source');
        }
        expect(r.avoided).toEqual(CONNECTOR_TYPES.filter((t) => options.avoid.includes(t) && r.edges.some((e) => e.connector === t)));

        // Every change_floor names the floor its ride ends on: the floor after the run of floor edges of its connector.
        const rides: number[] = [];
        r.edges.forEach((e, i) => {
          if (e.connector === null) return;
          if (i > 0 && r.edges[i - 1].connector === e.connector) rides[rides.length - 1] = r.points[e.to].floor_id;
          else rides.push(r.points[e.to].floor_id);
        });
        const changes = r.indications.filter((i) => i.action === 'change_floor');
        expect(changes.length).toBe(r.floor_changes);
        if (changes.length === rides.length) expect(changes.map((i) => i.next_floor_id)).toEqual(rides);
        for (const i of changes) {
          expect(i.next_floor_id).not.toBe(i.floor_id);
          expect(i.text).toContain(floorLabel(graph, i.next_floor_id!));
          expect(r.points[i.point].floor_id).toBe(i.floor_id);
        }
      }
    }),
    { seed: 40, numRuns: 400 },
  );
  // The runs reach every outcome.
  expect(routed).toBeGreaterThan(300);
  expect(outcomes.from).toBeGreaterThan(10);
  expect(outcomes.to).toBeGreaterThan(10);
  expect(outcomes.none).toBeGreaterThan(10);
});
