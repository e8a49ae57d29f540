import { type GeoJSONSource, type LngLatBoundsLike, Map as MapLibreMap, NavigationControl, setWorkerUrl, type StyleSpecification } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
// MapLibre finds its worker next to its own module, which bundling moves: hand it the bundled
// worker (served from 'self', so the Content-Security-Policy needs no blob: workers).
import mapWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { TerraDraw, TerraDrawPolygonMode, TerraDrawSelectMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { api, ApiError, getAll, query, request } from '../api';
import type { GeofenceEvent } from '../components/event-list';
import { FenceDetails } from '../components/fence-details';
import { ActionButton, ErrorBox, Field, Loading, useAction } from '../components/ui';
import { planCorners, toLatLngRing, toLngLatRing } from '../geo';
import { LiveMapProbe, OCCUPANCY_SCALE, occupancyColour, PositionFeature, toLiveDevice } from '../live';
import { openLiveStream, StreamStatus } from '../live-stream';
import { DEVICE_DOT_LAYER, LiveDeviceLayer } from '../map-live';
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


type Occupancy = Readonly<Record<string, number>>;

/** Each fence with its occupancy and the colour that goes with it (the list beside the map uses the same). */
function fencesGeoJson(fences: Geofence[], occupancy: Occupancy): GeoJSON.FeatureCollection {
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

const loadOccupancy = async (floorId: string): Promise<Occupancy> =>
  Object.fromEntries((await api.get<{ data: Array<{ geofence_id: string; occupants: number }> }>(`/geofencing/occupancy${query({ floor_ids: floorId })}`)).data.map((o) => [o.geofence_id, o.occupants]));

declare global {
  interface Window {
    cartographLiveMap?: LiveMapProbe;
  }
}

function probe(map: MapLibreMap, layer: LiveDeviceLayer): LiveMapProbe {
  return Object.freeze({
    paintedAt: () => layer.lastPaint.at,
    paintedDevices: () => layer.lastPaint.devices.size,
    receivedAt: () => layer.receivedAt,
    fixesPaintedSince: (time: number) => {
      let n = 0;
      for (const d of layer.lastPaint.devices.values()) if (d.time >= time) n++;
      return n;
    },
    renderedDevices: () =>
      map.queryRenderedFeatures({ layers: [DEVICE_DOT_LAYER] }).map((f) => ({ id: String(f.properties.id), lngLat: (f.geometry as GeoJSON.Point).coordinates as [number, number] })),
    renderedFences: () =>
      map.queryRenderedFeatures({ layers: ['fences-fill'] }).map((f) => ({ id: String(f.properties.id), occupants: Number(f.properties.occupants), colour: String(f.properties.colour) })),
    renderedPois: () => map.queryRenderedFeatures({ layers: ['pois'] }).map((f) => ({ name: String(f.properties.name) })),
  });
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

const STATUS_WORDS: Record<StreamStatus, string> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', stopped: 'stopped' };

export function FloorMapPage({ buildingId, floorId }: { buildingId: string; floorId: string }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const [building, setBuilding] = useState<Building | null>(null);
  const [floor, setFloor] = useState<Floor | null>(null);
  const [fences, setFences] = useState<Geofence[]>([]);
  const [occupancy, setOccupancy] = useState<Occupancy>({});
  const [loadError, setLoadError] = useState<unknown>(null);
  const [selected, setSelected] = useState<Selected | null>(null);
  const [mode, setMode] = useState<'view' | 'draw' | 'edit'>('view');
  const [drawn, setDrawn] = useState<number[][] | null>(null);
  const [deviceCount, setDeviceCount] = useState(0);
  const [positionsStatus, setPositionsStatus] = useState<StreamStatus>('connecting');
  const [eventsStatus, setEventsStatus] = useState<StreamStatus>('connecting');
  const [liveError, setLiveError] = useState<unknown>(null);
  // Bumped when an event of the selected fence arrives: its panel reloads its lists.
  const [detailsKey, setDetailsKey] = useState(0);
  const fencesRef = useRef<Geofence[]>([]);
  const occupancyRef = useRef<Occupancy>({});
  const selectedRef = useRef<string | null>(null);
  fencesRef.current = fences;
  occupancyRef.current = occupancy;
  selectedRef.current = selected?.fence.id ?? null;

  async function loadFences(): Promise<Geofence[]> {
    const list = await getAll<Geofence>(`/geofences?floor_ids=${floorId}`);
    setFences(list);
    fencesRef.current = list;
    return list;
  }

  useEffect(() => {
    let cancelled = false;
    let layer: LiveDeviceLayer | null = null;
    const streams: Array<{ close(): void }> = [];
    let occupancyTimer: ReturnType<typeof setTimeout> | undefined;

    /** Occupancy again, at most a few times a second however many enters and exits arrive. */
    const refreshOccupancy = () => {
      if (occupancyTimer) return;
      occupancyTimer = setTimeout(() => {
        occupancyTimer = undefined;
        loadOccupancy(floorId).then(
          (o) => {
            if (cancelled) return;
            setOccupancy(o);
            occupancyRef.current = o;
            refreshFenceLayer(fencesRef.current, o);
          },
          (e) => !cancelled && setLiveError(e),
        );
      }, 250);
    };

    (async () => {
      const [b, f, list, pois, occ] = await Promise.all([
        api.get<Building>(`/buildings/${buildingId}`),
        api.get<Floor>(`/floors/${floorId}`),
        getAll<Geofence>(`/geofences?floor_ids=${floorId}`),
        api.get<Poi[]>(`/buildings/${buildingId}/pois`),
        loadOccupancy(floorId),
      ]);
      if (cancelled) return;
      setBuilding(b);
      setFloor(f);
      setFences(list);
      fencesRef.current = list;
      setOccupancy(occ);
      occupancyRef.current = occ;
      const corners = planCorners(b);
      // No fade: each fade frame is drawn again, and software WebGL (SwiftShader) pays for every one of them.
      const map = new MapLibreMap({ container: container.current!, style: EMPTY_STYLE, attributionControl: false, dragRotate: false, fadeDuration: 0 });
      mapRef.current = map;
      const lngs = corners.map((c) => c[0]);
      const lats = corners.map((c) => c[1]);
      map.fitBounds([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)] as LngLatBoundsLike, { padding: 30, animate: false });
      map.addControl(new NavigationControl({ showCompass: false }));
      map.on('load', () => {
        if (cancelled) return;
        if (f.maps.map_url) {
          map.addSource('plan', { type: 'image', url: f.maps.map_url, coordinates: corners });
          map.addLayer({ id: 'plan', type: 'raster', source: 'plan', paint: { 'raster-fade-duration': 0 } });
        }
        map.addSource('fences', { type: 'geojson', data: fencesGeoJson(fencesRef.current, occupancyRef.current) });
        map.addLayer({ id: 'fences-fill', type: 'fill', source: 'fences', paint: { 'fill-color': ['get', 'colour'], 'fill-opacity': 0.3 } });
        map.addLayer({ id: 'fences-line', type: 'line', source: 'fences', paint: { 'line-color': ['get', 'colour'], 'line-width': 2 } });
        map.addSource('pois', { type: 'geojson', data: poisGeoJson(pois.filter((p) => p.position.floor_id === f.id)) });
        map.addLayer({ id: 'pois', type: 'circle', source: 'pois', paint: { 'circle-radius': 5, 'circle-color': '#e07a1f', 'circle-stroke-color': '#fff', 'circle-stroke-width': 1.5 } });
        layer = new LiveDeviceLayer(map, f.id, b.location.lat, setDeviceCount);
        window.cartographLiveMap = probe(map, layer);
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

        // Live devices: the stream first, then the current picture; a fix older than what is shown never moves a dot back.
        const offer = (feature: PositionFeature) => {
          const device = toLiveDevice(feature);
          if (device) layer?.offer(device);
        };
        streams.push(
          openLiveStream({
            path: '/realtime/stream',
            params: { building_ids: buildingId },
            events: ['position'],
            onEvent: (_type, data) => offer(data as PositionFeature),
            onStatus: setPositionsStatus,
          }),
        );
        api.get<{ features: PositionFeature[] }>(`/realtime/positions${query({ building_ids: buildingId })}`).then(
          (snapshot) => !cancelled && snapshot.features.forEach(offer),
          (e) => !cancelled && setLiveError(e),
        );
        // Enters and exits change occupancy; the selected fence's panel follows its own events.
        streams.push(
          openLiveStream({
            path: '/geofencing/events/stream',
            params: { building_ids: buildingId },
            events: ['geofence.enter', 'geofence.exit', 'geofence.dwell'],
            onEvent: (type, data) => {
              const event = data as GeofenceEvent;
              if (event.floor_id !== f.id) return;
              if (type !== 'geofence.dwell') refreshOccupancy();
              if (event.geofence?.id === selectedRef.current) setDetailsKey((k) => k + 1);
            },
            onStatus: (status) => {
              setEventsStatus(status);
              // Whatever happened while the stream was down is in the occupancy read.
              if (status === 'live') refreshOccupancy();
            },
          }),
        );
        container.current?.setAttribute('data-ready', 'true');
      });
    })().catch((e) => !cancelled && setLoadError(e));
    return () => {
      cancelled = true;
      clearTimeout(occupancyTimer);
      streams.forEach((s) => s.close());
      layer?.destroy();
      delete window.cartographLiveMap;
      mapRef.current?.remove();
      mapRef.current = null;
    };
  }, [buildingId, floorId]);

  function refreshFenceLayer(list: Geofence[], occ: Occupancy = occupancyRef.current) {
    (mapRef.current?.getSource('fences') as GeoJSONSource | undefined)?.setData(fencesGeoJson(list, occ));
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
          <p class="live-status" role="status" data-testid="live-status" data-devices={deviceCount}>
            <span class={`dot ${positionsStatus}`} aria-hidden="true" /> {deviceCount} {deviceCount === 1 ? 'device' : 'devices'} on this floor · positions{' '}
            {STATUS_WORDS[positionsStatus]} · events {STATUS_WORDS[eventsStatus]}
          </p>
          <ErrorBox error={liveError} />
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
              onClose={() => setSelected(null)}
            >
              <FenceDetails fenceId={selected.fence.id} refreshKey={detailsKey} />
            </FencePanel>
          )}
          <h2>Geofences ({fences.length})</h2>
          <ul class="fence-list">
            {fences.map((f) => {
              const n = occupancy[f.id] ?? 0;
              return (
                <li data-fence-id={f.id} data-occupants={n}>
                  <Swatch colour={occupancyColour(n)} />
                  <button type="button" class="btn plain" onClick={() => select(f.id)}>
                    {f.name}
                  </button>
                  <span class="muted occupancy">{n} inside</span>
                </li>
              );
            })}
          </ul>
          <ul class="legend" aria-label="Fence colours">
            {OCCUPANCY_SCALE.map((step) => (
              <li>
                <Swatch colour={step.colour} /> {step.label}
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </section>
  );
}

/** A colour sample; its colour is set through the DOM (the CSP has no inline styles). */
function Swatch({ colour }: { colour: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    ref.current?.style.setProperty('background-color', colour);
  }, [colour]);
  return <span ref={ref} class="swatch" data-colour={colour} aria-hidden="true" />;
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
  onClose: () => void;
  children?: ComponentChildren;
}) {
  // Each button's failure is shown in this panel.
  const { error, run: attempt } = useAction((action: () => Promise<void>) => action());
  const guard = (action: () => Promise<void>) => () => attempt(action);
  const { fence } = props.selected;
  const stale = error instanceof ApiError && (error.status === 409 || error.status === 412);
  return (
    <div class="fence-panel" data-testid="fence-panel">
      <div class="section-head">
        <h2>{fence.name}</h2>
        <button type="button" class="btn plain close" aria-label="Close the fence panel" onClick={props.onClose}>
          ×
        </button>
      </div>
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
      {props.children}
    </div>
  );
}
