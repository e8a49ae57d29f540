import * as L from 'leaflet';
import { type LngLat, planCorners } from '../geo';
import { occupancyColour } from '../live';
import type { Building, Floor, Geofence, Poi, PoiCategory } from '../model';
import { labelPoint, MapLabels, POI_NAMES_ZOOM } from './map-labels';
import './map.css';

export type Occupancy = Readonly<Record<string, number>>;
export type FloorMap = L.Map;

/**
 * The panes the maps draw in, bottom to top (z-index in map.css): the plan image under
 * everything, then heat cells, fences, the floor's own things (POIs, paths, transmitters),
 * history, routes (directions, live navigation), live trails and accuracy, live dots; markers (handles, labels, popups) above all.
 * Only the fences and floor panes take the pointer: the others are drawn, never clicked.
 */
export const PANES = ['plan', 'heat', 'fences', 'floor', 'history', 'route', 'trails', 'devices'] as const;
export type Pane = (typeof PANES)[number];

/** [lng, lat] (GeoJSON order, as the dashboard keeps points) to Leaflet's [lat, lng]. */
export const latLng = (p: LngLat | readonly [number, number]): L.LatLngTuple => [p[1], p[0]];
export const lngLatOf = (p: L.LatLng): LngLat => [p.lng, p.lat];

/** The operator's tile server, when one is configured (a meta element the server adds); none by default. */
export function configuredBasemap(): { url: string; attribution: string } | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="cartograph-basemap"]');
  return meta?.content ? { url: meta.content, attribution: meta.dataset.attribution ?? '' } : null;
}

/** A canvas of its own for a pane whose things are many and never clicked (devices, trails, heat). */
export const canvasFor = (pane: Pane): L.Canvas => L.canvas({ pane, padding: 0.2 });

/**
 * A map over a building: no external source unless the operator configured a basemap and
 * `basemap` asks for it. Arrow keys pan it and + / - zoom it once it has the focus (Leaflet's
 * keyboard handler); it follows its box's size.
 */
export function createMap(container: HTMLElement, building: Building, options: { basemap?: boolean } = {}): FloorMap {
  const map = L.map(container, { zoomControl: false, attributionControl: false, zoomSnap: 0, zoomDelta: 1, maxZoom: 24, keyboardPanDelta: 60, boxZoom: false });
  for (const pane of PANES) map.createPane(pane);
  const tiles = options.basemap ? configuredBasemap() : null;
  if (tiles) {
    L.tileLayer(tiles.url, { attribution: tiles.attribution, maxNativeZoom: 19, maxZoom: 24 }).addTo(map);
    L.control.attribution({ prefix: false }).addTo(map);
  }
  const corners = planCorners(building).map(latLng);
  map.fitBounds(L.latLngBounds(corners), { padding: [30, 30], animate: false });
  const resize = new ResizeObserver(() => map.invalidateSize({ pan: false }));
  resize.observe(container);
  map.on('unload', () => resize.disconnect());
  return map;
}

/**
 * An image laid on the map by its corners (top-left, top-right, bottom-left; the fourth
 * follows): moved, scaled and turned by one CSS matrix, so a plan keeps its pixels at any
 * rotation. Follows zooms (animated with the map) and `setCorners`.
 */
export class PlacedImage extends L.Layer {
  private image: HTMLImageElement | null = null;
  private corners: [L.LatLng, L.LatLng, L.LatLng];

  constructor(
    private readonly url: string,
    corners: readonly [LngLat, LngLat, LngLat, LngLat],
    private readonly style: { opacity?: number; pane?: Pane; alt?: string } = {},
  ) {
    super();
    L.setOptions(this, { pane: style.pane ?? 'plan' });
    this.corners = this.toCorners(corners);
  }

