import { type GeoJSONSource, type LngLatBoundsLike, Map as MapLibreMap, setWorkerUrl, type StyleSpecification } from 'maplibre-gl';
// MapLibre finds its worker next to its own module, which bundling moves: hand it the bundled
// worker (served from 'self', so the Content-Security-Policy needs no blob: workers).
import mapWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';
import { planCorners, toLngLatRing } from '../geo';
import { occupancyColour } from '../live';
import type { Building, Floor, Geofence, Poi, PoiCategory } from '../model';
import './map.css';

setWorkerUrl(mapWorkerUrl);

export type Occupancy = Readonly<Record<string, number>>;

/** The operator's tile server, when one is configured (a meta element the server adds); none by default. */
export function configuredBasemap(): { url: string; attribution: string } | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="cartograph-basemap"]');
  return meta?.content ? { url: meta.content, attribution: meta.dataset.attribution ?? '' } : null;
}

function styleOf(basemap: boolean): StyleSpecification {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const style: StyleSpecification = { version: 8, sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': dark ? '#1b2128' : '#eef1f5' } }] };
  const tiles = basemap ? configuredBasemap() : null;
  if (tiles) {
    style.sources.basemap = { type: 'raster', tiles: [tiles.url], tileSize: 256, attribution: tiles.attribution, maxzoom: 19 };
    style.layers.push({ id: 'basemap', type: 'raster', source: 'basemap' });
  }
  return style;
}

/** A map over a building: no external source unless the operator configured a basemap and `basemap` asks for it. */
export function createMap(container: HTMLElement, building: Building, options: { basemap?: boolean } = {}): MapLibreMap {
  const corners = planCorners(building);
  // No fade: each fade frame is drawn again, and software WebGL (SwiftShader) pays for every one of them.
  const map = new MapLibreMap({ container, style: styleOf(options.basemap ?? false), attributionControl: options.basemap && configuredBasemap() ? { compact: false } : false, dragRotate: false, fadeDuration: 0 });
  const lngs = corners.map((c) => c[0]);
  const lats = corners.map((c) => c[1]);
  map.fitBounds([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)] as LngLatBoundsLike, { padding: 30, animate: false });
  map.touchZoomRotate.disableRotation();
  return map;
}

/** Each fence with its occupancy and the colour that goes with it (the list beside the map uses the same). */
export function fencesGeoJson(fences: readonly Geofence[], occupancy: Occupancy): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: fences.map((f) => ({
      type: 'Feature',
      id: f.id,
      properties: { id: f.id, name: f.name, occupants: occupancy[f.id] ?? 0, colour: occupancyColour(occupancy[f.id] ?? 0) },
      geometry: { type: 'Polygon', coordinates: [toLngLatRing(f.geometric)] },
    })),
  };
}

export function poisGeoJson(pois: readonly Poi[]): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: pois.map((p) => ({ type: 'Feature', id: p.id, properties: { id: p.id, name: p.name, category: p.category_id ?? 0 }, geometry: { type: 'Point', coordinates: [p.position.lng, p.position.lat] } })),
  };
}

/** The floor's plan, its fences coloured by occupancy and its POIs: what every view of the floor shows under its own layers. */
export function addFloorLayers(map: MapLibreMap, building: Building, floor: Floor, fences: readonly Geofence[], occupancy: Occupancy, pois: readonly Poi[]): void {
  if (floor.maps.map_url) {
    map.addSource('plan', { type: 'image', url: floor.maps.map_url, coordinates: planCorners(building) });
    map.addLayer({ id: 'plan', type: 'raster', source: 'plan', paint: { 'raster-fade-duration': 0 } });
  }
  map.addSource('fences', { type: 'geojson', data: fencesGeoJson(fences, occupancy) });
  map.addLayer({ id: 'fences-fill', type: 'fill', source: 'fences', paint: { 'fill-color': ['get', 'colour'], 'fill-opacity': 0.3 } });
  map.addLayer({ id: 'fences-line', type: 'line', source: 'fences', paint: { 'line-color': ['get', 'colour'], 'line-width': 2 } });
  map.addSource('pois', { type: 'geojson', data: poisGeoJson(pois) });
  map.addLayer({ id: 'pois', type: 'circle', source: 'pois', paint: { 'circle-radius': 5, 'circle-color': '#e07a1f', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 } });
}

export function setData(map: MapLibreMap | null, source: string, data: GeoJSON.FeatureCollection): void {
  (map?.getSource(source) as GeoJSONSource | undefined)?.setData(data);
}

/** Layers of a view, shown or hidden together. */
export function showLayers(map: MapLibreMap, ids: string[], visible: boolean): void {
  for (const id of ids) if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', visible ? 'visible' : 'none');
}

export const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

/** POIs of a category with an icon are drawn with it (a symbol without text: no glyphs, nothing from outside). */
export async function addPoiIcons(map: MapLibreMap, categories: readonly PoiCategory[]): Promise<void> {
  const withIcon: number[] = [];
  await Promise.all(
    categories
      .filter((c) => c.icon_url)
      .map(async (c) => {
        try {
          const image = await map.loadImage(c.icon_url);
          if (!map.hasImage(`cat-${c.id}`)) map.addImage(`cat-${c.id}`, image.data);
          withIcon.push(c.id);
        } catch {
          // An icon that does not load leaves its POIs as dots.
        }
      }),
  );
  if (!withIcon.length || !map.getSource('pois')) return;
  map.setFilter('pois', ['!', ['in', ['get', 'category'], ['literal', withIcon]]]);
  map.addLayer({
    id: 'poi-icons',
    type: 'symbol',
    source: 'pois',
    filter: ['in', ['get', 'category'], ['literal', withIcon]],
    layout: { 'icon-image': ['concat', 'cat-', ['to-string', ['get', 'category']]], 'icon-size': 1, 'icon-allow-overlap': true },
  });
}
