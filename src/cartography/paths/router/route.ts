/**
 * A route over a building's routing graph (graph.ts; issue 40, its wire section): from a point to a
 * point or to the cheapest of several (the nearest POI of a category), under the request's options.
 *
 * - **Snapping**: each end snaps to the nearest point on the nearest usable link of its floor (a
 *   link the options allow; a node with no walk link snaps as a point when one of its floor links is
 *   usable) within the building's `snap_distance_m`; farther, the route fails naming that end.
 *   Start and end may snap onto one link: the route may walk along it, in a direction it allows.
 * - **Cost**: the route minimises time (graph.ts: walks at the request's speed, floor changes by
 *   their type, a lift's wait once per ride), the snap legs included; `avoid` multiplies the time of
 *   the links of those connector types by `avoid_factor`. With `minimize_floor_changes` it minimises
 *   the number of rides first and time second (lexicographic). One search from the start to every
 *   candidate end at once (a multi-target Dijkstra, guided as an A* towards the nearest of up to 8
 *   candidates by a consistent lower bound of the time left) over states "node, and the connector
 *   type of the floor link it was reached by, if any", so a ride across several floors is one change
 *   and waits once.
 * - **Filters** (never used, whatever the cost): `exclude` (connector types), ONLY_ACCESSIBLE (any
 *   link with accessible false), ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES (any floor link with accessible
 *   true: a lift or ramp), `included_tags` (when not empty, a link carrying none of them) and
 *   `excluded_tags` (a link carrying one). Tags match case-insensitively.
 * - **The answer**: `distance` is metres walked, the snap legs included (a floor link counts its
 *   horizontal length); `duration` the seconds it takes (no avoid factor); `cost` what was minimised.
 *   Points are in the building frame's x/y: the caller adds lat/lng (toGeoreference), for the points
 *   and for `lines`, the coordinates of each floor's part of the route (GeoJSON LineStrings).
 * The search keeps its buffers per graph and reuses them: route() is synchronous, so calls never
 * interleave.
 */
import { CONNECTOR_TYPES, type ConnectorType } from './connectors';
import { AT_NODE_M, connectorBit, LINK_ACCESSIBLE_FLOOR, LINK_FLOOR, LINK_NOT_ACCESSIBLE, RouteGraph, segmentDistance2, WAY_BACKWARD, WAY_FORWARD } from './graph';
import { StateHeap } from './heap';
import { buildIndications, type FloorNaming, type RouteIndication } from './indications';