  override onAdd(map: L.Map): this {
    const image = (this.image = document.createElement('img'));
    image.className = 'leaflet-image-layer leaflet-zoom-animated placed-image loading';
    image.alt = this.style.alt ?? '';
    image.onload = () => {
      image.classList.remove('loading');
      this.place();
    };
    image.src = this.url;
    if (this.style.opacity !== undefined) image.style.opacity = String(this.style.opacity);
    this.getPane()!.appendChild(image);
    map.on('zoom viewreset', this.place, this);
    map.on('zoomanim', this.animate, this);
    this.place();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('zoom viewreset', this.place, this);
    map.off('zoomanim', this.animate, this);
    this.image?.remove();
    this.image = null;
    return this;
  }

  /** The four corners in plan order of geo.planCorners: top-left, top-right, bottom-right, bottom-left. */
  setCorners(corners: readonly [LngLat, LngLat, LngLat, LngLat]): void {
    this.corners = this.toCorners(corners);
    this.place();
  }

  get element(): HTMLImageElement | null {
    return this.image;
  }

  private toCorners([tl, tr, , bl]: readonly [LngLat, LngLat, LngLat, LngLat]): [L.LatLng, L.LatLng, L.LatLng] {
    return [L.latLng(latLng(tl)), L.latLng(latLng(tr)), L.latLng(latLng(bl))];
  }

  private place(): void {
    if (this._map) this.transform((p) => this._map.latLngToLayerPoint(p));
  }

  private animate(e: L.ZoomAnimEvent): void {
    const map = this._map as L.Map & { _latLngToNewLayerPoint(p: L.LatLng, zoom: number, center: L.LatLng): L.Point };
    this.transform((p) => map._latLngToNewLayerPoint(p, e.zoom, e.center));
  }

  private transform(toPixels: (p: L.LatLng) => L.Point): void {
    const image = this.image;
    if (!image?.naturalWidth || !image.naturalHeight) return;
    const [tl, tr, bl] = this.corners.map(toPixels);
    const w = image.naturalWidth;
    const h = image.naturalHeight;
    // Image pixel (u, v) lands at tl + u/w · (tr − tl) + v/h · (bl − tl).
    image.style.transform = `matrix(${(tr.x - tl.x) / w}, ${(tr.y - tl.y) / w}, ${(bl.x - tl.x) / h}, ${(bl.y - tl.y) / h}, ${tl.x}, ${tl.y})`;
  }
}

interface FenceShown {
  id: string;
  name: string;
  occupants: number;
  colour: string;
}

/** The floor's geofences as polygons coloured by occupancy (the list beside the map uses the same colours), each named where its name fits. */
export class FenceLayer {
  readonly group: L.FeatureGroup;
  private readonly shown = new Map<L.Layer, FenceShown>();

  constructor(
    map: L.Map,
    private readonly labels: MapLabels,
  ) {
    this.group = L.featureGroup().addTo(map);
  }

  set(fences: readonly Geofence[], occupancy: Occupancy): void {
    this.group.clearLayers();
    this.shown.clear();
    for (const f of fences) {
      const occupants = occupancy[f.id] ?? 0;
      const colour = occupancyColour(occupants);
      // The API's rings are [lat, lng] already: Leaflet's order.
      const polygon = L.polygon(f.geometric as L.LatLngTuple[], { pane: 'fences', color: colour, weight: 2, fillColor: colour, fillOpacity: 0.3, bubblingMouseEvents: true });
      this.shown.set(polygon, { id: f.id, name: f.name, occupants, colour });
      this.group.addLayer(polygon);
    }
    this.labels.set(
      'fence',
      fences
        .filter((f) => f.name && f.geometric.length >= 3)
        .map((f) => {
          const bounds = L.latLngBounds(f.geometric as L.LatLngTuple[]);
          return { at: labelPoint(f.geometric as L.LatLngTuple[]), text: f.name, fits: (width: number) => this.labels.widthOf(bounds) > width };
        }),
    );
  }

  /** The fence a clicked layer draws. */
  fenceOf(layer: L.Layer): string | undefined {
    return this.shown.get(layer)?.id;
  }

  rendered(): Array<{ id: string; occupants: number; colour: string }> {
    return [...this.shown].filter(([layer]) => this.group.hasLayer(layer)).map(([, f]) => ({ id: f.id, occupants: f.occupants, colour: f.colour }));
  }
}

