/**
 * The routing graph of one building's paths (issue 40): built once from the stored graph (nodes per
 * floor, links with a direction, tags and an `accessible` flag) and reused, unchanged, by every
 * route until the paths change (the caller caches it per building).
 *
 * - **Frame**: x/y are the building's floor metres (src/common/geometry/cartesian.ts): x along its
 *   width, y along its length, and with the building unrotated y grows to the north, so seen from
 *   above the frame is counter-clockwise (a left turn has a positive cross product).
 * - **Direction** (`origin`, "which way the link can be walked"): 'both' either way, 'source' only
 *   from its source to its target, 'target' only from its target to its source.
 * - **Floor changes**: a link between nodes of two floors is a connector of a type (connectors.ts),
 *   walked in one ride of `n` storeys, `n` the number of steps between the two floors in the
 *   building's order of levels (at least 1). Its horizontal length counts as distance walked; the
 *   storeys add time only. A link between two nodes of one floor is a walk, whatever its tags.
 * - **Cost** (what a route minimises): time in seconds, at the request's walking speed `v`:
 *   a walk of `d` metres takes d / v; a floor link of horizontal length `h` takes
 *   h / (v × speed factor) + n × seconds per storey, plus the type's wait when a ride starts on it
 *   (consecutive floor links of one type, with no walk between them, are one ride and wait once):
 *
 *   | type      | speed factor                  | seconds per storey            | wait            |
 *   |-----------|-------------------------------|-------------------------------|-----------------|
 *   | stairs    | `stairs_speed_factor` (0.5)   | `stairs_s_per_floor` (15)     | none            |
 *   | elevator  | 1                             | `elevator_s_per_floor` (5)    | `elevator_wait_s` (30) |
 *   | escalator | 1                             | `escalator_s_per_floor` (20, about 0.5 m/s over a storey's 10 m of incline) | none |
 *   | ramp      | `ramp_speed_factor` (0.8)     | none                          | none            |
 *
 * - **Snapping**: per floor, a uniform grid of the walkable segments (the links between nodes of
 *   that floor, and the nodes of the floor with no such link, such as a lone lift landing), so the
 *   nearest usable link within `snap_distance_m` costs the few cells around a point.
 * - **Bad input** is skipped, never fatal: a link naming an unknown node or linking a node to
 *   itself is left out, a repeated node id keeps its first node, and an explicit `connector` on a
 *   link within one floor is ignored (the link is a walk). validatePaths names each of them.
 */
import { CONNECTOR_TYPES, type ConnectorType, floorLinkConnector, isConnectorType } from './connectors';

export type LinkOrigin = 'both' | 'source' | 'target';

export interface RouteFloor {
  id: number;
  /** The floor's place in the building's order: floors are ordered by level, lowest first. */
  level: number;
  name: string;
}

/** A node of the stored graph (src/cartography/paths/path-graph.entity.ts); lat/lng are not used. */
export interface RouteNode {
  id: number;
  floor_id: number;
  x: number;
  y: number;
  lat?: number;
  lng?: number;
}

/** A link of the stored graph; what is left out takes the stored defaults ('both', [], true, derived type). */
export interface RouteLink {
  source: number;
  target: number;
  origin?: LinkOrigin;
  tags?: readonly string[];
  accessible?: boolean;
  /** The connector type of a floor link, given explicitly; null or absent: derived (connectors.ts). */
  connector?: ConnectorType | null;
}

/** A building's routing settings (module comment): the snap distance and the time of floor changes. */
export interface RouteSettings {
  /** A point farther than this (metres) from every usable link of its floor cannot be routed from or to. */
  snap_distance_m: number;
  /** The walking speed on stairs relative to corridors, over a stair link's horizontal length. */
  stairs_speed_factor: number;
  /** Seconds per storey on stairs, up or down. */
  stairs_s_per_floor: number;
  /** Seconds waited for a lift, once per ride. */
  elevator_wait_s: number;
  /** Seconds per storey in a lift. */
  elevator_s_per_floor: number;
  /** Seconds per storey on an escalator. */
  escalator_s_per_floor: number;
  /** The walking speed on a ramp between floors relative to corridors. */
  ramp_speed_factor: number;
  /** Following a route (progress.ts): a fix farther than this (metres) from the route is off it. */
  off_route_distance_m: number;
  /** Following a route: this many off-route fixes in a row route the device again from where it is. */
  off_route_fixes: number;
}

