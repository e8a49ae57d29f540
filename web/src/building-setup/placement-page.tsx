import * as L from 'leaflet';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, getAll, request } from '../api';
import { ActionButton, ErrorBox, Field, Loading, useAction, useLoad } from '../components/ui';
import { configuredBasemap, createMap, type FloorMap, latLng, PlacedImage } from '../floor-map/map-setup';
import { type Building, type Floor } from '../model';
import { degrees, radians, readNumber } from './building-input';
import { AnchorPicker, Anchors } from './anchor-picker';
import { handleMarker, moveWithKeys } from './keyboard-handle';
import { corners, dragCorner, dragRotation, fitAnchors, Placement, rotationHandle } from './placement-math';

const toPlacement = (b: Building): Placement => ({ lat: b.location.lat, lng: b.location.lng, width: b.dimensions.width, length: b.dimensions.length, rotation: b.rotation });
/** The image's corners as geo.planCorners orders them: top-left, top-right, bottom-right, bottom-left. */
const imageCorners = (p: Placement) => {
  const [bl, br, tr, tl] = corners(p);
  return [tl, tr, br, bl] as [[number, number], [number, number], [number, number], [number, number]];
};

/**
 * Where the building is and how its plans lie: drag the middle to move it, a corner to size
 * it, the red handle to turn it, or match two points of the plan to two points of the map;
 * or type the numbers. Over the operator's basemap when one is configured.
 */
export function PlacementPage({ buildingId }: { buildingId: string }) {
  const loaded = useLoad(
    async (signal) => {
      const [building, floors] = await Promise.all([request<Building>(`/buildings/${buildingId}`, { signal }), getAll<Floor>(`/buildings/${buildingId}/floors`, signal)]);
      return {
        building,
        floor:
          floors
            .slice()
            .sort((a, b) => a.level - b.level)
            .find((f) => f.maps.map_url) ?? null,
      };
    },
    [buildingId],
  );
  if (loaded.error) return <ErrorBox error={loaded.error} onRetry={loaded.reload} />;
  if (!loaded.data) return <Loading what="the building" />;
  return <Placer building={loaded.data.building.body} etag={loaded.data.building.etag} floor={loaded.data.floor} onSaved={loaded.reload} />;
}

function Placer({ building, etag, floor, onSaved }: { building: Building; etag: string | null; floor: Floor | null; onSaved: () => void }) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<FloorMap | null>(null);
  const drawn = useRef<{ plan: PlacedImage | null; outline: L.Polygon } | null>(null);
  const [place, setPlaceState] = useState<Placement>(toPlacement(building));
  const [saved, setSaved] = useState(false);
  const [anchors, setAnchors] = useState<Anchors | null>(null);
  // The newest placement at once (a save right after a change must not send the one before).
  const placeRef = useRef(place);
  const setPlace = (next: Placement) => {
    placeRef.current = next;
    setPlaceState(next);
  };

  useEffect(() => {
    const m = createMap(container.current!, building, { basemap: true });
    const plan = floor?.maps.map_url ? new PlacedImage(floor.maps.map_url, imageCorners(placeRef.current), { opacity: 0.7 }).addTo(m) : null;
    const outline = L.polygon([], { pane: 'floor', color: '#1f4e79', weight: 2, fill: false, interactive: false }).addTo(m);
    drawn.current = { plan, outline };
    setMap(m);
    container.current?.setAttribute('data-ready', 'true');
    return () => {
      drawn.current = null;
      m.remove();
    };
  }, []);

  // The plan and the outline follow every change; handles are re-placed.
  useEffect(() => {
    if (!drawn.current) return;
    drawn.current.plan?.setCorners(imageCorners(place));
    drawn.current.outline.setLatLngs(corners(place).map(latLng));
  }, [map, place]);

  // The handles: made once, moved with the placement (the one being dragged, or moved with the keys, moves itself).
  const handles = useRef<Array<{ marker: L.Marker; at: (p: Placement) => [number, number] }>>([]);
  const moving = useRef<L.Marker | null>(null);
  useEffect(() => {
    if (!map || anchors) return;
    const stops: Array<() => void> = [];
    const handle = (kind: string, label: string, size: number, at: (p: Placement) => [number, number], onDrag: (to: [number, number]) => Placement) => {
      const marker = handleMarker(latLng(at(placeRef.current)), kind, label, size, { draggable: true }).addTo(map);
      const settle = () => {
        moving.current = null;
        // Every handle to its place for the placement the move left.
        for (const h of handles.current) h.marker.setLatLng(latLng(h.at(placeRef.current)));
      };
      marker.on('dragstart', () => (moving.current = marker));
      marker.on('drag', () => {
        const p = marker.getLatLng();
        setPlace(onDrag([p.lng, p.lat]));
      });
      marker.on('dragend', settle);
      stops.push(
        moveWithKeys(map, marker, (to) => {
          moving.current = marker;
          setPlace(onDrag(to));
        }),
      );
      marker.getElement()?.addEventListener('blur', settle);
      return { marker, at };
    };
    handles.current = [
      handle(
        'centre',
        'Move the building (drag, or arrow keys)',
        18,
        (p) => [p.lng, p.lat],
        (to) => ({ ...placeRef.current, lng: to[0], lat: to[1] }),
      ),
      ...[0, 1, 2, 3].map((i) =>
        handle(
          'corner',
          `Size the building from corner ${i + 1} (drag, or arrow keys)`,
          14,
          (p) => corners(p)[i],
          (to) => dragCorner(placeRef.current, i, to),
        ),
      ),
      handle('rotate', 'Turn the building (drag, or arrow keys)', 14, rotationHandle, (to) => dragRotation(placeRef.current, to)),
    ];
    return () => {
      stops.forEach((stop) => stop());
      handles.current.forEach((h) => h.marker.remove());
      handles.current = [];
    };
  }, [map, anchors]);
  useEffect(() => {
    for (const h of handles.current) if (h.marker !== moving.current) h.marker.setLatLng(latLng(h.at(place)));
  }, [place]);

  const save = useAction(async () => {
    setSaved(false);
    const p = placeRef.current;
    await api.put(`/buildings/${building.id}`, { location: { lat: p.lat, lng: p.lng }, dimensions: { width: p.width, length: p.length }, rotation: p.rotation }, etag ?? undefined);
    setSaved(true);
    onSaved();
  });
  return (
    <section>
      <h1>
        Place <a href={`/buildings/${building.id}`}>{building.name}</a>
      </h1>
      {!configuredBasemap() && (
        <p class="muted">
          No basemap is configured (the server's operator can set one), so the map shows only the building: place it by typing its centre, or drag it to the shape of the plan.
        </p>
      )}
      <div class="map-page">
        <div ref={container} class="map" data-testid="placement-map" role="region" aria-label="Building placement map" />
        <div class="map-side card">
          <PlacementForm place={place} onChange={setPlace} />
          {floor?.maps.map_url && map && (
            <AnchorPicker
              map={map}
              planUrl={floor.maps.map_url}
              anchors={anchors}
              onAnchors={setAnchors}
              onFit={(image, a) => {
                const fitted = fitAnchors(image, a.plan[0], a.plan[1], a.map[0], a.map[1]);
                if (fitted) setPlace(fitted);
                setAnchors(null);
                return fitted !== null;
              }}
            />
          )}
          <ErrorBox error={save.error} onRetry={save.run} />
          {saved && (
            <p class="notice" role="status">
              Placement saved.
            </p>
          )}
          <ActionButton kind="primary" onAction={save.run}>
            Save placement
          </ActionButton>
        </div>
      </div>
    </section>
  );
}