/** One icon per image URL, whatever POIs and maps use it. */
const ICONS = new Map<string, L.Icon>();
const iconFor = (url: string): L.Icon => {
  let icon = ICONS.get(url);
  if (!icon) ICONS.set(url, (icon = L.icon({ iconUrl: url, iconSize: [24, 24], className: 'poi-icon' })));
  return icon;
};
const POI_ICON_SIZE = 24;

/**
 * The floor's POIs: a dot each, or its category's icon once that has loaded (an icon that does
 * not load leaves a dot), and its name above it from POI_NAMES_ZOOM on.
 */
export class PoiLayer {
  readonly group: L.FeatureGroup;
  private readonly names = new Map<L.Layer, string>();
  /** Category id to the URL of its icon, for the icons that loaded. */
  private icons = new Map<number, string>();
  private pois: readonly Poi[] = [];

  constructor(
    private readonly map: L.Map,
    private readonly labels: MapLabels,
  ) {
    this.group = L.featureGroup().addTo(map);
  }

  set(pois: readonly Poi[]): void {
    this.pois = pois;
    this.group.clearLayers();
    this.names.clear();
    const named: Parameters<MapLabels['set']>[1] = [];
    for (const p of pois) {
      const at: L.LatLngTuple = [p.position.lat, p.position.lng];
      const icon = p.category_id !== null ? this.icons.get(p.category_id) : undefined;
      const layer = icon
        ? L.marker(at, { icon: iconFor(icon), interactive: false, keyboard: false, alt: p.name })
        : L.circleMarker(at, { pane: 'floor', radius: 5, color: '#fff', weight: 1.5, fillColor: '#e07a1f', fillOpacity: 1, interactive: false });
      this.names.set(layer, p.name);
      this.group.addLayer(layer);
      if (p.name) named.push({ at, text: p.name, offsetY: icon ? -POI_ICON_SIZE / 2 : -6, fits: () => this.map.getZoom() >= POI_NAMES_ZOOM });
    }
    this.labels.set('poi', named);
  }

  /** Loads the categories' icons (again when the categories change); the POIs of those that load are drawn with them. */
  async useIcons(categories: readonly PoiCategory[]): Promise<void> {
    const loaded = await Promise.all(
      categories
        .filter((c) => c.icon_url)
        .map(
          (c) =>
            new Promise<[number, string] | null>((resolve) => {
              const image = new Image();
              image.onload = () => resolve([c.id, c.icon_url]);
              image.onerror = () => resolve(null);
              image.src = c.icon_url;
            }),
        ),
    );
    const icons = new Map(loaded.filter((l): l is [number, string] => l !== null));
    const changed = icons.size !== this.icons.size || [...icons].some(([id, url]) => this.icons.get(id) !== url);
    this.icons = icons;
    if (changed) this.set(this.pois);
  }

  rendered(): Array<{ name: string }> {
    return [...this.names].filter(([layer]) => this.group.hasLayer(layer)).map(([, name]) => ({ name }));
  }
}

/** What every view of the floor shows under its own layers: the plan, the fences coloured by occupancy, the POIs, their names. */
export interface FloorLayers {
  plan: PlacedImage | null;
  fences: FenceLayer;
  pois: PoiLayer;
  labels: MapLabels;
}

export function addFloorLayers(map: L.Map, building: Building, floor: Floor, fences: readonly Geofence[], occupancy: Occupancy, pois: readonly Poi[]): FloorLayers {
  const plan = floor.maps.map_url ? new PlacedImage(floor.maps.map_url, planCorners(building)).addTo(map) : null;
  const labels = new MapLabels(map);
  const fenceLayer = new FenceLayer(map, labels);
  fenceLayer.set(fences, occupancy);
  const poiLayer = new PoiLayer(map, labels);
  poiLayer.set(pois);
  return { plan, fences: fenceLayer, pois: poiLayer, labels };
}
