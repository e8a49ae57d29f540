/**
 * What the directions mode and a device's live navigation draw and say, kept free of the map
 * and the DOM so it is unit-tested: the request from the ends and options chosen, a route's
 * part on one floor (lines, ends, floor changes), its indications in words, and a live stream
 * item's navigation as what to draw and what to show.
 */
import type { LngLat } from '../geo';
import type { components } from '../api-schema';

type Schemas = components['schemas'];
/** The fields with a default (all but the ends) may be left out. */
export type DirectionsRequest = Pick<Schemas['DirectionsRequestDto'], 'from' | 'to'> & Partial<Omit<Schemas['DirectionsRequestDto'], 'from' | 'to'>>;
export type DirectionsRoute = Schemas['DirectionsResponseDto'];
export type RouteIndication = Schemas['RouteIndicationDto'];
export type RoutePoint = Schemas['RoutePointDto'];

export const ACCESSIBILITY_MODES = [
  { id: 'CHOOSE_SHORTEST', label: 'Quickest (any)' },
  { id: 'ONLY_ACCESSIBLE', label: 'Accessible only' },
  { id: 'ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES', label: 'No lifts or ramps' },
] as const;
export type AccessibilityMode = (typeof ACCESSIBILITY_MODES)[number]['id'];
export const CONNECTOR_TYPES = ['stairs', 'elevator', 'escalator', 'ramp'] as const;
export type ConnectorType = (typeof CONNECTOR_TYPES)[number];
/** The server's default walking speed, m/s. */
export const DEFAULT_SPEED_M_S = 1.2;

/** An end of a route as clicked: a point of a floor, or a POI. */
export type RouteEnd = { kind: 'point'; floorId: number; lngLat: LngLat } | { kind: 'poi'; poiId: number; floorId: number; name: string; lngLat: LngLat };

export interface DirectionsOptions {
  accessibilityMode: AccessibilityMode;
  minimizeFloorChanges: boolean;
  /** Per connector type: used as any link, avoided (its time multiplied) or never used. */
  connectors: Record<ConnectorType, 'use' | 'avoid' | 'exclude'>;
  speedMS: number;
}

export const DEFAULT_OPTIONS: DirectionsOptions = {
  accessibilityMode: 'CHOOSE_SHORTEST',
  minimizeFloorChanges: false,
  connectors: { stairs: 'use', elevator: 'use', escalator: 'use', ramp: 'use' },
  speedMS: DEFAULT_SPEED_M_S,
};

/**
 * The directions mode's state, kept by the floor map page so that it survives a change of
 * floor (the map and the panels are made anew for each floor; the ends chosen stay).
 */
export interface DirectionsState {
  from?: RouteEnd;
  to?: RouteEnd;
  picking: 'from' | 'to' | null;
  options: DirectionsOptions;
  /** The answer for the request `key` (its body as JSON): a route, an error, or still on its way. */
  result?: { key: string; route?: DirectionsRoute; error?: unknown; loading?: boolean };
}

export const INITIAL_DIRECTIONS: DirectionsState = { picking: 'from', options: DEFAULT_OPTIONS };

const endBody = (end: RouteEnd) => (end.kind === 'poi' ? { poi_id: end.poiId } : { floor_id: end.floorId, lat: end.lngLat[1], lng: end.lngLat[0] });

/** The body of `POST /buildings/{id}/directions`. */
export function directionsBody(from: RouteEnd, to: RouteEnd, options: DirectionsOptions): DirectionsRequest {
  const typed = (choice: 'avoid' | 'exclude') => CONNECTOR_TYPES.filter((c) => options.connectors[c] === choice);
  return {
    from: endBody(from),
    to: endBody(to),
    accessibility_mode: options.accessibilityMode,
    minimize_floor_changes: options.minimizeFloorChanges,
    avoid: typed('avoid'),
    exclude: typed('exclude'),
    speed_m_s: options.speedMS,
  };
}

/**
 * The POI a click takes: the nearest of the floor's POIs within `radiusPx` of it on screen
 * (`project` gives a point's pixels), or none.
 */
export function poiNear<P extends { id: number; position: { lat: number; lng: number } }>(
  pois: readonly P[],
  click: LngLat,
  project: (lngLat: LngLat) => { x: number; y: number },
  radiusPx: number,
): P | undefined {
  const at = project(click);
  let best: P | undefined;
  let bestDistance = radiusPx;
  for (const poi of pois) {
    const p = project([poi.position.lng, poi.position.lat]);
    const distance = Math.hypot(p.x - at.x, p.y - at.y);
    if (distance <= bestDistance) {
      best = poi;
      bestDistance = distance;
    }
  }
  return best;
}

