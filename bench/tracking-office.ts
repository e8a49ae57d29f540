/**
 * Issue 37's office for the tracking sweep (bench/tracking-sweep.ts), plain TypeScript: two
 * floors of the sweep's 60 × 40 m building, each with a corridor loop, twelve rooms off it, a
 * stairwell in one corner and a lift in the opposite one; its paths graph as the server stores it
 * (nodes per floor in metres, links, the floor changes tagged `stairs` and `elevator`); walkers
 * that go from room to room at pedestrian speeds, pause in rooms, take the stairs and the lift;
 * and the room-crossing counter of rules with no time hysteresis.
 */
import type { TrackerLink, TrackerNode } from '../src/infrastructure/tracker/tracker-contract';

export interface Room {
  floorId: number;
  name: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** The room's centre node, where walkers pause. */
  centre: number;
}

export interface Office {
  width: number;
  length: number;
  floors: number[];
  nodes: TrackerNode[];
  links: TrackerLink[];
  rooms: Room[];
  /** Nodes where a floor change starts or ends (stairs landings, lift doors). */
  connectors: Set<number>;
}

/** The corridor loop runs on the rectangle (10, 10)-(50, 30), a node every 5 m; it is 3 m wide (the rooms' walls 1.5 m from its line). */
const LOOP = { x0: 10, y0: 10, x1: 50, y1: 30, step: 5 };
const STAIRS = { x: 5, y: 5, from: { x: 10, y: 10 } };
const LIFT = { x: 55, y: 35, from: { x: 50, y: 30 } };

/** Rooms of one floor: rectangle, door on the loop, and the place inside where people stay (off the 10 m beacon grid, which puts one in the middle of most rooms). */
const ROOMS: Array<{ name: string; x0: number; y0: number; x1: number; y1: number; door: [number, number]; centre: [number, number] }> = [
  ...[1, 2, 3, 4].map((k) => ({
    name: `S${k}`,
    x0: 10 * k,
    y0: 0,
    x1: 10 * k + 10,
    y1: 8.5,
    door: [10 * k + 5, 10] as [number, number],
    centre: [10 * k + 2.5, 3.5] as [number, number],
  })),
  ...[1, 2, 3, 4].map((k) => ({
    name: `N${k}`,
    x0: 10 * k,
    y0: 31.5,
    x1: 10 * k + 10,
    y1: 40,
    door: [10 * k + 5, 30] as [number, number],
    centre: [10 * k + 7.5, 36.5] as [number, number],
  })),
  { name: 'W', x0: 0, y0: 11.5, x1: 8.5, y1: 28.5, door: [10, 20], centre: [4.5, 17] },
  { name: 'E', x0: 51.5, y0: 11.5, x1: 60, y1: 28.5, door: [50, 20], centre: [55.5, 23] },
  { name: 'I1', x0: 11.5, y0: 11.5, x1: 28.5, y1: 28.5, door: [20, 10], centre: [17, 22] },
  { name: 'I2', x0: 31.5, y0: 11.5, x1: 48.5, y1: 28.5, door: [40, 30], centre: [43, 18] },
];

