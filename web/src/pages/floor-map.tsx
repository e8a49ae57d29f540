import { type GeoJSONSource, type LngLatBoundsLike, Map as MapLibreMap, NavigationControl, setWorkerUrl, type StyleSpecification } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
// MapLibre finds its worker next to its own module, which bundling moves: hand it the bundled
// worker (served from 'self', so the Content-Security-Policy needs no blob: workers).
import mapWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';
import { useEffect, useRef, useState } from 'preact/hooks';
import { TerraDraw, TerraDrawPolygonMode, TerraDrawSelectMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { api, ApiError, getAll, request } from '../api';
import { ActionButton, ErrorBox, Field, Loading, useAction } from '../components/ui';
import { planCorners, toLatLngRing, toLngLatRing } from '../geo';
import type { Building, Floor } from './buildings';

interface Geofence {
  id: string;
  name: string;
  code: string;
  floor_id: number;
  building_id: string;
  geometric: Array<[number, number]>;
}

interface Poi {
  id: number;
  name: string;
  position: { floor_id: number | null; lat: number; lng: number; radius: number | null };
}

setWorkerUrl(mapWorkerUrl);

const EMPTY_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#eef1f5' } }],
};


function fencesGeoJson(fences: Geofence[]): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: fences.map((f) => ({ type: 'Feature', id: f.id, properties: { id: f.id, name: f.name }, geometry: { type: 'Polygon', coordinates: [toLngLatRing(f.geometric)] } })),
  };
}

function poisGeoJson(pois: Poi[]): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: pois.map((p) => ({ type: 'Feature', properties: { name: p.name }, geometry: { type: 'Point', coordinates: [p.position.lng, p.position.lat] } })),
  };
}

interface Selected {
  fence: Geofence;
  etag: string | null;
}

