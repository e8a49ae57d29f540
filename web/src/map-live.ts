import { type GeoJSONFeatureDiff, type GeoJSONSource, type Map as MapLibreMap, Marker } from 'maplibre-gl';
import { formatAge, ONLINE_WITHIN_MS } from './freshness';
import { accuracyRadiusExpression, LatestPerDevice, LiveDevice, staleDevices } from './live';

const SOURCE = 'devices';
export const DEVICE_DOT_LAYER = 'devices-dot';
const SWEEP_EVERY_MS = 2_000;
/** Age labels on frozen dots at most (each is a DOM element). */
const MAX_LABELS = 200;
/** An update not painted after this long (a hidden tab paints nothing) no longer holds the next one back. */
const STUCK_UPDATE_MS = 2_000;

function deviceFeature(device: LiveDevice, frozen: boolean): GeoJSON.Feature<GeoJSON.Point> {
  return { type: 'Feature', id: device.id, properties: { id: device.id, accuracy: device.accuracy, time: device.time, frozen }, geometry: { type: 'Point', coordinates: device.lngLat } };
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
 * a backlog. One freshness rule (freshness.ts): a dot whose last fix is older than 30 s is drawn
 * frozen, grey and labelled with its age; it leaves the map when the fences let the device go
 * (the organization's `stale_after_seconds`), so the map and the occupancy always agree.
 */
export class LiveDeviceLayer {
  private readonly latest = new LatestPerDevice();
  /** What the source holds: position and fix time per device. */
  private readonly shown = new Map<string, { time: number; lngLat: [number, number]; accuracy: number }>();
  private readonly leaving = new Set<string>();
  /** Devices drawn frozen, and the age label of each (up to MAX_LABELS). */
  private readonly frozen = new Set<string>();
  private readonly freezing = new Set<string>();
  private readonly labels = new Map<string, { marker: Marker; element: HTMLElement }>();
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
    private readonly staleAfterMs = 120_000,
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
      paint: {
        'circle-radius': 5,
        'circle-color': ['case', ['boolean', ['get', 'frozen'], false], '#8a94a3', '#1357d6'],
        'circle-stroke-color': ['case', ['boolean', ['get', 'frozen'], false], '#4a5462', '#fff'],
        'circle-stroke-width': 1.5,
      },
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

  /** Every device shown, newest fix first. */
  devices(): Array<{ id: string; time: number; accuracy: number; frozen: boolean }> {
    return [...this.shown].map(([id, d]) => ({ id, time: d.time, accuracy: d.accuracy, frozen: this.frozen.has(id) })).sort((a, b) => b.time - a.time);
  }

  /** The age labels shown, for the page's probe. */
  get frozenLabels(): Array<{ id: string; text: string }> {
    return [...this.labels].map(([id, label]) => ({ id, text: label.element.textContent ?? '' }));
  }

  /** A device shown now: where, since when, frozen or not. */
  device(id: string): { time: number; lngLat: [number, number]; accuracy: number; frozen: boolean } | undefined {
    const shown = this.shown.get(id);
    return shown && { ...shown, frozen: this.frozen.has(id) };
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    clearInterval(this.sweepTimer);
    this.map.off('render', this.onRender);
    for (const label of this.labels.values()) label.marker.remove();
    this.labels.clear();
  }

  private remove(ids: string[]): void {
    this.latest.forget(ids);
    for (const id of ids) this.leaving.add(id);
    this.schedule();
  }

  /** Devices past the stale timeout leave; devices past 30 s without a fix freeze; labels say how old each frozen one is. */
  private sweep(): void {
    const now = Date.now();
    const times = new Map([...this.shown].map(([id, d]) => [id, d.time]));
    const stale = staleDevices(times, now, this.staleAfterMs);
    if (stale.length) this.remove(stale);
    const gone = new Set(stale);
    const frozenAfter = Math.min(ONLINE_WITHIN_MS, this.staleAfterMs);
    for (const [id, time] of times) {
      if (!gone.has(id) && now - time > frozenAfter && !this.frozen.has(id)) this.freezing.add(id);
    }
    if (this.freezing.size) this.schedule();
    this.updateLabels(now);
  }

  private updateLabels(now: number): void {
    for (const [id, label] of this.labels) {
      const shown = this.shown.get(id);
      if (!shown || !this.frozen.has(id) || this.leaving.has(id)) {
        label.marker.remove();
        this.labels.delete(id);
      } else {
        label.element.textContent = `${formatAge(now - shown.time)} ago`;
        label.marker.setLngLat(shown.lngLat);
      }
    }
    for (const id of this.frozen) {
      if (this.labels.size >= MAX_LABELS) break;
      const shown = this.shown.get(id);
      if (!shown || this.labels.has(id) || this.leaving.has(id)) continue;
      const element = document.createElement('span');
      element.className = 'device-label';
      element.dataset.deviceId = id;
      element.textContent = `${formatAge(now - shown.time)} ago`;
      const marker = new Marker({ element, anchor: 'left' }).setLngLat(shown.lngLat).addTo(this.map);
      this.labels.set(id, { marker, element });
    }
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
    for (const id of remove) {
      this.shown.delete(id);
      this.frozen.delete(id);
      this.freezing.delete(id);
    }
    this.leaving.clear();
    const now = Date.now();
    const frozenAfter = Math.min(ONLINE_WITHIN_MS, this.staleAfterMs);
    for (const device of this.latest.drain()) {
      // A snapshot fix may already be old: it is drawn frozen from the start.
      const frozen = now - device.time > frozenAfter;
      this.freezing.delete(device.id);
      if (this.shown.has(device.id)) {
        update.push({
          id: device.id,
          newGeometry: { type: 'Point', coordinates: device.lngLat },
          addOrUpdateProperties: [
            { key: 'accuracy', value: device.accuracy },
            { key: 'time', value: device.time },
            { key: 'frozen', value: frozen },
          ],
        });
      } else add.push(deviceFeature(device, frozen));
      if (frozen) this.frozen.add(device.id);
      else this.frozen.delete(device.id);
      this.shown.set(device.id, { time: device.time, lngLat: device.lngLat, accuracy: device.accuracy });
    }
    for (const id of this.freezing) {
      if (!this.shown.has(id)) continue;
      update.push({ id, addOrUpdateProperties: [{ key: 'frozen', value: true }] });
      this.frozen.add(id);
    }
    this.freezing.clear();
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
    this.updateLabels(Date.now());
    if (this.latest.size || this.leaving.size || this.freezing.size) this.schedule();
  }
}