/** The office on floors 1…floors (floor ids; level = id − 1), node ids floor × 1000 + n. */
export function buildOffice(floors = 2): Office {
  const nodes: TrackerNode[] = [];
  const links: TrackerLink[] = [];
  const rooms: Room[] = [];
  const connectors = new Set<number>();
  const floorIds = Array.from({ length: floors }, (_, i) => i + 1);
  for (const floorId of floorIds) {
    const byPlace = new Map<string, number>();
    const node = (x: number, y: number): number => {
      const key = `${x},${y}`;
      let id = byPlace.get(key);
      if (id === undefined) {
        id = floorId * 1000 + nodes.filter((n) => n.floorId === floorId).length;
        nodes.push({ id, floorId, x, y });
        byPlace.set(key, id);
      }
      return id;
    };
    const loop: number[] = [];
    for (let x = LOOP.x0; x < LOOP.x1; x += LOOP.step) loop.push(node(x, LOOP.y0));
    for (let y = LOOP.y0; y < LOOP.y1; y += LOOP.step) loop.push(node(LOOP.x1, y));
    for (let x = LOOP.x1; x > LOOP.x0; x -= LOOP.step) loop.push(node(x, LOOP.y1));
    for (let y = LOOP.y1; y > LOOP.y0; y -= LOOP.step) loop.push(node(LOOP.x0, y));
    loop.forEach((id, i) => links.push({ source: id, target: loop[(i + 1) % loop.length], tags: [] }));
    for (const room of ROOMS) {
      const centre = node(...room.centre);
      links.push({ source: node(...room.door), target: centre, tags: [] });
      rooms.push({ floorId, name: `${floorId}${room.name}`, x0: room.x0, y0: room.y0, x1: room.x1, y1: room.y1, centre });
    }
    for (const connector of [STAIRS, LIFT]) {
      const landing = node(connector.x, connector.y);
      links.push({ source: node(connector.from.x, connector.from.y), target: landing, tags: [] });
      connectors.add(landing);
    }
  }
  const at = (floorId: number, x: number, y: number) => nodes.find((n) => n.floorId === floorId && n.x === x && n.y === y)!.id;
  for (const floorId of floorIds.slice(1)) {
    links.push({ source: at(floorId - 1, STAIRS.x, STAIRS.y), target: at(floorId, STAIRS.x, STAIRS.y), tags: ['stairs'] });
    links.push({ source: at(floorId - 1, LIFT.x, LIFT.y), target: at(floorId, LIFT.x, LIFT.y), tags: ['elevator'] });
  }
  return { width: 60, length: 40, floors: floorIds, nodes, links, rooms, connectors };
}

/** The room of a floor that holds (x, y), or null (corridor, stairwell, lift lobby). */
export function roomAt(office: Office, floorId: number, x: number, y: number): string | null {
  for (const room of office.rooms) if (room.floorId === floorId && x >= room.x0 && x <= room.x1 && y >= room.y0 && y <= room.y1) return room.name;
  return null;
}

/**
 * Enter and exit events of a sequence of places under rules with no time hysteresis: an event
 * each time the room changes (leaving a room is an exit, arriving in one an enter; from one room
 * straight into another is both).
 */
export function roomEvents(rooms: ReadonlyArray<string | null>): number {
  let events = 0;
  for (let i = 1; i < rooms.length; i += 1) {
    if (rooms[i] === rooms[i - 1]) continue;
    if (rooms[i - 1] !== null) events += 1;
    if (rooms[i] !== null) events += 1;
  }
  return events;
}

export interface Sample {
  /** Seconds from the start of the walk. */
  t: number;
  floorId: number;
  x: number;
  y: number;
}

export interface FloorChange {
  /** When the walker's floor changed (s). */
  t: number;
  from: number;
  to: number;
  via: 'stairs' | 'elevator';
}

export interface Walk {
  samples: Sample[];
  floorChanges: FloorChange[];
}

export interface WalkOptions {
  seconds: number;
  /** A trip's walking speed is drawn from this range (m/s). */
  speed: [number, number];
  /** Pause in a room (s). */
  pause: [number, number];
  /** A storey of stairs (s) and the wait for the lift (s); a ride takes `liftRideS` per storey. */
  stairsS: [number, number];
  liftWaitS: [number, number];
  liftRideS: number;
  /** A walker keeps this far at most to the side of the line it walks (m). */
  sideM: number;
  /** Share of trips to the other floor. */
  otherFloor: number;
}

export const DEFAULT_WALK: WalkOptions = { seconds: 360, speed: [0.8, 1.6], pause: [10, 60], stairsS: [10, 16], liftWaitS: [5, 25], liftRideS: 6, sideM: 0.5, otherFloor: 0.4 };

/** A piece of the walk: from one point to another in a time, the floor changing at `switchAt` (s) if at all. */
interface Piece {
  t0: number;
  t1: number;
  floorId: number;
  toFloor: number;
  switchAt: number;
  from: { x: number; y: number };
  to: { x: number; y: number };
  via?: 'stairs' | 'elevator';
}

