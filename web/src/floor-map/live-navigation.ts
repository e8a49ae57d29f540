import type * as L from 'leaflet';
import { DEFAULT_STALE_AFTER_S } from '../freshness';
import { staleDevices } from '../live';
import { type FloorDrawing, navigationView, type NavigationView } from './directions';
import { RouteLayer } from './route-layer';

const NAVIGATION_STYLE = { colour: '#0f8b8d', className: 'navigation' };

/**
 * The guided devices of the live map: for each device whose newest stream item carries
 * `navigation`, its remaining route drawn on the floor shown (directions.navigationView shapes
 * it) and its progress for the device's popup and panel. An item without `navigation` ends
 * the device's guidance; an item older than the one shown changes nothing. A device silent past
 * the stale timeout leaves with its route, as its dot leaves the live layer (staleDevices).
 */
export class LiveNavigations {
  private readonly shown = new Map<string, { view: NavigationView; layer: RouteLayer }>();
  private readonly listeners = new Set<() => void>();
  private floorNames = new Map<number, string>();

  private readonly sweepTimer: ReturnType<typeof setInterval>;

  constructor(
    private readonly map: L.Map,
    private readonly floorId: number,
    private readonly staleAfterMs = DEFAULT_STALE_AFTER_S * 1000,
  ) {
    this.sweepTimer = setInterval(() => this.sweep(Date.now()), 2_000);
  }

  /** Routes of devices past the stale timeout (by their newest item's time) leave the map. */
  private sweep(now: number): void {
    const stale = staleDevices(new Map([...this.shown].map(([id, { view }]) => [id, view.time])), now, this.staleAfterMs);
    if (stale.length === 0) return;
    for (const id of stale) {
      this.shown.get(id)?.layer.remove();
      this.shown.delete(id);
    }
    this.listeners.forEach((l) => l());
  }

  /** A stream or snapshot item (a position feature) of any device of the building. */
  offer(item: { id: string | number; navigation?: unknown; properties?: { time?: string; navigation?: unknown } | null }): void {
    const id = String(item.id);
    const shown = this.shown.get(id);
    const time = Date.parse(item.properties?.time ?? '') || 0;
    if (shown && time < shown.view.time) return;
    const view = navigationView(item, this.floorId);
    if (!view) {
      if (!shown) return;
      shown.layer.remove();
      this.shown.delete(id);
    } else {
      const layer = shown?.layer ?? new RouteLayer(this.map, NAVIGATION_STYLE);
      layer.set(view.drawing, this.floorName);
      this.shown.set(id, { view, layer });
    }
    this.listeners.forEach((l) => l());
  }

  /** The building's floors by name, for the floor-change markers (drawn again with them). */
  setFloorNames(names: ReadonlyMap<number, string>): void {
    this.floorNames = new Map(names);
    for (const { view, layer } of this.shown.values()) layer.set(view.drawing, this.floorName);
  }

  get(id: string): NavigationView | undefined {
    return this.shown.get(id)?.view;
  }

  /** Called on every change of a device's guidance; answers the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The remaining routes drawn, per device, for the page's probe. */
  rendered(): Array<{ id: string; drawing: FloorDrawing; offRoute: boolean; arrived: boolean }> {
    return [...this.shown].map(([id, { view, layer }]) => ({ id, drawing: layer.rendered(), offRoute: view.offRoute, arrived: view.arrived }));
  }

  destroy(): void {
    clearInterval(this.sweepTimer);
    for (const { layer } of this.shown.values()) layer.remove();
    this.shown.clear();
    this.listeners.clear();
  }

  private readonly floorName = (id: number) => this.floorNames.get(id) ?? `floor ${id}`;
}
