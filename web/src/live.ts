/**
 * What the live views compute, kept free of the map and the DOM so it is unit-tested: the newest
 * fix per device between two frames, device features in GeoJSON order, accuracy in pixels,
 * and the colour a fence takes for its occupancy.
 */
import { freshnessOfAge } from './freshness';

/** A feature of `GET /realtime/positions` and of the realtime stream (contract 6.1: coordinates are [lat, lng]). */
export interface PositionFeature {
  type: 'Feature';
  id: string;
  userId: string | null;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: { time: string; floor_id: number | null; building_id: number | null; accuracy: number | null; yaw?: number | null; poi_id?: number | null; navigation?: unknown };
  /** A guided device's navigation (issue 40), shaped by floor-map/directions.navigationView. */
  navigation?: unknown;
}

/** A device as the map draws it: GeoJSON order, the fix time as a number for comparisons. */
export interface LiveDevice {
  id: string;
  lngLat: [number, number];
  accuracy: number;
  time: number;
  floorId: number | null;
}

export function toLiveDevice(feature: PositionFeature): LiveDevice | null {
  const [lat, lng] = feature.geometry?.coordinates ?? [];
  const time = Date.parse(feature.properties?.time);
  if (typeof lat !== 'number' || typeof lng !== 'number' || Number.isNaN(time)) return null;
  return { id: String(feature.id), lngLat: [lng, lat], accuracy: feature.properties.accuracy ?? 0, time, floorId: feature.properties.floor_id ?? null };
}

/**
 * Fixes that arrived since the last frame, at most one per device (the newest by fix time: the
 * snapshot and the stream can cross, and an older fix must never move a dot back).
 */
export class LatestPerDevice {
  private readonly pending = new Map<string, LiveDevice>();
  private readonly shown = new Map<string, number>();

  /** Keeps the fix if it is newer than what is shown or waiting; says whether it was kept. */
  offer(device: LiveDevice): boolean {
    const newest = Math.max(this.shown.get(device.id) ?? -Infinity, this.pending.get(device.id)?.time ?? -Infinity);
    if (device.time < newest) return false;
    this.pending.set(device.id, device);
    return true;
  }

  get size(): number {
    return this.pending.size;
  }

  /** The waiting fixes, now counted as shown. */
  drain(): LiveDevice[] {
    const out = [...this.pending.values()];
    this.pending.clear();
    for (const device of out) this.shown.set(device.id, device.time);
    return out;
  }

  /** Forgets devices (left the floor, gone quiet) so a later fix brings them back. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) {
      this.shown.delete(id);
      this.pending.delete(id);
    }
  }
}

/** A live trail: the fixes of the last two minutes, at most this many, behind each dot. */
export const TRAIL_MS = 120_000;
export const TRAIL_POINTS = 30;

/**
 * The recent fixes of each device, oldest first: every fix offered (not only the one per frame
 * the dot shows), in time order whatever order they arrive in, the oldest dropped past
 * TRAIL_MS before the newest or past TRAIL_POINTS.
 */
export class RecentTrails {
  private readonly trails = new Map<string, Array<{ time: number; lngLat: [number, number] }>>();

  constructor(
    private readonly spanMs = TRAIL_MS,
    private readonly maxPoints = TRAIL_POINTS,
  ) {}

  add(device: LiveDevice): void {
    let trail = this.trails.get(device.id);
    if (!trail) this.trails.set(device.id, (trail = []));
    let i = trail.length;
    while (i > 0 && trail[i - 1].time > device.time) i--;
    if (i > 0 && trail[i - 1].time === device.time) trail[i - 1] = { time: device.time, lngLat: device.lngLat };
    else trail.splice(i, 0, { time: device.time, lngLat: device.lngLat });
    const newest = trail[trail.length - 1].time;
    let drop = 0;
    while (drop < trail.length - 1 && (newest - trail[drop].time > this.spanMs || trail.length - drop > this.maxPoints)) drop++;
    if (drop) trail.splice(0, drop);
  }

  /** The device's trail, [lng, lat] points oldest first (empty for a device not seen). */
  of(id: string): Array<[number, number]> {
    return (this.trails.get(id) ?? []).map((p) => p.lngLat);
  }

  forget(ids: Iterable<string>): void {
    for (const id of ids) this.trails.delete(id);
  }
}

/** The fence colours by occupancy, from empty to crowded; the map and the fence list use the same ones. */
export const OCCUPANCY_SCALE: ReadonlyArray<{ from: number; colour: string; label: string }> = [
  { from: 0, colour: '#7f8fa6', label: 'empty' },
  { from: 1, colour: '#2e9e5b', label: '1–4 inside' },
  { from: 5, colour: '#d98c10', label: '5–19 inside' },
  { from: 20, colour: '#c0392b', label: '20 or more inside' },
];

export function occupancyColour(occupants: number): string {
  let colour = OCCUPANCY_SCALE[0].colour;
  for (const step of OCCUPANCY_SCALE) if (occupants >= step.from) colour = step.colour;
  return colour;
}

/** The devices gone offline (see freshness.ts): too long without a fix to stay on the map. */
export function staleDevices(times: ReadonlyMap<string, number>, now: number, staleAfterMs: number): string[] {
  const stale: string[] = [];
  for (const [id, time] of times) if (freshnessOfAge(now - time, staleAfterMs) === 'offline') stale.push(id);
  return stale;
}

/**
 * Read-only hooks the floor map puts on `window.cartographLiveMap` for the browser tests: what it
 * painted (fix times, when) and what it renders; nothing here changes the page.
 */
export interface LiveMapProbe {
  /** Date.now() of the paint that first showed the newest fixes. */
  paintedAt(): number;
  paintedDevices(): number;
  /** Date.now() of the last fix the page received. */
  receivedAt(): number;
  /** How many devices the last paint showed with a fix at or after `time` (epoch ms). */
  fixesPaintedSince(time: number): number;
  renderedDevices(): Array<{ id: string; lngLat: [number, number]; frozen: boolean }>;
  /** The live trails drawn: each device's points ([lng, lat]), oldest first. */
  renderedTrails(): Array<{ id: string; points: Array<[number, number]> }>;
  /** The age labels of frozen dots: device id and the words shown. */
  frozenLabels(): Array<{ id: string; text: string }>;
  renderedFences(): Array<{ id: string; occupants: number; colour: string }>;
  renderedPois(): Array<{ name: string }>;
  /** The remaining routes of the guided devices drawn on the floor (issue 40's live navigation). */
  renderedNavigations(): Array<{
    id: string;
    drawing: { lines: Array<Array<[number, number]>>; markers: Array<{ kind: string; lngLat: [number, number] }> };
    offRoute: boolean;
    arrived: boolean;
  }>;
  /** Where a point ([lng, lat]) is drawn, in pixels from the map's top-left corner. */
  project(lngLat: [number, number]): { x: number; y: number };
  /** The map's centre ([lng, lat]) and zoom. */
  view(): { centre: [number, number]; zoom: number };
}
