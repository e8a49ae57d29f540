import * as L from 'leaflet';
import { canvasFor, latLng } from './floor-map/map-setup';
import { DEFAULT_STALE_AFTER_S, formatAge, freshnessOfAge } from './freshness';
import { placeLabels } from './label-placement';
import { LatestPerDevice, LiveDevice, RecentTrails, staleDevices } from './live';

const SWEEP_EVERY_MS = 2_000;
/** Age labels on frozen dots at most (each is a DOM element). */
const MAX_LABELS = 200;
/** How near a dot the pointer must be to be on it, in pixels. */
const HIT_PX = 8;
const LIVE = { color: '#fff', fillColor: '#1357d6' };
const FROZEN = { color: '#4a5462', fillColor: '#8a94a3' };

/** What was on screen at the last paint: read by the browser tests (lag, positions), never written from outside. */
export interface PaintedDevices {
  /** Date.now() of the paint that first showed these fixes. */
  at: number;
  /** Fix time (epoch ms) and position per device shown. */
  devices: ReadonlyMap<string, { time: number; lngLat: [number, number] }>;
}

interface Shown {
  time: number;
  lngLat: [number, number];
  accuracy: number;
  dot: L.CircleMarker;
  circle: L.Circle;
  trail: L.Polyline | null;
}

/** Clicks that landed on a device dot, marked before the map and its fences see them. */
const deviceClicks = new WeakMap<Event, string>();

/** The device a click was on, if it was on one (a fence under the dot leaves such a click to the device). */
export const deviceClicked = (event: Event | undefined): string | undefined => (event ? deviceClicks.get(event) : undefined);

/**
 * The live devices of one floor on the map: a dot, an accuracy circle to scale and, when
 * trails are on, the last two minutes of fixes behind it, on canvases of their own above the
 * floor (never clicked: the pointer finds a dot by distance, so the fences under them stay
 * clickable). Fixes are applied at most once per animation frame, however many arrived
 * meanwhile (one per device is kept for the dot, every one for the trail), so a thousand
 * devices reporting every second never build a backlog. One freshness rule (freshness.ts): a
 * dot whose last fix is older than 30 s is drawn frozen, grey and labelled with its age; it
 * leaves the map when the fences let the device go (the organization's `stale_after_seconds`),
 * so the map and the occupancy always agree.
 */
export class LiveDeviceLayer {
  private readonly latest = new LatestPerDevice();
  private readonly recent = new RecentTrails();
  private readonly shown = new Map<string, Shown>();
  private readonly leaving = new Set<string>();
  /** Devices drawn frozen, and the age label of each (up to MAX_LABELS). */
  private readonly frozen = new Set<string>();
  private readonly freezing = new Set<string>();
  private readonly labels = new Map<string, { marker: L.Marker; element: HTMLElement }>();
  /** A zoom is animating: labels are hidden and not placed until it ends. */
  private zooming = false;
  /** Devices whose trail changed since the last frame. */
  private readonly trailsChanged = new Set<string>();
  private readonly group = L.layerGroup();
  private readonly dots: L.Canvas;
  private readonly under: L.Canvas;
  private frame = 0;
  private paintFrame = 0;
  private readonly sweepTimer: ReturnType<typeof setInterval>;
  private painted: PaintedDevices = { at: 0, devices: new Map() };
  private destroyed = false;
  private lastReceivedAt = 0;
  private lastCount = 0;
  private trailsOn: boolean;
  private readonly onClickCapture = (event: MouseEvent) => {
    const id = this.deviceAt(this.map.mouseEventToContainerPoint(event));
    if (id) deviceClicks.set(event, id);
  };

  constructor(
    private readonly map: L.Map,
    private readonly floorId: number,
    private readonly onCount: (count: number) => void = () => {},
    private readonly staleAfterMs = DEFAULT_STALE_AFTER_S * 1000,
    options: { trails?: boolean } = {},
  ) {
    this.trailsOn = options.trails ?? true;
    this.under = canvasFor('trails').addTo(map);
    this.dots = canvasFor('devices').addTo(map);
    this.group.addTo(map);
    map.getContainer().addEventListener('click', this.onClickCapture, true);
    map.on('zoomstart', this.zoomStarts);
    map.on('zoomend', this.zoomEnds);
    map.on('moveend resize', this.declutter);
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
  }