/** A marker of a route on a floor: its start, its end, or where a floor change leaves or arrives. */
export interface RouteMarker {
  kind: 'start' | 'end' | 'leave' | 'arrive';
  lngLat: LngLat;
  /** For leave: the floor the ride goes to; for arrive: the floor it comes from. */
  otherFloorId?: number;
}

/** What a route draws on one floor: its lines ([lng, lat]) and markers. */
export interface FloorDrawing {
  lines: LngLat[][];
  markers: RouteMarker[];
}

const lngLatOf = (p: { lat: number; lng: number }): LngLat => [p.lng, p.lat];

/**
 * A route's part on one floor: the lines of its segments there, the start and end if they are
 * there, and a marker where each ride of a connector leaves this floor or arrives on it (a ride
 * through several floors is one, its ends only: a floor passed through draws nothing).
 */
export function routeOnFloor(route: Pick<DirectionsRoute, 'from' | 'to' | 'points' | 'edges' | 'segments'>, floorId: number): FloorDrawing {
  const lines = route.segments.filter((s) => s.floor_id === floorId && s.points.length >= 2).map((s) => s.points.map(lngLatOf));
  const markers: RouteMarker[] = [];
  if (route.from.floor_id === floorId) markers.push({ kind: 'start', lngLat: lngLatOf(route.from) });
  for (const ride of rides(route)) {
    const start = route.points[ride.from];
    const end = route.points[ride.to];
    if (start.floor_id === floorId) markers.push({ kind: 'leave', lngLat: lngLatOf(start), otherFloorId: end.floor_id });
    if (end.floor_id === floorId) markers.push({ kind: 'arrive', lngLat: lngLatOf(end), otherFloorId: start.floor_id });
  }
  if (route.to.floor_id === floorId) markers.push({ kind: 'end', lngLat: lngLatOf(route.to) });
  return { lines, markers };
}

/** Runs of consecutive floor-changing edges: from the point a ride starts at to the one it ends at. */
function rides(route: Pick<DirectionsRoute, 'points' | 'edges'>): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  let current: { from: number; to: number; connector: string } | null = null;
  for (const edge of route.edges) {
    const changes = edge.connector !== null && route.points[edge.from]?.floor_id !== route.points[edge.to]?.floor_id;
    if (changes && current && current.to === edge.from && current.connector === edge.connector) current.to = edge.to;
    else if (changes) {
      if (current) out.push(current);
      current = { from: edge.from, to: edge.to, connector: edge.connector! };
    } else if (current) {
      out.push(current);
      current = null;
    }
  }
  if (current) out.push(current);
  return out.map(({ from, to }) => ({ from, to }));
}

type RouteShape = Pick<DirectionsRoute, 'from' | 'to' | 'points' | 'edges' | 'segments'>;

/**
 * What is left of a route when `distanceRemaining` metres of it are (the progress of a live
 * navigation): cut where that many metres of its edges remain, the cut point its new start, its
 * segments made again from what is left. All of it when nothing is walked yet.
 */
export function remainingRoute(route: RouteShape, distanceRemaining: number): RouteShape {
  const total = route.edges.reduce((sum, e) => sum + e.distance, 0);
  const walked = total - Math.max(0, distanceRemaining);
  if (!(walked > 0) || route.edges.length === 0) return route;
  let before = 0;
  for (let i = 0; i < route.edges.length; i++) {
    const edge = route.edges[i];
    const last = i === route.edges.length - 1;
    if (!last && before + edge.distance <= walked) {
      before += edge.distance;
      continue;
    }
    const a = route.points[edge.from];
    const b = route.points[edge.to];
    const t = edge.distance > 0 ? Math.min(1, Math.max(0, (walked - before) / edge.distance)) : 1;
    const along = (p: number, q: number) => p + (q - p) * t;
    const cut: RoutePoint = { floor_id: t < 1 ? a.floor_id : b.floor_id, x: along(a.x, b.x), y: along(a.y, b.y), lat: along(a.lat, b.lat), lng: along(a.lng, b.lng) };
    const shift = edge.to - 1;
    const points = [cut, ...route.points.slice(edge.to)];
    const edges = [{ ...edge, from: 0, to: 1, distance: edge.distance * (1 - t) }, ...route.edges.slice(i + 1).map((e) => ({ ...e, from: e.from - shift, to: e.to - shift }))];
    return { from: cut, to: route.to, points, edges, segments: segmentsOf(points, edges) };
  }
  return route;
}