/**
 * One walker: from a random room, trip after trip to another room (some on the other floor, by
 * the stairs or the lift, each as likely), along the shortest path of the graph at a speed drawn
 * per trip (each link ± 10 %), a fixed offset to the side per link, a pause in each room; sampled
 * once a second from `phase` seconds.
 */
export function walk(office: Office, random: () => number, options: WalkOptions = DEFAULT_WALK, phase = random()): Walk {
  const byId = new Map(office.nodes.map((node) => [node.id, node]));
  const adjacent = new Map<number, Array<{ to: number; link: TrackerLink }>>();
  for (const link of office.links) {
    adjacent.set(link.source, [...(adjacent.get(link.source) ?? []), { to: link.target, link }]);
    adjacent.set(link.target, [...(adjacent.get(link.target) ?? []), { to: link.source, link }]);
  }
  const between = (range: [number, number]) => range[0] + random() * (range[1] - range[0]);
  const pieces: Piece[] = [];
  let t = 0;
  let room = office.rooms[Math.floor(random() * office.rooms.length)];
  const horizon = options.seconds + phase + 1;
  const pause = (at: { floorId: number; x: number; y: number }, seconds: number) => {
    pieces.push({ t0: t, t1: t + seconds, floorId: at.floorId, toFloor: at.floorId, switchAt: Infinity, from: at, to: at });
    t += seconds;
  };
  while (t < horizon) {
    const here = byId.get(room.centre)!;
    const side = (random() * 2 - 1) * options.sideM;
    pause({ floorId: here.floorId, x: here.x, y: here.y + side }, between(options.pause));
    const otherFloor = random() < options.otherFloor;
    const others = office.rooms.filter((r) => r !== room && (otherFloor ? r.floorId !== room.floorId : r.floorId === room.floorId));
    const next = others.length > 0 ? others[Math.floor(random() * others.length)] : office.rooms.find((r) => r !== room)!;
    const via = random() < 0.5 ? 'stairs' : 'elevator';
    const path = shortestPath(adjacent, byId, room.centre, next.centre, via);
    const speed = between(options.speed);
    for (let i = 1; i < path.length; i += 1) {
      const a = byId.get(path[i - 1].node)!;
      const b = byId.get(path[i].node)!;
      const tags = path[i].link!.tags;
      if (a.floorId !== b.floorId) {
        if (tags.includes('elevator')) pause({ floorId: a.floorId, x: a.x, y: a.y }, between(options.liftWaitS));
        const seconds = tags.includes('elevator') ? options.liftRideS : between(options.stairsS);
        pieces.push({
          t0: t,
          t1: t + seconds,
          floorId: a.floorId,
          toFloor: b.floorId,
          switchAt: t + seconds / 2,
          from: a,
          to: b,
          via: tags.includes('elevator') ? 'elevator' : 'stairs',
        });
        t += seconds;
        continue;
      }
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      // To the side of the link, perpendicular: a walker is never on the line exactly.
      const offset = (random() * 2 - 1) * options.sideM;
      const nx = -(b.y - a.y) / length;
      const ny = (b.x - a.x) / length;
      const seconds = length / (speed * (0.9 + 0.2 * random()));
      pieces.push({
        t0: t,
        t1: t + seconds,
        floorId: a.floorId,
        toFloor: a.floorId,
        switchAt: Infinity,
        from: { x: a.x + nx * offset, y: a.y + ny * offset },
        to: { x: b.x + nx * offset, y: b.y + ny * offset },
      });
      t += seconds;
    }
    room = next;
  }
  const samples: Sample[] = [];
  const floorChanges: FloorChange[] = [];
  let piece = 0;
  for (let second = 0; second < options.seconds; second += 1) {
    const at = second + phase;
    while (pieces[piece].t1 < at) piece += 1;
    const p = pieces[piece];
    const f = p.t1 > p.t0 ? (at - p.t0) / (p.t1 - p.t0) : 0;
    samples.push({ t: second, floorId: at >= p.switchAt ? p.toFloor : p.floorId, x: p.from.x + f * (p.to.x - p.from.x), y: p.from.y + f * (p.to.y - p.from.y) });
  }
  for (let i = 1; i < samples.length; i += 1) {
    if (samples[i].floorId === samples[i - 1].floorId) continue;
    const p = pieces.find((candidate) => candidate.switchAt <= samples[i].t + phase && candidate.switchAt > samples[i - 1].t + phase)!;
    floorChanges.push({ t: samples[i].t, from: samples[i - 1].floorId, to: samples[i].floorId, via: p.via! });
  }
  return { samples, floorChanges };
}