export const DEFAULT_ROUTE_SETTINGS: Readonly<RouteSettings> = Object.freeze({
  snap_distance_m: 10,
  stairs_speed_factor: 0.5,
  stairs_s_per_floor: 15,
  elevator_wait_s: 30,
  elevator_s_per_floor: 5,
  escalator_s_per_floor: 20,
  ramp_speed_factor: 0.8,
  off_route_distance_m: 5,
  off_route_fixes: 3,
});

/** Link flags (RouteGraph.linkFlags). The connector bits are set on floor links only. */
export const LINK_FLOOR = 1;
export const LINK_NOT_ACCESSIBLE = 2;
export const LINK_ACCESSIBLE_FLOOR = 4;
/** The bit of connector type `CONNECTOR_TYPES[c]`. */
export const connectorBit = (c: number): number => 8 << c;
/** Which ways a link can be walked (RouteGraph.linkWays). */
export const WAY_FORWARD = 1;
export const WAY_BACKWARD = 2;

/** Below this many metres a point is at the node (no direction holds for walking nowhere). */
export const AT_NODE_M = 1e-9;

const CELL_M = 5;

export interface FloorInfo {
  id: number;
  level: number;
  name: string;
  /** The floor's place among the building's distinct levels, lowest 0; -1 for a floor not given. */
  rank: number;
}

/** The walkable segments of one floor in a uniform grid. */
export class FloorGrid {
  constructor(
    readonly minX: number,
    readonly minY: number,
    readonly cell: number,
    readonly columns: number,
    readonly rows: number,
    /** Per cell, its entries: cellStart[c] to cellStart[c + 1] in entries. */
    readonly cellStart: Int32Array,
    /** A link index (≥ 0), or -(node index + 1) for a node of the floor with no walk link. */
    readonly entries: Int32Array,
  ) {}
}

/** What a routing graph is built from and holds; route() reads it, nothing changes it. */
export class RouteGraph {
  constructor(
    readonly settings: Readonly<RouteSettings>,
    /** Floors by dense index: the given ones, then any a node names that was not given. */
    readonly floors: readonly FloorInfo[],
    readonly floorIndex: ReadonlyMap<number, number>,
    readonly nodeIds: Float64Array,
    readonly nodeX: Float64Array,
    readonly nodeY: Float64Array,
    /** The floor index of each node. */
    readonly nodeFloor: Int32Array,
    /** Each link's index in the input links (the kept links only). */
    readonly linkInput: Int32Array,
    /** Source and target node indices. */
    readonly linkA: Int32Array,
    readonly linkB: Int32Array,
    /** Horizontal length, metres. */
    readonly linkLength: Float64Array,
    /** Metres at walking speed the link takes: its length over the connector's speed factor. */
    readonly linkWalk: Float64Array,
    /** Seconds the storeys of a floor link take. */
    readonly linkStoreys: Float64Array,
    /** Seconds of waiting when a ride starts on the link. */
    readonly linkWait: Float64Array,
    readonly linkFlags: Uint8Array,
    /** The connector index (CONNECTOR_TYPES) of a floor link, -1 on a walk. */
    readonly linkConnector: Int8Array,
    readonly linkWays: Uint8Array,
    /** Each link's tags as ids of `tagIds`: linkTagStart[l] to linkTagStart[l + 1] in linkTags. */
    readonly linkTagStart: Int32Array,
    readonly linkTags: Int32Array,
    /** Lower-cased tags to their ids. */
    readonly tagIds: ReadonlyMap<string, number>,
    /** The walkable ways out of each node: adjStart[v] to adjStart[v + 1] in adjLink/adjTo. */
    readonly adjStart: Int32Array,
    readonly adjLink: Int32Array,
    readonly adjTo: Int32Array,
    /** The floor links of each node with no walk link (it snaps as a point), by node index. */
    readonly loneLinks: ReadonlyMap<number, readonly number[]>,
    readonly grids: ReadonlyMap<number, FloorGrid>,
    /** The least seconds a floor link's storeys take (waits aside): what any change of floor costs at least; 0 with no floor link. */
    readonly minStoreysS: number,
  ) {}