/** Consecutive points on one floor, as the directions answer's segments. */
function segmentsOf(points: RoutePoint[], edges: DirectionsRoute['edges']): DirectionsRoute['segments'] {
  const segments: DirectionsRoute['segments'] = [{ floor_id: points[0].floor_id, points: [points[0]] }];
  for (const edge of edges) {
    const next = points[edge.to];
    const current = segments[segments.length - 1];
    if (points[edge.from].floor_id === next.floor_id) current.points.push(next);
    else segments.push({ floor_id: next.floor_id, points: [next] });
  }
  return segments.filter((s) => s.points.length >= 2);
}

/** The floors a route draws on, in the order it visits them. */
export const routeFloors = (route: Pick<DirectionsRoute, 'points'>): number[] => [...new Set(route.points.map((p) => p.floor_id))];

/** Metres in words: "35 m", "1.2 km". */
export function formatDistance(metres: number): string {
  if (metres >= 1000) return `${(metres / 1000).toFixed(1)} km`;
  return `${Math.round(metres)} m`;
}

/** Seconds in words: "45 s", "2 min 5 s", "1 h 3 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/** An indication as listed: its words, its metres, and the floor a click on it shows. */
export interface IndicationRow {
  action: RouteIndication['action'];
  text: string;
  distance: string;
  /** The floor it happens on, by name. */
  floorName: string;
  /** A change of floor: the floor it leads to, by name. */
  targetFloorName?: string;
  /** The floor shown when the row is clicked: the one a change of floor leads to, else the one it happens on. */
  showFloorId: number;
}

export function indicationRows(indications: readonly RouteIndication[], floorName: (id: number) => string): IndicationRow[] {
  return indications.map((i) => {
    const target = i.action === 'change_floor' && i.next_floor_id !== null ? i.next_floor_id : undefined;
    return {
      action: i.action,
      text: i.text,
      distance: formatDistance(i.distance),
      floorName: floorName(i.floor_id),
      ...(target !== undefined && { targetFloorName: floorName(target) }),
      showFloorId: target ?? i.floor_id,
    };
  });
}

/** A device's navigation as the live position stream carries it (`navigation` of a guided device's item). */
export interface LiveNavigation {
  destination: RoutePoint;
  distance_remaining: number;
  duration_remaining: number;
  next_indication: RouteIndication | null;
  off_route: boolean;
  route: DirectionsRoute;
  arrived?: boolean;
}

/** What the live map shows of a guided device: its remaining route on the floor shown, and its progress in words. */
export interface NavigationView {
  deviceId: string;
  /** The fix's time (epoch ms): a newer item replaces an older one, never the reverse. */
  time: number;
  drawing: FloorDrawing;
  distanceRemaining: string;
  durationRemaining: string;
  nextIndication: string | null;
  offRoute: boolean;
  arrived: boolean;
  destinationFloorId: number;
}

const isNavigation = (value: unknown): value is LiveNavigation => {
  const n = value as Partial<LiveNavigation> | null;
  return (
    !!n &&
    typeof n === 'object' &&
    typeof n.distance_remaining === 'number' &&
    typeof n.duration_remaining === 'number' &&
    !!n.destination &&
    !!n.route &&
    Array.isArray(n.route.segments) &&
    Array.isArray(n.route.points) &&
    Array.isArray(n.route.edges)
  );
};

/**
 * A live stream item (a position feature) in, what to draw and show of its device's navigation
 * out: null when it carries none (the device is not guided, or no longer). `navigation` is read
 * at the feature's top level or in its properties; the remaining route is drawn from its
 * segments on `floorId` (what is left of it by `distance_remaining`), ending at the destination.
 */
export function navigationView(
  item: { id: string | number; navigation?: unknown; properties?: { time?: string; navigation?: unknown } | null },
  floorId: number,
): NavigationView | null {
  const navigation = item.navigation ?? item.properties?.navigation;
  if (!isNavigation(navigation)) return null;
  const drawing = routeOnFloor(remainingRoute(navigation.route, navigation.distance_remaining), floorId);
  // The route answered may start where the device was; its destination is the navigation's.
  const markers = drawing.markers.filter((m) => m.kind !== 'start' && m.kind !== 'end');
  if (navigation.destination.floor_id === floorId) markers.push({ kind: 'end', lngLat: lngLatOf(navigation.destination) });
  const arrived = navigation.arrived === true;
  return {
    deviceId: String(item.id),
    time: Date.parse(item.properties?.time ?? '') || 0,
    drawing: arrived ? { lines: [], markers: markers.filter((m) => m.kind === 'end') } : { lines: drawing.lines, markers },
    distanceRemaining: formatDistance(navigation.distance_remaining),
    durationRemaining: formatDuration(navigation.duration_remaining),
    nextIndication: arrived ? null : (navigation.next_indication?.text ?? null),
    offRoute: navigation.off_route === true,
    arrived,
    destinationFloorId: navigation.destination.floor_id,
  };
}
