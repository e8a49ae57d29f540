import type * as L from 'leaflet';
import { type FloorDrawing, navigationView, type NavigationView } from './directions';
import { RouteLayer } from './route-layer';

const NAVIGATION_STYLE = { colour: '#0f8b8d', className: 'navigation' };

/**
 * The guided devices of the live map: for each device whose newest stream item carries
 * `navigation`, its remaining route drawn on the floor shown (directions.navigationView shapes
 * it) and its progress for the device's popup and panel. An item without `navigation` ends
 * the device's guidance; an item older than the one shown changes nothing.
 */
export class LiveNavigations {
  private readonly shown = new Map<string, { view: NavigationView; layer: RouteLayer }>();
  private readonly listeners = new Set<() => void>();
  private floorNames = new Map<number, string>();

  constructor(
    private readonly map: L.Map,
    private readonly floorId: number,
  ) {}

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
    for (const { layer } of this.shown.values()) layer.remove();
    this.shown.clear();
    this.listeners.clear();
  }

  private readonly floorName = (id: number) => this.floorNames.get(id) ?? `floor ${id}`;
}