  get nodeCount(): number {
    return this.nodeIds.length;
  }

  get linkCount(): number {
    return this.linkA.length;
  }

  /** The floor of an id, or undefined for one no node or given floor names. */
  floor(floorId: number): FloorInfo | undefined {
    const index = this.floorIndex.get(floorId);
    return index === undefined ? undefined : this.floors[index];
  }
}

function nonNegative(name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`${name} must be a finite number of at least 0, not ${value}`);
  return value;
}

function resolveSettings(settings: Partial<RouteSettings>): Readonly<RouteSettings> {
  const resolved = { ...DEFAULT_ROUTE_SETTINGS };
  for (const key of Object.keys(DEFAULT_ROUTE_SETTINGS) as Array<keyof RouteSettings>) {
    const value = settings[key];
    if (value !== undefined) resolved[key] = nonNegative(key, value);
  }
  if (!(resolved.stairs_speed_factor > 0 && resolved.ramp_speed_factor > 0)) throw new RangeError('speed factors must be more than 0');
  if (!(Number.isInteger(resolved.off_route_fixes) && resolved.off_route_fixes >= 1)) throw new RangeError('off_route_fixes must be a whole number of at least 1');
  return Object.freeze(resolved);
}

/**
 * The routing graph of a building: its floors (any order; ordered by level), the stored nodes and
 * links, and its settings (defaults: DEFAULT_ROUTE_SETTINGS). Bad links are left out (module comment).
 */
