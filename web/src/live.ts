/**
 * What the live views compute, kept free of the map and the DOM so it is unit-tested: the newest
 * fix per device between two frames, device features in GeoJSON order, accuracy in pixels,
 * and the colour a fence takes for its occupancy.
 */

/** A feature of `GET /realtime/positions` and of the realtime stream (contract 6.1: coordinates are [lat, lng]). */
export interface PositionFeature {
  type: 'Feature';
  id: string;
  userId: string | null;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: { time: string; floor_id: number | null; building_id: number | null; accuracy: number | null; yaw?: number | null; poi_id?: number | null };
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

/** Web Mercator: metres of ground per pixel at zoom 0 (MapLibre's world is 512 px wide there). */
const EARTH_CIRCUMFERENCE_M = 40_075_016.686;
export const metresPerPixelAtZoom0 = (lat: number) => (EARTH_CIRCUMFERENCE_M * Math.cos((lat * Math.PI) / 180)) / 512;

/**
 * A circle-radius expression drawing each device's `accuracy` (metres) to scale at every zoom:
 * pixels double per zoom level, so an exponential interpolation between zoom 0 and 24 is exact.
 */
export function accuracyRadiusExpression(lat: number): unknown[] {
  const pixelsPerMetre0 = 1 / metresPerPixelAtZoom0(lat);
  return ['interpolate', ['exponential', 2], ['zoom'], 0, ['*', ['get', 'accuracy'], pixelsPerMetre0], 24, ['*', ['get', 'accuracy'], pixelsPerMetre0 * 2 ** 24]];
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

/**
 * The default of how long a device stays on the map without a fix: the geofencing default of
 * `stale_after_seconds` (see freshness.ts); the map uses the organization's own setting.
 */
export const STALE_AFTER_MS = 120_000;

export function staleDevices(times: ReadonlyMap<string, number>, now: number, staleAfterMs = STALE_AFTER_MS): string[] {
  const stale: string[] = [];
  for (const [id, time] of times) if (now - time > staleAfterMs) stale.push(id);
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
  /** The age labels of frozen dots: device id and the words shown. */
  frozenLabels(): Array<{ id: string; text: string }>;
  renderedFences(): Array<{ id: string; occupants: number; colour: string }>;
  renderedPois(): Array<{ name: string }>;
  /** Where a point ([lng, lat]) is drawn, in pixels from the map's top-left corner. */
  project(lngLat: [number, number]): { x: number; y: number };
}