  /** A fix from the snapshot or the stream: shown if it is on this floor and newer than what is shown. */
  offer(device: LiveDevice): void {
    this.lastReceivedAt = Date.now();
    if (device.floorId !== this.floorId) {
      if (this.shown.has(device.id)) this.remove([device.id]);
      return;
    }
    this.recent.add(device);
    if (this.trailsOn) this.trailsChanged.add(device.id);
    this.latest.offer(device);
    this.schedule();
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

  get trails(): boolean {
    return this.trailsOn;
  }

  /** Trails on or off: off removes them from the map; on draws what was kept meanwhile. */
  set trails(on: boolean) {
    if (on === this.trailsOn) return;
    this.trailsOn = on;
    for (const id of this.shown.keys()) this.trailsChanged.add(id);
    this.schedule();
  }

  /** Every device shown, newest fix first. */
  devices(): Array<{ id: string; time: number; accuracy: number; frozen: boolean }> {
    return [...this.shown].map(([id, d]) => ({ id, time: d.time, accuracy: d.accuracy, frozen: this.frozen.has(id) })).sort((a, b) => b.time - a.time);
  }

  /** The age labels shown (not those hidden for want of room), for the page's probe. */
  get frozenLabels(): Array<{ id: string; text: string }> {
    if (this.zooming) return [];
    return [...this.labels].filter(([, label]) => label.element.style.visibility !== 'hidden').map(([id, label]) => ({ id, text: label.element.textContent ?? '' }));
  }

  /** A device shown now: where, since when, frozen or not. */
  device(id: string): { time: number; lngLat: [number, number]; accuracy: number; frozen: boolean } | undefined {
    const shown = this.shown.get(id);
    return shown && { time: shown.time, lngLat: shown.lngLat, accuracy: shown.accuracy, frozen: this.frozen.has(id) };
  }

  /** The dots drawn inside the map's view: where and whether frozen. */
  rendered(): Array<{ id: string; lngLat: [number, number]; frozen: boolean }> {
    const view = this.map.getBounds();
    return [...this.shown]
      .filter(([, s]) => this.group.hasLayer(s.dot) && view.contains(s.dot.getLatLng()))
      .map(([id, s]) => ({ id, lngLat: [s.dot.getLatLng().lng, s.dot.getLatLng().lat] as [number, number], frozen: this.frozen.has(id) }));
  }

  /** The trails drawn: each device's points, [lng, lat], oldest first. */
  renderedTrails(): Array<{ id: string; points: Array<[number, number]> }> {
    return [...this.shown]
      .filter(([, s]) => s.trail && this.group.hasLayer(s.trail))
      .map(([id, s]) => ({ id, points: (s.trail!.getLatLngs() as L.LatLng[]).map((p) => [p.lng, p.lat] as [number, number]) }));
  }

  /** The device whose dot is under a point of the map (pixels from its top-left corner), the nearest one. */
  deviceAt(point: L.Point): string | undefined {
    let best: string | undefined;
    let bestDistance = HIT_PX;
    for (const [id, s] of this.shown) {
      const distance = this.map.latLngToContainerPoint(s.dot.getLatLng()).distanceTo(point);
      if (distance <= bestDistance) {
        best = id;
        bestDistance = distance;
      }
    }
    return best;
  }

  destroy(): void {
    this.destroyed = true;
    cancelAnimationFrame(this.frame);
    cancelAnimationFrame(this.paintFrame);
    clearInterval(this.sweepTimer);
    this.map.getContainer().removeEventListener('click', this.onClickCapture, true);
    this.map.off('zoomstart', this.zoomStarts);
    this.map.off('zoomend', this.zoomEnds);
    this.map.off('moveend resize', this.declutter);
    this.map.getContainer().classList.remove('labels-zooming');
    for (const label of this.labels.values()) label.marker.remove();
    this.labels.clear();
    this.group.remove();
    this.dots.remove();
    this.under.remove();
  }

  private remove(ids: string[]): void {
    this.latest.forget(ids);
    this.recent.forget(ids);
    for (const id of ids) this.leaving.add(id);
    this.schedule();
  }

  /** Devices past the stale timeout leave; devices past 30 s without a fix freeze; labels say how old each frozen one is. */
  private sweep(): void {
    const now = Date.now();
    const times = new Map([...this.shown].map(([id, d]) => [id, d.time]));
    const stale = staleDevices(times, now, this.staleAfterMs);
    if (stale.length) this.remove(stale);
    for (const [id, time] of times) {
      if (freshnessOfAge(now - time, this.staleAfterMs) === 'stale' && !this.frozen.has(id)) this.freezing.add(id);
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
        label.marker.setLatLng(latLng(shown.lngLat));
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
      const icon = L.divIcon({ html: element, className: 'device-label-icon', iconSize: undefined });
      const marker = L.marker(latLng(shown.lngLat), { icon, interactive: false, keyboard: false }).addTo(this.map);
      this.labels.set(id, { marker, element });
    }
    this.declutter();
  }

  /**
   * While a zoom animates, every marker slides to where the new zoom puts it, but the sides and
   * visibility were chosen for the old zoom: the labels hide until the zoom ends and are placed again.
   */
  private readonly zoomStarts = () => {
    this.zooming = true;
    this.map.getContainer().classList.add('labels-zooming');
  };

  private readonly zoomEnds = () => {
    this.zooming = false;
    this.declutter();
    this.map.getContainer().classList.remove('labels-zooming');
  };

  /** Age labels never overlap nor leave the map: each goes right or left of its dot, or waits hidden (hover shows the age). */
  private readonly declutter = () => {
    if (!this.labels.size || this.zooming) return;
    const size = this.map.getSize();
    const wanted = [...this.labels].map(([id, { element, marker }]) => {
      const at = this.map.latLngToContainerPoint(marker.getLatLng());
      // The drawn size, fractions included (offsetWidth rounds, and a rounded-down width can overlap its neighbour).
      const drawn = element.getBoundingClientRect();
      return { id, x: at.x, y: at.y, width: drawn.width, height: drawn.height };
    });
    const sides = placeLabels(wanted, size.x, size.y);
    for (const [id, { element }] of this.labels) {
      const side = sides.get(id);
      element.classList.toggle('left', side === 'left');
      element.style.visibility = side ? '' : 'hidden';
    }
  };

  private schedule(): void {
    if (this.frame || this.destroyed) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.flush();
    });
  }

  private flush(): void {
    const remove = [...this.leaving].filter((id) => this.shown.has(id));
    for (const id of remove) {
      const s = this.shown.get(id)!;
      for (const layer of [s.dot, s.circle, s.trail]) if (layer) this.group.removeLayer(layer);
      this.shown.delete(id);
      this.frozen.delete(id);
      this.freezing.delete(id);
      this.trailsChanged.delete(id);
    }
    this.leaving.clear();
    const now = Date.now();
    const drained = this.latest.drain();
    for (const device of drained) {
      // A snapshot fix may already be old: it is drawn frozen from the start.
      const frozen = freshnessOfAge(now - device.time, this.staleAfterMs) !== 'online';
      this.freezing.delete(device.id);
      const at = latLng(device.lngLat);
      const existing = this.shown.get(device.id);
      if (existing) {
        existing.dot.setLatLng(at);
        existing.circle.setLatLng(at);
        if (existing.accuracy !== device.accuracy) existing.circle.setRadius(device.accuracy);
        if (frozen !== this.frozen.has(device.id)) existing.dot.setStyle(frozen ? FROZEN : LIVE);
        Object.assign(existing, { time: device.time, lngLat: device.lngLat, accuracy: device.accuracy });
      } else {
        const circle = L.circle(at, {
          renderer: this.under,
          radius: device.accuracy,
          color: '#3478f6',
          weight: 1,
          opacity: 0.35,
          fillColor: '#3478f6',
          fillOpacity: 0.12,
          interactive: false,
        });
        const dot = L.circleMarker(at, { renderer: this.dots, radius: 5, weight: 1.5, fillOpacity: 1, interactive: false, ...(frozen ? FROZEN : LIVE) });
        this.group.addLayer(circle).addLayer(dot);
        this.shown.set(device.id, { time: device.time, lngLat: device.lngLat, accuracy: device.accuracy, dot, circle, trail: null });
      }
      if (frozen) this.frozen.add(device.id);
      else this.frozen.delete(device.id);
    }
    for (const id of this.freezing) {
      const s = this.shown.get(id);
      if (!s) continue;
      s.dot.setStyle(FROZEN);
      this.frozen.add(id);
    }
    this.freezing.clear();
    for (const id of this.trailsChanged) this.drawTrail(id);
    this.trailsChanged.clear();
    if (!drained.length && !remove.length) return;
    // Leaflet draws the canvases in the next animation frame; the frame after this one's callbacks has them painted.
    const snapshot = new Map([...this.shown].map(([id, s]) => [id, { time: s.time, lngLat: s.lngLat }]));
    cancelAnimationFrame(this.paintFrame);
    this.paintFrame = requestAnimationFrame(() => this.notePaint(snapshot));
    if (this.shown.size !== this.lastCount) {
      this.lastCount = this.shown.size;
      this.onCount(this.shown.size);
    }
  }

  private drawTrail(id: string): void {
    const s = this.shown.get(id);
    if (!s) return;
    const points = this.trailsOn ? this.recent.of(id) : [];
    if (points.length < 2) {
      if (s.trail) this.group.removeLayer(s.trail);
      s.trail = null;
      return;
    }
    const line = points.map(latLng);
    if (s.trail) s.trail.setLatLngs(line);
    else {
      s.trail = L.polyline(line, { renderer: this.under, color: '#1357d6', weight: 2, opacity: 0.5, interactive: false });
      this.group.addLayer(s.trail);
    }
  }

  private notePaint(snapshot: ReadonlyMap<string, { time: number; lngLat: [number, number] }>): void {
    this.paintFrame = 0;
    this.painted = { at: Date.now(), devices: snapshot };
    this.updateLabels(Date.now());
  }
}