export function buildRouteGraph(floors: readonly RouteFloor[], nodes: readonly RouteNode[], links: readonly RouteLink[], settings: Partial<RouteSettings> = {}): RouteGraph {
  const resolved = resolveSettings(settings);
  const levels = [...new Set(floors.map((floor) => floor.level))].sort((a, b) => a - b);
  const floorList: FloorInfo[] = [];
  const floorIndex = new Map<number, number>();
  for (const floor of floors) {
    if (floorIndex.has(floor.id)) continue;
    floorIndex.set(floor.id, floorList.length);
    floorList.push({ id: floor.id, level: floor.level, name: floor.name, rank: levels.indexOf(floor.level) });
  }

  const nodeIndex = new Map<number, number>();
  const kept: RouteNode[] = [];
  for (const node of nodes) {
    if (nodeIndex.has(node.id)) continue;
    nodeIndex.set(node.id, kept.length);
    kept.push(node);
  }
  const n = kept.length;
  const nodeIds = new Float64Array(n);
  const nodeX = new Float64Array(n);
  const nodeY = new Float64Array(n);
  const nodeFloor = new Int32Array(n);
  for (let i = 0; i < n; i += 1) {
    const node = kept[i];
    nodeIds[i] = node.id;
    nodeX[i] = node.x;
    nodeY[i] = node.y;
    let floor = floorIndex.get(node.floor_id);
    if (floor === undefined) {
      floor = floorList.length;
      floorIndex.set(node.floor_id, floor);
      floorList.push({ id: node.floor_id, level: Number.NaN, name: '', rank: -1 });
    }
    nodeFloor[i] = floor;
  }

  const used: number[] = [];
  for (let i = 0; i < links.length; i += 1) {
    const a = nodeIndex.get(links[i].source);
    const b = nodeIndex.get(links[i].target);
    if (a !== undefined && b !== undefined && a !== b) used.push(i);
  }
  const m = used.length;
  const linkInput = Int32Array.from(used);
  const linkA = new Int32Array(m);
  const linkB = new Int32Array(m);
  const linkLength = new Float64Array(m);
  const linkWalk = new Float64Array(m);
  const linkStoreys = new Float64Array(m);
  const linkWait = new Float64Array(m);
  const linkFlags = new Uint8Array(m);
  const linkConnector = new Int8Array(m).fill(-1);
  const linkWays = new Uint8Array(m);
  const linkTagStart = new Int32Array(m + 1);
  const tagList: number[] = [];
  const tagIds = new Map<string, number>();
  const walkDegree = new Int32Array(n);
  const outDegree = new Int32Array(n);

  for (let l = 0; l < m; l += 1) {
    const link = links[used[l]];
    const a = nodeIndex.get(link.source)!;
    const b = nodeIndex.get(link.target)!;
    linkA[l] = a;
    linkB[l] = b;
    const length = Math.hypot(nodeX[b] - nodeX[a], nodeY[b] - nodeY[a]);
    linkLength[l] = length;
    linkWalk[l] = length;
    const accessible = link.accessible ?? true;
    let flags = accessible ? 0 : LINK_NOT_ACCESSIBLE;
    if (nodeFloor[a] !== nodeFloor[b]) {
      const type = floorLinkConnector(link);
      const c = CONNECTOR_TYPES.indexOf(type);
      const rankA = floorList[nodeFloor[a]].rank;
      const rankB = floorList[nodeFloor[b]].rank;
      const storeys = rankA < 0 || rankB < 0 ? 1 : Math.max(1, Math.abs(rankA - rankB));
      flags |= LINK_FLOOR | connectorBit(c) | (accessible ? LINK_ACCESSIBLE_FLOOR : 0);
      linkConnector[l] = c;
      if (type === 'stairs') {
        linkWalk[l] = length / resolved.stairs_speed_factor;
        linkStoreys[l] = storeys * resolved.stairs_s_per_floor;
      } else if (type === 'elevator') {
        linkStoreys[l] = storeys * resolved.elevator_s_per_floor;
        linkWait[l] = resolved.elevator_wait_s;
      } else if (type === 'escalator') {
        linkStoreys[l] = storeys * resolved.escalator_s_per_floor;
      } else {
        linkWalk[l] = length / resolved.ramp_speed_factor;
      }
    } else {
      walkDegree[a] += 1;
      walkDegree[b] += 1;
    }
    linkFlags[l] = flags;
    const origin = link.origin ?? 'both';
    const ways = origin === 'source' ? WAY_FORWARD : origin === 'target' ? WAY_BACKWARD : WAY_FORWARD | WAY_BACKWARD;
    linkWays[l] = ways;
    if (ways & WAY_FORWARD) outDegree[a] += 1;
    if (ways & WAY_BACKWARD) outDegree[b] += 1;
    for (const tag of link.tags ?? []) {
      const key = tag.trim().toLowerCase();
      let id = tagIds.get(key);
      if (id === undefined) {
        id = tagIds.size;
        tagIds.set(key, id);
      }
      tagList.push(id);
    }
    linkTagStart[l + 1] = tagList.length;
  }

  const adjStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v += 1) adjStart[v + 1] = adjStart[v] + outDegree[v];
  const fill = adjStart.slice(0, n);
  const adjLink = new Int32Array(adjStart[n]);
  const adjTo = new Int32Array(adjStart[n]);
  for (let l = 0; l < m; l += 1) {
    if (linkWays[l] & WAY_FORWARD) {
      const at = fill[linkA[l]]++;
      adjLink[at] = l;
      adjTo[at] = linkB[l];
    }
    if (linkWays[l] & WAY_BACKWARD) {
      const at = fill[linkB[l]]++;
      adjLink[at] = l;
      adjTo[at] = linkA[l];
    }
  }

  const loneLinks = new Map<number, number[]>();
  for (let v = 0; v < n; v += 1) if (walkDegree[v] === 0) loneLinks.set(v, []);
  for (let l = 0; l < m; l += 1) {
    if (!(linkFlags[l] & LINK_FLOOR)) continue;
    loneLinks.get(linkA[l])?.push(l);
    loneLinks.get(linkB[l])?.push(l);
  }

  const items = new Map<number, number[]>();
  const add = (floor: number, entry: number) => {
    const list = items.get(floor);
    if (list) list.push(entry);
    else items.set(floor, [entry]);
  };
  for (let l = 0; l < m; l += 1) if (!(linkFlags[l] & LINK_FLOOR)) add(nodeFloor[linkA[l]], l);
  for (const v of loneLinks.keys()) add(nodeFloor[v], -(v + 1));
  const grids = new Map<number, FloorGrid>();
  for (const [floor, entries] of items) grids.set(floor, buildGrid(entries, linkA, linkB, nodeX, nodeY));
  let minStoreysS = Infinity;
  for (let l = 0; l < m; l += 1) if (linkFlags[l] & LINK_FLOOR) minStoreysS = Math.min(minStoreysS, linkStoreys[l]);

  return new RouteGraph(
    resolved,
    floorList,
    floorIndex,
    nodeIds,
    nodeX,
    nodeY,
    nodeFloor,
    linkInput,
    linkA,
    linkB,
    linkLength,
    linkWalk,
    linkStoreys,
    linkWait,
    linkFlags,
    linkConnector,
    linkWays,
    linkTagStart,
    Int32Array.from(tagList),
    tagIds,
    adjStart,
    adjLink,
    adjTo,
    loneLinks,
    grids,
    Number.isFinite(minStoreysS) ? minStoreysS : 0,
  );
}

