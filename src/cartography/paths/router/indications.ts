/**
 * The indications of a route, like the hosted original's: what to do and how far to walk until the
 * next one. Walks within a floor are merged into one `go_ahead` while they keep within TURN_DEG of
 * their direction at every point; a sharper bend is a `turn_left` or `turn_right` (left when the
 * cross product of the two directions is positive: the building frame is counter-clockwise, y to
 * the north of an unrotated building), each followed by the walk up to the next. A ride (consecutive
 * floor links of one connector type) is one `change_floor` naming the floor it ends on, however many
 * floors it passes; the last indication is `arrive`. The start and end snaps count into the first
 * and last walks, so the indications' distances add up to the route's.
 */
import type { ConnectorType } from './connectors';

export type IndicationAction = 'go_ahead' | 'turn_left' | 'turn_right' | 'change_floor' | 'arrive';

export interface RouteIndication {
  action: IndicationAction;
  /** Metres walked following it (a ride: the horizontal length of its floor links; arrive: 0). */
  distance: number;
  floor_id: number;
  /** The floor a change_floor leads to (the end of the whole ride); null for the other actions. */
  next_floor_id: number | null;
  text: string;
  /** The index in the route's points where it applies. */
  point: number;
}

/** Bends under this many degrees are walked straight on. */
export const TURN_DEG = 30;
const SHARP_DEG = 120;

export interface IndicationPoint {
  floor_id: number;
  x: number;
  y: number;
}

export interface IndicationEdge {
  from: number;
  to: number;
  distance: number;
  floor_id: number;
  connector: ConnectorType | null;
}

export interface FloorNaming {
  /** How the floor is named in a text ("floor 2", "Mezzanine"). */
  label(floorId: number): string;
  /** Its level (NaN when unknown): says up or down. */
  level(floorId: number): number;
}

/** How far, in words. */
export function metres(distance: number): string {
  return distance < 1 ? 'less than 1 m' : `${Math.round(distance)} m`;
}

function rideText(connector: ConnectorType, from: number, to: number, naming: FloorNaming): string {
  const floor = naming.label(to);
  const delta = naming.level(to) - naming.level(from);
  const way = delta > 0 ? 'up' : delta < 0 ? 'down' : null;
  switch (connector) {
    case 'elevator':
      return `Take the elevator to ${floor}`;
    case 'escalator':
      return way ? `Take the escalator ${way} to ${floor}` : `Take the escalator to ${floor}`;
    case 'stairs':
      return way ? `Go ${way} the stairs to ${floor}` : `Take the stairs to ${floor}`;
    case 'ramp':
      return way ? `Go ${way} the ramp to ${floor}` : `Take the ramp to ${floor}`;
  }
}

interface Step {
  distance: number;
  /** The direction walked; 0, 0 for a snap leg or a walk of no length (no turn is judged there). */
  dx: number;
  dy: number;
  point: number;
}

type Leg = { walk: true; floor: number; steps: Step[] } | { walk: false; connector: ConnectorType; floor: number; next: number; distance: number; point: number };

/**
 * The indications of points joined by edges (edges[i] from points[i] to points[i + 1]); rideStart[i]
 * tells whether floor edge i starts a ride; snapFrom and snapTo are the snap legs' metres.
 */
export function buildIndications(
  points: readonly IndicationPoint[],
  edges: readonly IndicationEdge[],
  rideStart: readonly boolean[],
  snapFrom: number,
  snapTo: number,
  naming: FloorNaming,
): RouteIndication[] {
  const legs: Leg[] = [];
  let walk: Extract<Leg, { walk: true }> | null = { walk: true, floor: points[0].floor_id, steps: [] };
  legs.push(walk);
  if (snapFrom > 0) walk.steps.push({ distance: snapFrom, dx: 0, dy: 0, point: 0 });
  for (let i = 0; i < edges.length; i += 1) {
    const edge = edges[i];
    const a = points[edge.from];
    const b = points[edge.to];
    if (edge.connector === null) {
      if (!walk) {
        walk = { walk: true, floor: a.floor_id, steps: [] };
        legs.push(walk);
      }
      walk.steps.push({ distance: edge.distance, dx: b.x - a.x, dy: b.y - a.y, point: edge.from });
      continue;
    }
    const last = legs[legs.length - 1];
    if (!walk && !last.walk && !rideStart[i] && last.connector === edge.connector) {
      last.distance += edge.distance;
      last.next = b.floor_id;
    } else {
      legs.push({ walk: false, connector: edge.connector, floor: a.floor_id, next: b.floor_id, distance: edge.distance, point: edge.from });
    }
    walk = null;
  }
  const end = points.length - 1;
  if (snapTo > 0) {
    if (!walk) {
      walk = { walk: true, floor: points[end].floor_id, steps: [] };
      legs.push(walk);
    }
    walk.steps.push({ distance: snapTo, dx: 0, dy: 0, point: end });
  }

  const out: RouteIndication[] = [];
  const turn = Math.tan((TURN_DEG * Math.PI) / 180);
  for (const leg of legs) {
    if (!leg.walk) {
      const text = rideText(leg.connector, leg.floor, leg.next, naming);
      out.push({ action: 'change_floor', distance: leg.distance, floor_id: leg.floor, next_floor_id: leg.next, text, point: leg.point });
      continue;
    }
    let action: IndicationAction = 'go_ahead';
    let bend = '';
    let run = 0;
    let point = leg.steps.length > 0 ? leg.steps[0].point : 0;
    let px = 0;
    let py = 0;
    const flush = () => {
      if (run <= 0 && action === 'go_ahead') return;
      const side = action === 'turn_left' ? 'left' : 'right';
      const text = action === 'go_ahead' ? `Go ahead for ${metres(run)}` : `${bend || `Turn ${side}`} and go ahead for ${metres(run)}`;
      out.push({ action, distance: run, floor_id: leg.floor, next_floor_id: null, text, point });
    };
    for (const step of leg.steps) {
      if (step.dx !== 0 || step.dy !== 0) {
        if (px !== 0 || py !== 0) {
          const cross = px * step.dy - py * step.dx;
          const dot = px * step.dx + py * step.dy;
          // |angle| ≥ TURN_DEG: |cross| ≥ tan(TURN_DEG)·dot, or any bend of 90° or more.
          if (dot <= 0 || Math.abs(cross) >= turn * dot) {
            flush();
            action = cross > 0 ? 'turn_left' : 'turn_right';
            const angle = Math.abs(Math.atan2(cross, dot));
            bend = cross === 0 ? 'Turn around' : angle > (SHARP_DEG * Math.PI) / 180 ? `Turn sharp ${cross > 0 ? 'left' : 'right'}` : '';
            run = 0;
            point = step.point;
          }
        }
        px = step.dx;
        py = step.dy;
      }
      run += step.distance;
    }
    flush();
  }
  const last = points[end];
  out.push({ action: 'arrive', distance: 0, floor_id: last.floor_id, next_floor_id: null, text: 'You have arrived at your destination', point: end });
  return out;
}