/** The same placement, typed: rotation in degrees. */
function PlacementForm({ place, onChange }: { place: Placement; onChange: (p: Placement) => void }) {
  const [text, setText] = useState<Record<string, string>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const shown = (key: string, value: number) => text[key] ?? String(Math.round(value * 1e7) / 1e7);
  useEffect(() => setText({}), [place.lat, place.lng, place.width, place.length, place.rotation]);
  // Read from the form itself: what is typed counts even before the page has re-rendered.
  const apply = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const read = (key: string) => readNumber(String(data.get(key) ?? ''));
    const lat = read('lat');
    const lng = read('lng');
    const width = read('width');
    const length = read('length');
    const rotation = read('rotation');
    const errors = [
      ...(lat === null || lat < -90 || lat > 90 ? [{ fields: 'lat', message: 'The latitude must be a number of degrees between -90 and 90.' }] : []),
      ...(lng === null || lng < -180 || lng > 180 ? [{ fields: 'lng', message: 'The longitude must be a number of degrees between -180 and 180.' }] : []),
      ...(width === null || width <= 0 ? [{ fields: 'width', message: 'The width must be a number of metres greater than 0.' }] : []),
      ...(length === null || length <= 0 ? [{ fields: 'length', message: 'The length must be a number of metres greater than 0.' }] : []),
      ...(rotation === null ? [{ fields: 'rotation', message: 'The rotation must be a number of degrees.' }] : []),
    ];
    if (errors.length) {
      setError(new ApiError(422, 'validation_failed', 'Some values need a change.', errors));
      return;
    }
    setError(null);
    onChange({ lat: lat!, lng: lng!, width: width!, length: length!, rotation: radians(rotation!) });
  };
  const field = (key: string, label: string, value: number) => (
    <Field label={label} name={key} inputMode="decimal" value={shown(key, value)} onInput={(e) => setText({ ...text, [key]: e.currentTarget.value })} error={error} />
  );
  return (
    <form
      aria-label="Placement"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
    >
      <div class="row">
        {field('lat', 'Latitude (°)', place.lat)}
        {field('lng', 'Longitude (°)', place.lng)}
      </div>
      <div class="row">
        {field('width', 'Width (m)', place.width)}
        {field('length', 'Length (m)', place.length)}
        {field('rotation', 'Rotation (°)', degrees(place.rotation))}
      </div>
      <button type="submit" class="btn plain">
        Apply typed values
      </button>
    </form>
  );
}