/** The segment (ax, ay)-(bx, by) of a grid entry. */
function entrySegment(entry: number, linkA: Int32Array, linkB: Int32Array, nodeX: Float64Array, nodeY: Float64Array): [number, number, number, number] {
  const a = entry >= 0 ? linkA[entry] : -entry - 1;
  const b = entry >= 0 ? linkB[entry] : a;
  return [nodeX[a], nodeY[a], nodeX[b], nodeY[b]];
}

function buildGrid(entries: readonly number[], linkA: Int32Array, linkB: Int32Array, nodeX: Float64Array, nodeY: Float64Array): FloorGrid {
  const segments = entries.map((entry) => entrySegment(entry, linkA, linkB, nodeX, nodeY));
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [ax, ay, bx, by] of segments) {
    minX = Math.min(minX, ax, bx);
    minY = Math.min(minY, ay, by);
    maxX = Math.max(maxX, ax, bx);
    maxY = Math.max(maxY, ay, by);
  }
  // Cells of CELL_M, coarser where the floor is so wide that they would outnumber its segments.
  const maxCells = Math.max(1024, 4 * segments.length);
  const cell = Math.max(CELL_M, Math.sqrt(((maxX - minX + CELL_M) * (maxY - minY + CELL_M)) / maxCells));
  const columns = Math.max(1, Math.floor((maxX - minX) / cell) + 1);
  const rows = Math.max(1, Math.floor((maxY - minY) / cell) + 1);
  const reach = cell * Math.SQRT1_2 * (1 + 1e-9);
  // Each segment goes into the cells it passes through (those whose centre is within half a
  // diagonal of it): a point's nearest point on it lies in one of them.
  const covered = (index: number, visit: (cellIndex: number) => void) => {
    const [ax, ay, bx, by] = segments[index];
    const c0 = Math.floor((Math.min(ax, bx) - minX) / cell);
    const c1 = Math.min(columns - 1, Math.floor((Math.max(ax, bx) - minX) / cell));
    const r0 = Math.floor((Math.min(ay, by) - minY) / cell);
    const r1 = Math.min(rows - 1, Math.floor((Math.max(ay, by) - minY) / cell));
    for (let r = r0; r <= r1; r += 1) {
      for (let c = c0; c <= c1; c += 1) {
        if (segmentDistance2(minX + (c + 0.5) * cell, minY + (r + 0.5) * cell, ax, ay, bx, by) <= reach * reach) visit(r * columns + c);
      }
    }
  };
  const counts = new Int32Array(columns * rows + 1);
  for (let i = 0; i < segments.length; i += 1) covered(i, (c) => (counts[c + 1] += 1));
  for (let c = 0; c < columns * rows; c += 1) counts[c + 1] += counts[c];
  const cellStart = counts.slice();
  const out = new Int32Array(cellStart[columns * rows]);
  for (let i = 0; i < segments.length; i += 1) covered(i, (c) => (out[counts[c]++] = entries[i]));
  return new FloorGrid(minX, minY, cell, columns, rows, cellStart, out);
}