/** Dijkstra over the graph; floor changes only by the connector kind asked for (the other if that is all there is). */
function shortestPath(
  adjacent: Map<number, Array<{ to: number; link: TrackerLink }>>,
  byId: Map<number, TrackerNode>,
  from: number,
  to: number,
  via: 'stairs' | 'elevator',
): Array<{ node: number; link: TrackerLink | null }> {
  const cost = (link: TrackerLink, a: TrackerNode, b: TrackerNode) => (a.floorId === b.floorId ? Math.hypot(a.x - b.x, a.y - b.y) : link.tags.includes(via) ? 10 : 1000);
  const distance = new Map<number, number>([[from, 0]]);
  const previous = new Map<number, { node: number; link: TrackerLink }>();
  const open = new Set<number>([from]);
  while (open.size > 0) {
    let best = -1;
    for (const id of open) if (best < 0 || distance.get(id)! < distance.get(best)!) best = id;
    open.delete(best);
    if (best === to) break;
    for (const { to: next, link } of adjacent.get(best) ?? []) {
      const d = distance.get(best)! + cost(link, byId.get(best)!, byId.get(next)!);
      if (d < (distance.get(next) ?? Infinity)) {
        distance.set(next, d);
        previous.set(next, { node: best, link });
        open.add(next);
      }
    }
  }
  const path: Array<{ node: number; link: TrackerLink | null }> = [];
  for (let node = to; node !== from;) {
    const step = previous.get(node)!;
    path.unshift({ node, link: step.link });
    node = step.node;
  }
  path.unshift({ node: from, link: null });
  return path;
}

/**
 * How long a walk's floor changes took to show in a sequence of fixes (s): for each change, the
 * time to the first fix on the new floor before the next change (Infinity: none); the longest.
 * A change the walk ends too soon after to show counts as the time it had (a lower bound), not as
 * never. `samples[i]` is the index of the walk's sample that fix i is of, `floors[i]` the fix's floor.
 */
export function floorChangeDelay(walked: Walk, samples: readonly number[], floors: readonly number[]): number {
  let longest = 0;
  const end = walked.samples[walked.samples.length - 1]?.t ?? 0;
  walked.floorChanges.forEach((change, c) => {
    const next = walked.floorChanges[c + 1];
    const until = next?.t ?? Infinity;
    const i = samples.findIndex((sample, k) => walked.samples[sample].t >= change.t && walked.samples[sample].t < until && floors[k] === change.to);
    const delay = i >= 0 ? walked.samples[samples[i]].t - change.t : next ? Infinity : end + 1 - change.t;
    longest = Math.max(longest, delay);
  });
  return longest;
}

/** Distance from (x, y) to the nearest link of a floor (floor changes count as their landing). */
export function distanceToGraph(office: Office, floorId: number, x: number, y: number): number {
  const byId = new Map(office.nodes.map((node) => [node.id, node]));
  let best = Infinity;
  for (const link of office.links) {
    const a = byId.get(link.source)!;
    const b = byId.get(link.target)!;
    if (a.floorId !== floorId && b.floorId !== floorId) continue;
    const [p, q] = a.floorId === b.floorId ? [a, b] : [a, a];
    const dx = q.x - p.x;
    const dy = q.y - p.y;
    const l2 = dx * dx + dy * dy;
    const f = l2 > 0 ? Math.max(0, Math.min(1, ((x - p.x) * dx + (y - p.y) * dy) / l2)) : 0;
    best = Math.min(best, Math.hypot(x - p.x - f * dx, y - p.y - f * dy));
  }
  return best;
}