export const ACCESSIBILITY_MODES = ['CHOOSE_SHORTEST', 'ONLY_ACCESSIBLE', 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES'] as const;
export type AccessibilityMode = (typeof ACCESSIBILITY_MODES)[number];

export interface RouteOptions {
  accessibility_mode: AccessibilityMode;
  minimize_floor_changes: boolean;
  /** Connector types whose links cost avoid_factor times their time. */
  avoid: readonly ConnectorType[];
  /** Connector types never used. */
  exclude: readonly ConnectorType[];
  avoid_factor: number;
  included_tags: readonly string[];
  excluded_tags: readonly string[];
  /** Walking speed, metres per second. */
  speed_m_s: number;
}

export const DEFAULT_ROUTE_OPTIONS: Readonly<RouteOptions> = Object.freeze({
  accessibility_mode: 'CHOOSE_SHORTEST',
  minimize_floor_changes: false,
  avoid: [],
  exclude: [],
  avoid_factor: 10,
  included_tags: [],
  excluded_tags: [],
  speed_m_s: 1.2,
});

/** A place on a floor, in the building frame's metres. */
export interface RoutePoint {
  floor_id: number;
  x: number;
  y: number;
}

export interface RouteEdge {
  /** Indices into the route's points. */
  from: number;
  to: number;
  /** Metres (horizontal, for a floor link). */
  distance: number;
  /** The floor it starts on. */
  floor_id: number;
  /** The connector of a floor link; null on a walk within a floor. */
  connector: ConnectorType | null;
  /** The index of the link walked in the links the graph was built from. */
  link: number;
  /** Seconds it takes (a ride's wait on the edge that starts it); the snap legs are on no edge. */
  duration: number;
}

export interface RouteSegment {
  floor_id: number;
  points: RoutePoint[];
}

/** A floor's part of the route as line coordinates ([x, y]), at least two. */
export interface RouteLine {
  floor_id: number;
  coordinates: Array<[number, number]>;
}

export interface Route {
  /** Metres walked, the snap legs included. */
  distance: number;
  /** Seconds, at the request's speed, floor changes and waits included. */
  duration: number;
  /** What the route minimises: seconds, with avoided connectors' time multiplied by avoid_factor. */
  cost: number;
  /** Rides between floors (one ride across several floors is one). */
  floor_changes: number;
  /** The snapped start and end. */
  from: RoutePoint;
  to: RoutePoint;
  /** The index of the destination reached among those given (0 for a single one). */
  target: number;
  /** The snap legs: metres from each given point to where it snapped. */
  snap_distance: { from: number; to: number };
  points: RoutePoint[];
  edges: RouteEdge[];
  /** One per consecutive run of points on a floor (a floor only passed through in a ride has none). */
  segments: RouteSegment[];
  indications: RouteIndication[];
  /** The avoided connector types the route still uses. */
  avoided: ConnectorType[];
  /** The segments of two points or more as line coordinates. */
  lines: RouteLine[];
}

export type RouteEnd = 'from' | 'to';

export type RouteFailure =
  { code: 'end_unreachable'; end: RouteEnd; floor_id: number; reason: string } | { code: 'no_route'; from_floor_id: number; to_floor_id: number; reason: string };

export type RouteResult = { ok: true; route: Route } | { ok: false; failure: RouteFailure };

/** States per node: 0 reached on foot (or the start), 1 + c reached by a floor link of connector type c. */
const STATES = 1 + CONNECTOR_TYPES.length;
/** Up to this many candidate ends the search is an A* towards the nearest (more: a Dijkstra). */
const MAX_GOALS = 8;

class Scratch {
  generation = 0;
  readonly stamp: Uint32Array;
  readonly settled: Uint32Array;
  readonly first: Float64Array;
  readonly second: Float64Array;
  readonly prevState: Int32Array;
  readonly prevLink: Int32Array;
  readonly exitStamp: Uint32Array;
  readonly exitCost: Float64Array;
  readonly exitTarget: Int32Array;
  readonly tagBlocked: Uint8Array;
  readonly heap = new StateHeap();

  constructor(nodes: number, links: number) {
    // One more state: the end, reached from the exits of the candidate destinations.
    const states = nodes * STATES + 1;
    this.stamp = new Uint32Array(states);
    this.settled = new Uint32Array(states);
    this.first = new Float64Array(states);
    this.second = new Float64Array(states);
    this.prevState = new Int32Array(states);
    this.prevLink = new Int32Array(states);
    this.exitStamp = new Uint32Array(nodes);
    this.exitCost = new Float64Array(nodes);
    this.exitTarget = new Int32Array(nodes);
    this.tagBlocked = new Uint8Array(links);
  }

  next(): number {
    if (this.generation === 0xffffffff) {
      this.generation = 0;
      this.stamp.fill(0);
      this.settled.fill(0);
      this.exitStamp.fill(0);
    }
    this.generation += 1;
    return this.generation;
  }
}

const scratches = new WeakMap<RouteGraph, Scratch>();

function scratchOf(graph: RouteGraph): Scratch {
  let scratch = scratches.get(graph);
  if (!scratch) {
    scratch = new Scratch(graph.nodeCount, graph.linkCount);
    scratches.set(graph, scratch);
  }
  return scratch;
}

interface Filter {
  block: number;
  avoid: number;
  tagBlocked: Uint8Array | null;
}

function usable(graph: RouteGraph, filter: Filter, link: number): boolean {
  return (graph.linkFlags[link] & filter.block) === 0 && (filter.tagBlocked === null || filter.tagBlocked[link] === 0);
}

/** Where a point snapped: on a link (`t` along it from its source) or at a node with no walk link. */
interface Snap {
  link: number;
  node: number;
  t: number;
  x: number;
  y: number;
  /** Metres from the given point. */
  distance: number;
  /** The floor index. */
  floor: number;
}

function snapPoint(graph: RouteGraph, point: RoutePoint, filter: Filter): Snap | null {
  const floor = graph.floorIndex.get(point.floor_id);
  const grid = floor === undefined ? undefined : graph.grids.get(floor);
  if (!grid || !Number.isFinite(point.x) || !Number.isFinite(point.y)) return null;
  const reach = graph.settings.snap_distance_m;
  const c0 = Math.max(0, Math.floor((point.x - reach - grid.minX) / grid.cell));
  const c1 = Math.min(grid.columns - 1, Math.floor((point.x + reach - grid.minX) / grid.cell));
  const r0 = Math.max(0, Math.floor((point.y - reach - grid.minY) / grid.cell));
  const r1 = Math.min(grid.rows - 1, Math.floor((point.y + reach - grid.minY) / grid.cell));
  const { nodeX, nodeY, linkA, linkB } = graph;
  let best2 = reach * reach;
  let best = 0;
  let found = false;
  for (let r = r0; r <= r1; r += 1) {
    for (let c = c0; c <= c1; c += 1) {
      const cell = r * grid.columns + c;
      for (let i = grid.cellStart[cell]; i < grid.cellStart[cell + 1]; i += 1) {
        const entry = grid.entries[i];
        let d2: number;
        if (entry >= 0) {
          if (!usable(graph, filter, entry)) continue;
          d2 = segmentDistance2(point.x, point.y, nodeX[linkA[entry]], nodeY[linkA[entry]], nodeX[linkB[entry]], nodeY[linkB[entry]]);
        } else {
          const node = -entry - 1;
          if (!graph.loneLinks.get(node)!.some((link) => usable(graph, filter, link))) continue;
          d2 = (point.x - nodeX[node]) ** 2 + (point.y - nodeY[node]) ** 2;
        }
        if (d2 < best2 || (d2 === best2 && !found)) {
          best2 = d2;
          best = entry;
          found = true;
        }
      }
    }
  }
  if (!found) return null;
  if (best < 0) {
    const node = -best - 1;
    return { link: -1, node, t: 0, x: nodeX[node], y: nodeY[node], distance: Math.sqrt(best2), floor: floor! };
  }
  const ax = nodeX[linkA[best]];
  const ay = nodeY[linkA[best]];
  const ex = nodeX[linkB[best]] - ax;
  const ey = nodeY[linkB[best]] - ay;
  const length2 = ex * ex + ey * ey;
  let t = length2 > 0 ? ((point.x - ax) * ex + (point.y - ay) * ey) / length2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const x = t === 0 ? ax : t === 1 ? ax + ex : ax + t * ex;
  const y = t === 0 ? ay : t === 1 ? ay + ey : ay + t * ey;
  return { link: best, node: -1, t, x, y, distance: Math.hypot(point.x - x, point.y - y), floor: floor! };
}

function resolveOptions(options: Partial<RouteOptions>): RouteOptions {
  const resolved: RouteOptions = { ...DEFAULT_ROUTE_OPTIONS };
  for (const key of Object.keys(DEFAULT_ROUTE_OPTIONS) as Array<keyof RouteOptions>) {
    if (options[key] !== undefined) (resolved as unknown as Record<string, unknown>)[key] = options[key];
  }
  if (!ACCESSIBILITY_MODES.includes(resolved.accessibility_mode)) throw new RangeError(`accessibility_mode must be one of ${ACCESSIBILITY_MODES.join(', ')}`);
  if (!(Number.isFinite(resolved.speed_m_s) && resolved.speed_m_s > 0)) throw new RangeError('speed_m_s must be a finite number above 0');
  if (!(Number.isFinite(resolved.avoid_factor) && resolved.avoid_factor > 0)) throw new RangeError('avoid_factor must be a finite number above 0');
  return resolved;
}

function connectorMask(types: readonly ConnectorType[]): number {
  let mask = 0;
  for (const type of types) {
    const c = CONNECTOR_TYPES.indexOf(type);
    if (c >= 0) mask |= connectorBit(c);
  }
  return mask;
}

const normalTag = (tag: string) => tag.trim().toLowerCase();

function makeFilter(graph: RouteGraph, options: RouteOptions, scratch: Scratch): Filter {
  const exclude = connectorMask(options.exclude);
  let block = exclude;
  if (options.accessibility_mode === 'ONLY_ACCESSIBLE') block |= LINK_NOT_ACCESSIBLE;
  if (options.accessibility_mode === 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES') block |= LINK_ACCESSIBLE_FLOOR;
  const avoid = connectorMask(options.avoid) & ~exclude;
  if (options.included_tags.length === 0 && options.excluded_tags.length === 0) return { block, avoid, tagBlocked: null };
  // Per tag id: 1 included, 2 excluded (both: excluded wins).
  const marks = new Uint8Array(graph.tagIds.size);
  for (const tag of options.included_tags) {
    const id = graph.tagIds.get(normalTag(tag));
    if (id !== undefined) marks[id] |= 1;
  }
  for (const tag of options.excluded_tags) {
    const id = graph.tagIds.get(normalTag(tag));
    if (id !== undefined) marks[id] |= 2;
  }
  const needIncluded = options.included_tags.length > 0;
  const { linkTagStart, linkTags } = graph;
  const blocked = scratch.tagBlocked;
  for (let l = 0; l < graph.linkCount; l += 1) {
    let seen = 0;
    for (let i = linkTagStart[l]; i < linkTagStart[l + 1]; i += 1) seen |= marks[linkTags[i]];
    blocked[l] = seen & 2 || (needIncluded && !(seen & 1)) ? 1 : 0;
  }
  return { block, avoid, tagBlocked: blocked };
}

/** How a floor is named in texts: its name, with "floor" before a name that is a number ("floor 2"); its level when it has no name. */
export function floorLabel(graph: RouteGraph, floorId: number): string {
  const floor = graph.floor(floorId);
  if (!floor || (floor.name.trim() === '' && !Number.isFinite(floor.level))) return `floor #${floorId}`;
  const name = floor.name.trim();
  if (name === '') return `floor ${floor.level}`;
  return /^-?\d+[a-z]?$/i.test(name) ? `floor ${name}` : name;
}

const PLURAL: Record<ConnectorType, string> = { stairs: 'stairs', elevator: 'elevators', escalator: 'escalators', ramp: 'ramps' };

function noRouteReason(graph: RouteGraph, options: RouteOptions, fromFloor: number, toFloors: readonly number[]): string {
  const distinct = [...new Set(toFloors)];
  const to = distinct.length === 1 ? floorLabel(graph, distinct[0]) : `any destination (${distinct.map((floor) => floorLabel(graph, floor)).join(', ')})`;
  const conditions: string[] = [];
  if (options.accessibility_mode === 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES') conditions.push('without an accessible floor change (lift or ramp)');
  const excluded = CONNECTOR_TYPES.filter((type) => options.exclude.includes(type));
  if (excluded.length > 0) conditions.push(`without ${excluded.map((type) => PLURAL[type]).join(' or ')}`);
  if (options.included_tags.length > 0) conditions.push(`only on links tagged ${options.included_tags.join(' or ')}`);
  if (options.excluded_tags.length > 0) conditions.push(`on no link tagged ${options.excluded_tags.join(' or ')}`);
  const kind = options.accessibility_mode === 'ONLY_ACCESSIBLE' ? 'accessible route' : 'route';
  return `no ${kind} from ${floorLabel(graph, fromFloor)} to ${to}${conditions.length > 0 ? ` ${conditions.join(', ')}` : ''}`;
}

function isList(to: RoutePoint | readonly RoutePoint[]): to is readonly RoutePoint[] {
  return Array.isArray(to);
}

/**
 * The cheapest route from a point to a point, or to the cheapest of several (`target` says which),
 * or why there is none. Options left out take DEFAULT_ROUTE_OPTIONS; an invalid option (a speed or
 * factor that is not a positive number, an unknown mode) is a RangeError.
 */
export function route(graph: RouteGraph, from: RoutePoint, to: RoutePoint | readonly RoutePoint[], options: Partial<RouteOptions> = {}): RouteResult {
  const resolved = resolveOptions(options);
  const scratch = scratchOf(graph);
  const filter = makeFilter(graph, resolved, scratch);
  const reach = graph.settings.snap_distance_m;
  const start = snapPoint(graph, from, filter);
  if (!start) {
    const where = graph.grids.has(graph.floorIndex.get(from.floor_id) ?? -1)
      ? `within ${reach} m of a usable path on ${floorLabel(graph, from.floor_id)}`
      : `on a floor with paths (${floorLabel(graph, from.floor_id)} has none)`;
    return { ok: false, failure: { code: 'end_unreachable', end: 'from', floor_id: from.floor_id, reason: `the start is not ${where}` } };
  }
  const targets = isList(to) ? to : [to];
  const ends = targets.map((point) => snapPoint(graph, point, filter));
  if (!ends.some((end) => end !== null)) {
    const floorId = targets.length > 0 ? targets[0].floor_id : from.floor_id;
    const reason =
      targets.length === 0
        ? 'no destination was given'
        : targets.length === 1
          ? `the destination is not ${graph.grids.has(graph.floorIndex.get(floorId) ?? -1) ? `within ${reach} m of a usable path on ${floorLabel(graph, floorId)}` : `on a floor with paths (${floorLabel(graph, floorId)} has none)`}`
          : `none of the ${targets.length} destinations is within ${reach} m of a usable path`;
    return { ok: false, failure: { code: 'end_unreachable', end: 'to', floor_id: floorId, reason } };
  }

  const found = search(graph, resolved, filter, scratch, start, ends);
  if (found === null) {
    const toFloors = targets.filter((_, i) => ends[i] !== null).map((point) => point.floor_id);
    const reason = noRouteReason(graph, resolved, from.floor_id, toFloors);
    return { ok: false, failure: { code: 'no_route', from_floor_id: from.floor_id, to_floor_id: toFloors[0], reason } };
  }
  return { ok: true, route: answer(graph, resolved, from.floor_id, start, targets[found.target].floor_id, ends[found.target]!, found) };
}

interface Found {
  target: number;
  cost: number;
  /** The links walked from the node the start leads to (none on a walk along the start's link). */
  links: number[];
  /** Whether each of them starts a ride. */
  rideStart: boolean[];
  /** The first node (-1 on a walk along the start's link) and the last. */
  firstNode: number;
  lastNode: number;
}

function search(graph: RouteGraph, options: RouteOptions, filter: Filter, scratch: Scratch, start: Snap, ends: ReadonlyArray<Snap | null>): Found | null {
  const generation = scratch.next();
  const { stamp, settled, first, second, prevState, prevLink, exitStamp, exitCost, exitTarget, heap } = scratch;
  const { adjStart, adjLink, adjTo, linkFlags, linkConnector, linkWalk, linkStoreys, linkWait, linkWays, linkLength, linkA, linkB } = graph;
  const END = graph.nodeCount * STATES;
  const inverse = 1 / options.speed_m_s;
  heap.clear();
  let endTarget = -1;

  // A*: the queue holds cost + a lower bound of what is left, the straight line to the nearest
  // candidate end at the quickest horizontal pace any link allows, plus the least a change of floor
  // costs where that end is on another floor. It never overestimates and changes along a link by at
  // most the link's cost (consistent), so every state still settles at its least cost; with many
  // candidates (a category of POIs) the bound is left out (0: Dijkstra).
  const { nodeX, nodeY, nodeFloor } = graph;
  const goals = ends.filter((end): end is Snap => end !== null);
  const goalCount = goals.length <= MAX_GOALS ? goals.length : 0;
  const goalX = new Float64Array(goalCount);
  const goalY = new Float64Array(goalCount);
  const goalFloor = new Int32Array(goalCount);
  for (let g = 0; g < goalCount; g += 1) {
    goalX[g] = goals[g].x;
    goalY[g] = goals[g].y;
    goalFloor[g] = goals[g].floor;
  }
  const settings = graph.settings;
  const shrink = Math.min(1, options.avoid_factor);
  const pace = (inverse * shrink) / Math.max(1, settings.stairs_speed_factor, settings.ramp_speed_factor);
  const floorChange = graph.minStoreysS * shrink;
  const bound = (node: number): number => {
    if (goalCount === 0) return 0;
    const x = nodeX[node];
    const y = nodeY[node];
    const floor = nodeFloor[node];
    let least = Infinity;
    for (let g = 0; g < goalCount; g += 1) {
      const h = Math.sqrt((x - goalX[g]) ** 2 + (y - goalY[g]) ** 2) * pace + (floor === goalFloor[g] ? 0 : floorChange);
      if (h < least) least = h;
    }
    return least;
  };
  const seed = (state: number, cost: number) => {
    if (stamp[state] === generation && second[state] <= cost) return;
    stamp[state] = generation;
    first[state] = 0;
    second[state] = cost;
    prevState[state] = -1;
    prevLink[state] = -1;
    heap.push(state, 0, cost + bound((state / STATES) | 0));
  };
  const exit = (node: number, cost: number, target: number) => {
    if (exitStamp[node] === generation && exitCost[node] <= cost) return;
    exitStamp[node] = generation;
    exitCost[node] = cost;
    exitTarget[node] = target;
  };

  if (start.link < 0) seed(start.node * STATES, start.distance * inverse);
  else {
    const l = start.link;
    const toA = start.t * linkLength[l];
    const toB = (1 - start.t) * linkLength[l];
    if (toA <= AT_NODE_M || linkWays[l] & WAY_BACKWARD) seed(linkA[l] * STATES, (start.distance + toA) * inverse);
    if (toB <= AT_NODE_M || linkWays[l] & WAY_FORWARD) seed(linkB[l] * STATES, (start.distance + toB) * inverse);
  }
  ends.forEach((end, target) => {
    if (!end) return;
    if (end.link < 0) {
      exit(end.node, end.distance * inverse, target);
      return;
    }
    const l = end.link;
    const fromA = end.t * linkLength[l];
    const fromB = (1 - end.t) * linkLength[l];
    if (fromA <= AT_NODE_M || linkWays[l] & WAY_FORWARD) exit(linkA[l], (end.distance + fromA) * inverse, target);
    if (fromB <= AT_NODE_M || linkWays[l] & WAY_BACKWARD) exit(linkB[l], (end.distance + fromB) * inverse, target);
    if (l === start.link) {
      // Along the one link both ends snapped onto, in a direction it allows.
      const along = (end.t - start.t) * linkLength[l];
      if (Math.abs(along) <= AT_NODE_M || linkWays[l] & (along > 0 ? WAY_FORWARD : WAY_BACKWARD)) {
        const cost = (start.distance + Math.abs(along) + end.distance) * inverse;
        if (stamp[END] !== generation || cost < second[END]) {
          stamp[END] = generation;
          first[END] = 0;
          second[END] = cost;
          prevState[END] = -1;
          endTarget = target;
          heap.push(END, 0, cost);
        }
      }
    }
  });

  const block = filter.block;
  const avoid = filter.avoid;
  const factor = options.avoid_factor;

  const tagBlocked = filter.tagBlocked;
  const minimize = options.minimize_floor_changes ? 1 : 0;
  while (heap.size > 0) {
    const state = heap.pop();
    if (settled[state] === generation) continue;
    settled[state] = generation;
    if (state === END) break;
    const k1 = first[state];
    const k2 = second[state];
    const node = (state / STATES) | 0;
    const arrived = state - node * STATES;
    if (exitStamp[node] === generation) {
      const cost = k2 + exitCost[node];
      if (stamp[END] !== generation || k1 < first[END] || (k1 === first[END] && cost < second[END])) {
        stamp[END] = generation;
        first[END] = k1;
        second[END] = cost;
        prevState[END] = state;
        endTarget = exitTarget[node];
        heap.push(END, k1, cost);
      }
    }
    for (let e = adjStart[node], stop = adjStart[node + 1]; e < stop; e += 1) {
      const l = adjLink[e];
      const flags = linkFlags[l];
      if ((flags & block) !== 0 || (tagBlocked !== null && tagBlocked[l] !== 0)) continue;
      let n1 = k1;
      let time: number;
      let next: number;
      if (flags & LINK_FLOOR) {
        const c = linkConnector[l];
        time = linkWalk[l] * inverse + linkStoreys[l];
        if (arrived !== c + 1) {
          time += linkWait[l];
          n1 += minimize;
        }
        next = adjTo[e] * STATES + c + 1;
      } else {
        time = linkWalk[l] * inverse;
        next = adjTo[e] * STATES;
      }
      if (flags & avoid) time *= factor;
      const n2 = k2 + time;
      if (stamp[next] !== generation || n1 < first[next] || (n1 === first[next] && n2 < second[next])) {
        stamp[next] = generation;
        first[next] = n1;
        second[next] = n2;
        prevState[next] = state;
        prevLink[next] = l;
        heap.push(next, n1, n2 + bound(adjTo[e]));
      }
    }
  }
  if (stamp[END] !== generation) return null;

  const links: number[] = [];
  const rideStart: boolean[] = [];
  let lastNode = -1;
  let firstNode = -1;
  let state = prevState[END];
  if (state >= 0) lastNode = (state / STATES) | 0;
  while (state >= 0) {
    firstNode = (state / STATES) | 0;
    const link = prevLink[state];
    const before = prevState[state];
    if (link >= 0) {
      links.push(link);
      rideStart.push((linkFlags[link] & LINK_FLOOR) !== 0 && before - ((before / STATES) | 0) * STATES !== linkConnector[link] + 1);
    }
    state = before;
  }
  links.reverse();
  rideStart.reverse();
  return { target: endTarget, cost: second[END], links, rideStart, firstNode, lastNode };
}

function answer(graph: RouteGraph, options: RouteOptions, fromFloor: number, start: Snap, toFloor: number, end: Snap, found: Found): Route {
  const { nodeX, nodeY, nodeFloor, linkA, linkLength, linkFlags, linkConnector, linkWalk, linkStoreys, linkWait, linkInput } = graph;
  const inverse = 1 / options.speed_m_s;
  const floorId = (node: number) => graph.floors[nodeFloor[node]].id;
  const points: RoutePoint[] = [{ floor_id: fromFloor, x: start.x, y: start.y }];
  const edges: RouteEdge[] = [];
  const rideStart: boolean[] = [];
  let duration = (start.distance + end.distance) * inverse;
  const add = (floor: number, x: number, y: number, distance: number, link: number, ride: boolean) => {
    const last = points[points.length - 1];
    const connector = linkFlags[link] & LINK_FLOOR ? CONNECTOR_TYPES[linkConnector[link]] : null;
    const seconds = connector === null ? distance * inverse : linkWalk[link] * inverse + linkStoreys[link] + (ride ? linkWait[link] : 0);
    duration += seconds;
    // A walk of no length (onto a node the start is at, between two nodes at one place) is no edge.
    if (connector === null && last.floor_id === floor && last.x === x && last.y === y) return;
    points.push({ floor_id: floor, x, y });
    edges.push({ from: points.length - 2, to: points.length - 1, distance, floor_id: last.floor_id, connector, link: linkInput[link], duration: seconds });
    rideStart.push(ride);
  };
  const partial = (snap: Snap, node: number) => (node === linkA[snap.link] ? snap.t : 1 - snap.t) * linkLength[snap.link];

  if (found.firstNode < 0) {
    add(toFloor, end.x, end.y, Math.abs(end.t - start.t) * linkLength[start.link], start.link, false);
  } else {
    if (start.link >= 0) add(floorId(found.firstNode), nodeX[found.firstNode], nodeY[found.firstNode], partial(start, found.firstNode), start.link, false);
    let node = found.firstNode;
    found.links.forEach((link, i) => {
      node = linkA[link] === node ? graph.linkB[link] : linkA[link];
      add(floorId(node), nodeX[node], nodeY[node], linkLength[link], link, found.rideStart[i]);
    });
    if (end.link >= 0) add(toFloor, end.x, end.y, partial(end, found.lastNode), end.link, false);
  }

  let walked = 0;
  for (const edge of edges) walked += edge.distance;
  const avoided = CONNECTOR_TYPES.filter((type) => options.avoid.includes(type) && !options.exclude.includes(type) && edges.some((edge) => edge.connector === type));

  // A point passed through inside a ride (between two of its floor links) belongs to no segment.
  const segments: RouteSegment[] = [];
  points.forEach((point, i) => {
    if (i > 0 && i < points.length - 1 && edges[i - 1].connector !== null && edges[i].connector !== null && !rideStart[i]) return;
    const last = segments[segments.length - 1];
    if (last && last.floor_id === point.floor_id && (i === 0 || edges[i - 1].connector === null)) last.points.push(point);
    else segments.push({ floor_id: point.floor_id, points: [point] });
  });
  const lines = segments
    .filter((segment) => segment.points.length > 1)
    .map((segment) => ({ floor_id: segment.floor_id, coordinates: segment.points.map((p): [number, number] => [p.x, p.y]) }));

  const naming: FloorNaming = { label: (floor) => floorLabel(graph, floor), level: (floor) => graph.floor(floor)?.level ?? Number.NaN };
  return {
    distance: start.distance + walked + end.distance,
    duration,
    cost: found.cost,
    floor_changes: rideStart.filter(Boolean).length,
    from: points[0],
    to: points[points.length - 1],
    target: found.target,
    snap_distance: { from: start.distance, to: end.distance },
    points,
    edges,
    segments,
    indications: buildIndications(points, edges, rideStart, start.distance, end.distance, naming),
    avoided,
    lines,
  };
}