/** Squared distance from (x, y) to the segment, and where the nearest point is along it (0 at a, 1 at b). */
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

/** One problem of a stored graph: the item (`nodes[2]`, `links[0]`), the field of it at fault (null: the item as a whole), what is wrong. */
export interface PathProblem {
  item: string;
  field: 'id' | 'floor_id' | 'source' | 'target' | 'connector' | null;
  code: 'duplicate' | 'not_found' | 'invalid';
  message: string;
  /** The value of that field (absent for the item as a whole). */
  value?: unknown;
}

/**
 * The problems of a stored graph, each naming the index of its node or link: a repeated node id,
 * a node on a floor not given (when `floors` is), a link naming an unknown node or one node twice,
 * an explicit `connector` that is no type or that links two nodes of one floor. Empty: none.
 */
export function pathProblems(nodes: readonly Pick<RouteNode, 'id' | 'floor_id'>[], links: readonly RouteLink[], floors?: readonly Pick<RouteFloor, 'id'>[]): PathProblem[] {
  const problems: PathProblem[] = [];
  const byId = new Map<number, number>();
  const floorIds = floors ? new Set(floors.map((floor) => floor.id)) : null;
  nodes.forEach((node, i) => {
    const item = `nodes[${i}]`;
    const first = byId.get(node.id);
    if (first !== undefined) problems.push({ item, field: 'id', code: 'duplicate', message: `node id ${node.id} is already the id of nodes[${first}]`, value: node.id });
    else byId.set(node.id, i);
    if (floorIds && !floorIds.has(node.floor_id))
      problems.push({ item, field: 'floor_id', code: 'not_found', message: `floor ${node.floor_id} is not a floor of the building`, value: node.floor_id });
  });
  links.forEach((link, i) => {
    const item = `links[${i}]`;
    const source = byId.get(link.source);
    const target = byId.get(link.target);
    if (source === undefined) problems.push({ item, field: 'source', code: 'not_found', message: `source ${link.source} is not a node of the graph`, value: link.source });
    if (target === undefined) problems.push({ item, field: 'target', code: 'not_found', message: `target ${link.target} is not a node of the graph`, value: link.target });
    if (link.source === link.target) problems.push({ item, field: null, code: 'invalid', message: `links node ${link.source} to itself` });
    if (link.connector !== undefined && link.connector !== null) {
      if (!isConnectorType(link.connector)) {
        problems.push({
          item,
          field: 'connector',
          code: 'invalid',
          message: `connector ${JSON.stringify(link.connector)} is not one of ${CONNECTOR_TYPES.join(', ')}`,
          value: link.connector,
        });
      } else if (source !== undefined && target !== undefined && link.source !== link.target && nodes[source].floor_id === nodes[target].floor_id) {
        problems.push({
          item,
          field: 'connector',
          code: 'invalid',
          message: `connector ${link.connector} links nodes ${link.source} and ${link.target} of one floor (${nodes[source].floor_id}); a connector changes floors`,
          value: link.connector,
        });
      }
    }
  });
  return problems;
}

/** pathProblems as lines of text (`links[0]: target 9 is not a node of the graph`). */
export function validatePaths(nodes: readonly Pick<RouteNode, 'id' | 'floor_id'>[], links: readonly RouteLink[], floors?: readonly Pick<RouteFloor, 'id'>[]): string[] {
  return pathProblems(nodes, links, floors).map((problem) => `${problem.item}: ${problem.message}`);
}
