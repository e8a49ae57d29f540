import type { GeoJSONFeatureDiff, GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import { accuracyRadiusExpression, LatestPerDevice, LiveDevice, staleDevices } from './live';

const SOURCE = 'devices';
export const DEVICE_DOT_LAYER = 'devices-dot';
const SWEEP_EVERY_MS = 5_000;
/** An update not painted after this long (a hidden tab paints nothing) no longer holds the next one back. */
const STUCK_UPDATE_MS = 2_000;

function deviceFeature(device: LiveDevice): GeoJSON.Feature<GeoJSON.Point> {
  return { type: 'Feature', id: device.id, properties: { id: device.id, accuracy: device.accuracy, time: device.time }, geometry: { type: 'Point', coordinates: device.lngLat } };
}

/** What was on screen at the last paint: read by the browser tests (lag, positions), never written from outside. */
export interface PaintedDevices {
  /** Date.now() of the paint that first showed these fixes. */
  at: number;
  /** Fix time (epoch ms) and position per device shown. */
  devices: ReadonlyMap<string, { time: number; lngLat: [number, number] }>;
}

/**
 * The live devices of one floor on the map: a dot and an accuracy circle each, in one GeoJSON
 * source changed in place (`updateData` diffs, not the whole collection) at most once per
 * animation frame and only once the last update is painted, however many fixes arrived
 * meanwhile (one per device is kept), so a thousand devices reporting every second never build
 * a backlog.
 */
export class LiveDeviceLayer {
  private readonly latest = new LatestPerDevice();
  /** What the source holds: position and fix time per device. */
  private readonly shown = new Map<string, { time: number; lngLat: [number, number] }>();
  private readonly leaving = new Set<string>();
  private frame = 0;
  private readonly sweepTimer: ReturnType<typeof setInterval>;
  private awaitingPaint: Map<string, { time: number; lngLat: [number, number] }> | null = null;
  private painted: PaintedDevices = { at: 0, devices: new Map() };
  private readonly onRender = () => this.notePaint();
  private destroyed = false;
  private lastReceivedAt = 0;
  private lastCount = 0;
  /** Date.now() when the update now in the pipeline was sent; 0 when none is. */
  private updatingSince = 0;

  constructor(
    private readonly map: MapLibreMap,
    private readonly floorId: number,
    centreLat: number,
    private readonly onCount: (count: number) => void = () => {},
  ) {
    // Tiles cut at the zoom shown (up to 24): an overscaled tile of a lower zoom would hold every device, and each of
    // the several tiles on screen would rebuild all of them on every update.
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, maxzoom: 24 });
    map.addLayer({
      id: 'devices-accuracy',
      type: 'circle',
      source: SOURCE,
      paint: {
        'circle-radius': accuracyRadiusExpression(centreLat) as never,
        'circle-color': '#3478f6',
        'circle-opacity': 0.12,
        'circle-stroke-color': '#3478f6',
        'circle-stroke-opacity': 0.35,
        'circle-stroke-width': 1,
        'circle-pitch-alignment': 'map',
      },
    });
    map.addLayer({
      id: DEVICE_DOT_LAYER,
      type: 'circle',
      source: SOURCE,
      paint: { 'circle-radius': 5, 'circle-color': '#1357d6', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 },
    });
    map.on('render', this.onRender);
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
  }

  /** A fix from the snapshot or the stream: shown if it is on this floor and newer than what is shown. */
  offer(device: LiveDevice): void {
    this.lastReceivedAt = Date.now();
    if (device.floorId !== this.floorId) {
      if (this.shown.has(device.id)) this.remove([device.id]);
      return;
    }
    if (this.latest.offer(device)) this.schedule();
  }

  get count(): number {
    return this.shown.size;
  }

  /** Date.now() of the last fix offered (from the stream or the snapshot). */
  get receivedAt(): number {
    return this.lastReceivedAt;
  }

  get lastPaint(): PaintedDevices {
    return this.painted;
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    clearInterval(this.sweepTimer);
    this.map.off('render', this.onRender);
  }

  private remove(ids: string[]): void {
    this.latest.forget(ids);
    for (const id of ids) this.leaving.add(id);
    this.schedule();
  }

  private sweep(): void {
    const times = new Map([...this.shown].map(([id, d]) => [id, d.time]));
    const stale = staleDevices(times, Date.now());
    if (stale.length) this.remove(stale);
  }

  private schedule(): void {
    if (this.frame || this.destroyed) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.flush();
    });
  }

  private flush(): void {
    const source = this.map.getSource(SOURCE) as GeoJSONSource | undefined;
    if (!source) return;
    // One update in the pipeline at a time: while the worker and the GPU are busy with the last
    // one, fixes keep collecting (one per device) and go together once it is painted. Each update
    // rebuilds the tiles it touches, so a slow machine gets fewer, larger updates, not a backlog.
    if (this.updatingSince && Date.now() - this.updatingSince < STUCK_UPDATE_MS) return;
    const add: GeoJSON.Feature[] = [];
    const update: GeoJSONFeatureDiff[] = [];
    const remove = [...this.leaving].filter((id) => this.shown.has(id));
    for (const id of remove) this.shown.delete(id);
    this.leaving.clear();
    for (const device of this.latest.drain()) {
      if (this.shown.has(device.id)) {
        update.push({
          id: device.id,
          newGeometry: { type: 'Point', coordinates: device.lngLat },
          addOrUpdateProperties: [
            { key: 'accuracy', value: device.accuracy },
            { key: 'time', value: device.time },
          ],
        });
      } else add.push(deviceFeature(device));
      this.shown.set(device.id, { time: device.time, lngLat: device.lngLat });
    }
    if (!add.length && !update.length && !remove.length) return;
    const snapshot = new Map(this.shown);
    this.updatingSince = Date.now();
    void source.updateData({ remove, add, update }).then(() => {
      // The worker has the data and the tiles it touches are reloading; the paint that follows with the source
      // loaded shows it. No repaint is asked for here: one now would draw the old tiles again, and a frame of
      // 2,000 circles costs hundreds of milliseconds in software WebGL.
      this.awaitingPaint = snapshot;
    });
    if (this.shown.size !== this.lastCount) {
      this.lastCount = this.shown.size;
      this.onCount(this.shown.size);
    }
  }

  private notePaint(): void {
    if (!this.awaitingPaint || !this.map.isSourceLoaded(SOURCE)) return;
    this.painted = { at: Date.now(), devices: this.awaitingPaint };
    this.awaitingPaint = null;
    this.updatingSince = 0;
    if (this.latest.size || this.leaving.size) this.schedule();
  }
}