export function FloorMapPage({ buildingId, floorId }: { buildingId: string; floorId: string }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const [building, setBuilding] = useState<Building | null>(null);
  const [floor, setFloor] = useState<Floor | null>(null);
  const [fences, setFences] = useState<Geofence[]>([]);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [selected, setSelected] = useState<Selected | null>(null);
  const [mode, setMode] = useState<'view' | 'draw' | 'edit'>('view');
  const [drawn, setDrawn] = useState<number[][] | null>(null);

  async function loadFences(): Promise<Geofence[]> {
    const list = await getAll<Geofence>(`/geofences?floor_ids=${floorId}`);
    setFences(list);
    return list;
  }

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const [b, f, list, pois] = await Promise.all([
        api.get<Building>(`/buildings/${buildingId}`),
        api.get<Floor>(`/floors/${floorId}`),
        getAll<Geofence>(`/geofences?floor_ids=${floorId}`),
        api.get<Poi[]>(`/buildings/${buildingId}/pois`),
      ]);
      if (cancelled) return;
      setBuilding(b);
      setFloor(f);
      setFences(list);
      const corners = planCorners(b);
      const map = new MapLibreMap({ container: container.current!, style: EMPTY_STYLE, attributionControl: false, dragRotate: false });
      mapRef.current = map;
      const lngs = corners.map((c) => c[0]);
      const lats = corners.map((c) => c[1]);
      map.fitBounds([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)] as LngLatBoundsLike, { padding: 30, animate: false });
      map.addControl(new NavigationControl({ showCompass: false }));
      map.on('load', () => {
        if (f.maps.map_url) {
          map.addSource('plan', { type: 'image', url: f.maps.map_url, coordinates: corners });
          map.addLayer({ id: 'plan', type: 'raster', source: 'plan', paint: { 'raster-fade-duration': 0 } });
        }
        map.addSource('fences', { type: 'geojson', data: fencesGeoJson(list) });
        map.addLayer({ id: 'fences-fill', type: 'fill', source: 'fences', paint: { 'fill-color': '#2b7bb9', 'fill-opacity': 0.25 } });
        map.addLayer({ id: 'fences-line', type: 'line', source: 'fences', paint: { 'line-color': '#1f4e79', 'line-width': 2 } });
        map.addSource('pois', { type: 'geojson', data: poisGeoJson(pois.filter((p) => p.position.floor_id === f.id)) });
        map.addLayer({ id: 'pois', type: 'circle', source: 'pois', paint: { 'circle-radius': 5, 'circle-color': '#e07a1f', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 } });
        map.on('click', 'fences-fill', (e) => {
          if (drawRef.current?.getMode() === 'polygon') return;
          const id = e.features?.[0]?.properties?.id as string | undefined;
          if (id) void select(id);
        });
        const draw = new TerraDraw({
          adapter: new TerraDrawMapLibreGLAdapter({ map }),
          modes: [
            new TerraDrawPolygonMode(),
            new TerraDrawSelectMode({ flags: { polygon: { feature: { draggable: false, coordinates: { midpoints: true, draggable: true, deletable: true } } } } }),
          ],
        });
        draw.start();
        draw.on('finish', (id) => {
          const feature = draw.getSnapshotFeature(id);
          if (feature?.geometry.type === 'Polygon' && draw.getMode() === 'polygon') setDrawn(feature.geometry.coordinates[0] as number[][]);
        });
        drawRef.current = draw;
        container.current?.setAttribute('data-ready', 'true');
      });
    })().catch((e) => !cancelled && setLoadError(e));
    return () => {
      cancelled = true;
      mapRef.current?.remove();
      mapRef.current = null;
    };
  }, [buildingId, floorId]);

  function refreshFenceLayer(list: Geofence[]) {
    (mapRef.current?.getSource('fences') as GeoJSONSource | undefined)?.setData(fencesGeoJson(list));
  }

  /** Selecting remembers the fence's ETag: a save later is refused if someone changed it meanwhile. */
  async function select(id: string) {
    const r = await request<Geofence>(`/geofences/${id}`);
    setSelected({ fence: r.body, etag: r.etag });
    setMode('view');
  }

  function startDraw() {
    const draw = drawRef.current!;
    draw.clear();
    setDrawn(null);
    setSelected(null);
    draw.setMode('polygon');
    setMode('draw');
  }

  function cancelDrawing() {
    drawRef.current?.clear();
    drawRef.current?.setMode('static');
    setDrawn(null);
    setMode('view');
  }

  function startEdit() {
    const draw = drawRef.current!;
    const fence = selected!.fence;
    draw.clear();
    const [result] = draw.addFeatures([{ id: fence.id, type: 'Feature', properties: { mode: 'polygon' }, geometry: { type: 'Polygon', coordinates: [toLngLatRing(fence.geometric)] } }]);
    if (!result.valid) return;
    draw.setMode('select');
    draw.selectFeature(fence.id);
    setMode('edit');
  }

  if (loadError) return <ErrorBox error={loadError} />;
  return (
    <section>
      <h1>
        {building ? <a href={`/buildings/${buildingId}`}>{building.name}</a> : 'Floor'} · {floor ? floor.name || `Level ${floor.level}` : ''}
      </h1>
      <div class="map-page">
        <div ref={container} class="map" data-testid="floor-map" role="region" aria-label="Floor map" />
        <aside class="map-side card" aria-label="Map details">
          {!building && <Loading what="the floor" />}
          {mode === 'view' && (
            <button type="button" class="btn primary" onClick={startDraw}>
              Draw a geofence
            </button>
          )}
          {mode === 'draw' && (
            <NewFenceForm
              drawn={drawn}
              onCancel={cancelDrawing}
              onSave={async (name) => {
                await api.post<Geofence>('/geofences', { name, building_id: buildingId, floor_id: Number(floorId), geometric: toLatLngRing(drawn!) });
                cancelDrawing();
                refreshFenceLayer(await loadFences());
              }}
            />
          )}
          {selected && mode !== 'draw' && (
            <FencePanel
              selected={selected}
              editing={mode === 'edit'}
              onEdit={startEdit}
              onCancelEdit={() => {
                drawRef.current?.clear();
                drawRef.current?.setMode('static');
                setMode('view');
              }}
              onSaveEdit={async () => {
                const feature = drawRef.current!.getSnapshotFeature(selected.fence.id);
                const ring = (feature!.geometry as GeoJSON.Polygon).coordinates[0];
                const r = await api.put<Geofence>(`/geofences/${selected.fence.id}`, { geometric: toLatLngRing(ring) }, selected.etag ?? undefined);
                setSelected({ fence: r.body, etag: r.etag });
                drawRef.current?.clear();
                drawRef.current?.setMode('static');
                setMode('view');
                refreshFenceLayer(await loadFences());
              }}
              onDelete={async () => {
                await api.del(`/geofences/${selected.fence.id}`, selected.etag ?? undefined);
                setSelected(null);
                refreshFenceLayer(await loadFences());
              }}
              onReload={() => select(selected.fence.id)}
            />
          )}
          <h2>Geofences ({fences.length})</h2>
          <ul class="fence-list">
            {fences.map((f) => (
              <li>
                <button type="button" class="btn plain" onClick={() => select(f.id)}>
                  {f.name}
                </button>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </section>
  );
}

function NewFenceForm({ drawn, onSave, onCancel }: { drawn: number[][] | null; onSave: (name: string) => Promise<void>; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
      }}
    >
      <h2>New geofence</h2>
      <p class="muted">{drawn ? 'Name it and save.' : 'Click on the map to place its corners; click the first one again to close it.'}</p>
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} />
      <ErrorBox error={error} fields={['name']} />
      <div class="row">
        <ActionButton
          kind="primary"
          onAction={async () => {
            setError(null);
            if (!drawn) {
              setError(new ApiError(422, 'validation_failed', 'Draw the geofence on the map first.'));
              return;
            }
            try {
              await onSave(name);
            } catch (e) {
              setError(e);
            }
          }}
        >
          Save geofence
        </ActionButton>
        <button type="button" class="btn plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function FencePanel(props: {
  selected: Selected;
  editing: boolean;
  onEdit: () => void;
  onCancelEdit: () => void;
  onSaveEdit: () => Promise<void>;
  onDelete: () => Promise<void>;
  onReload: () => Promise<void>;
}) {
  // Each button's failure is shown in this panel.
  const { error, run: attempt } = useAction((action: () => Promise<void>) => action());
  const guard = (action: () => Promise<void>) => () => attempt(action);
  const { fence } = props.selected;
  const stale = error instanceof ApiError && (error.status === 409 || error.status === 412);
  return (
    <div class="fence-panel" data-testid="fence-panel">
      <h2>{fence.name}</h2>
      <p class="muted">
        {fence.code ? `Code ${fence.code} · ` : ''}
        {fence.geometric.length - 1} corners
      </p>
      {stale ? (
        <div class="error-box" role="alert" data-testid="conflict">
          <strong>Someone else changed this geofence after you opened it.</strong> Your change was not saved, so theirs is not lost.
          <div>
            <ActionButton onAction={guard(props.onReload)}>Load their version</ActionButton>
          </div>
        </div>
      ) : (
        <ErrorBox error={error} />
      )}
      {!props.editing ? (
        <div class="row">
          <button type="button" class="btn plain" onClick={props.onEdit}>
            Move vertices
          </button>
          <ActionButton kind="danger" onAction={guard(props.onDelete)}>
            Delete
          </ActionButton>
        </div>
      ) : (
        <div class="row">
          <ActionButton kind="primary" onAction={guard(props.onSaveEdit)}>
            Save shape
          </ActionButton>
          <button type="button" class="btn plain" onClick={props.onCancelEdit}>
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}
