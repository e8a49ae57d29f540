import { useEffect, useMemo } from 'preact/hooks';
import { getAll, request } from '../api';
import { ErrorBox, useLoad } from '../components/ui';
import { type Floor, floorLabel } from '../model';
import { navigate } from '../router';
import {
  ACCESSIBILITY_MODES,
  type AccessibilityMode,
  CONNECTOR_TYPES,
  type ConnectorType,
  directionsBody,
  type DirectionsOptions,
  type DirectionsRoute,
  type DirectionsState,
  INITIAL_DIRECTIONS,
  type FloorDrawing,
  formatDistance,
  formatDuration,
  indicationRows,
  poiNear,
  type RouteEnd,
  routeOnFloor,
} from './directions';
import { type FloorContext, useLoadedEffect } from './floor-context';
import { RouteLayer } from './route-layer';
import { useMapPick } from './use-map-pick';

declare global {
  interface Window {
    /** What the directions mode draws on the floor shown: read by the browser tests. */
    cartographRouteMap?: { floorId: number; rendered: () => FloorDrawing; project: (lngLat: [number, number]) => { x: number; y: number } };
  }
}

/** How near a POI a click takes it, in pixels. */
const POI_PICK_PX = 14;
/** The floors of the buildings seen, so that a change of floor names them at once (the list is read again all the same). */
const floorsSeen = new Map<string, Floor[]>();
const CONNECTOR_WORDS: Record<ConnectorType, string> = { stairs: 'Stairs', elevator: 'Lifts', escalator: 'Escalators', ramp: 'Ramps' };

/**
 * A route between two ends clicked on the map, on any floor (a click near a POI takes the
 * POI), under the options chosen: drawn on the floor shown, its indications listed (a click
 * on one shows its floor), with its distance and duration; a refusal (422) says why.
 */
export function DirectionsPanel({
  context,
  buildingId,
  state,
  setState,
}: {
  context: FloorContext;
  buildingId: string;
  state: DirectionsState;
  setState: (update: (s: DirectionsState) => DirectionsState) => void;
}) {
  const { map, floor } = context;
  const floors = useLoad(
    async (signal) => {
      const list = (await getAll<Floor>(`/buildings/${buildingId}/floors`, signal)).sort((a, b) => a.level - b.level);
      floorsSeen.set(buildingId, list);
      return list;
    },
    [buildingId],
  );
  const floorList = floors.data ?? floorsSeen.get(buildingId) ?? [floor];
  const floorName = useMemo(() => {
    const names = new Map([...floorList, floor].map((f) => [f.id, floorLabel(f)]));
    return (id: number) => names.get(id) ?? `floor ${id}`;
  }, [floorList, floor]);

  useMapPick(context, state.picking !== null, (lngLat) => {
    const project = (p: [number, number]) => map.latLngToContainerPoint([p[1], p[0]]);
    const poi = poiNear(context.pois, lngLat, project, POI_PICK_PX);
    const end: RouteEnd = poi
      ? { kind: 'poi', poiId: poi.id, floorId: floor.id, name: poi.name || `POI ${poi.id}`, lngLat: [poi.position.lng, poi.position.lat] }
      : { kind: 'point', floorId: floor.id, lngLat };
    setState((s) => (s.picking === 'from' ? { ...s, from: end, picking: s.to ? null : 'to' } : { ...s, to: end, picking: null }));
  });

  const body = state.from && state.to ? directionsBody(state.from, state.to, state.options) : null;
  const key = body ? JSON.stringify(body) : '';
  useEffect(() => {
    if (!body || (state.result?.key === key && !state.result.loading)) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, result: { key, loading: true } }));
    request<DirectionsRoute>(`/buildings/${buildingId}/directions`, { method: 'POST', body, signal: controller.signal }).then(
      (r) => setState((s) => (s.result?.key === key ? { ...s, result: { key, route: r.body } } : s)),
      (error: unknown) => {
        if ((error as Error)?.name !== 'AbortError') setState((s) => (s.result?.key === key ? { ...s, result: { key, error } } : s));
      },
    );
    return () => controller.abort();
  }, [key, buildingId]);

  const result = state.result?.key === key ? state.result : undefined;
  const route = result?.route;

  useLoadedEffect(context, () => {
    const layer = new RouteLayer(map);
    const picked: FloorDrawing = {
      lines: [],
      markers: [
        ...(state.from?.floorId === floor.id ? [{ kind: 'start' as const, lngLat: state.from.lngLat }] : []),
        ...(state.to?.floorId === floor.id ? [{ kind: 'end' as const, lngLat: state.to.lngLat }] : []),
      ],
    };
    layer.set(route ? routeOnFloor(route, floor.id) : picked, floorName);
    window.cartographRouteMap = {
      floorId: floor.id,
      rendered: () => layer.rendered(),
      project: ([lng, lat]) => {
        const p = map.latLngToContainerPoint([lat, lng]);
        return { x: p.x, y: p.y };
      },
    };
    return () => {
      layer.remove();
      delete window.cartographRouteMap;
    };
  }, [map, floor.id, route, state.from, state.to, floorName]);

  const showFloor = (id: number) => {
    if (id !== floor.id) navigate(`/buildings/${buildingId}/floors/${id}/map?view=directions`);
  };
  const setOptions = (change: Partial<DirectionsOptions>) => setState((s) => ({ ...s, options: { ...s.options, ...change } }));
  const describe = (end: RouteEnd | undefined) => (!end ? 'not chosen' : end.kind === 'poi' ? `${end.name} (${floorName(end.floorId)})` : `A point on ${floorName(end.floorId)}`);
  const rows = route ? indicationRows(route.indications, floorName) : [];

  return (
    <div class="directions-panel">
      <label class="inline">
        Floor shown{' '}
        <select aria-label="Floor shown" value={floor.id} onChange={(e) => showFloor(Number(e.currentTarget.value))}>
          {floorList.map((f) => (
            <option value={f.id}>{floorLabel(f)}</option>
          ))}
        </select>
      </label>
      <ErrorBox error={floors.error} onRetry={floors.reload} />
      <dl class="facts" data-testid="route-ends">
        <dt>Start</dt>
        <dd data-testid="route-start">{describe(state.from)}</dd>
        <dt>End</dt>
        <dd data-testid="route-end">{describe(state.to)}</dd>
      </dl>
      <p class="row">
        <button type="button" class="btn plain" aria-pressed={state.picking === 'from'} onClick={() => setState((s) => ({ ...s, picking: 'from' }))}>
          Pick the start
        </button>
        <button type="button" class="btn plain" aria-pressed={state.picking === 'to'} onClick={() => setState((s) => ({ ...s, picking: 'to' }))}>
          Pick the end
        </button>
        <button type="button" class="btn plain" onClick={() => setState((s) => ({ ...INITIAL_DIRECTIONS, options: s.options }))}>
          Clear
        </button>
      </p>
      {state.picking && (
        <p class="muted small" role="status" data-testid="route-picking">
          Click the map for the {state.picking === 'from' ? 'start' : 'end'}: a click on or near a POI takes the POI. Change the floor shown first to pick on another floor.
        </p>
      )}
      <fieldset>
        <legend>Options</legend>
        <label class="inline">
          Accessibility{' '}
          <select
            aria-label="Accessibility"
            value={state.options.accessibilityMode}
            onChange={(e) => setOptions({ accessibilityMode: e.currentTarget.value as AccessibilityMode })}
          >
            {ACCESSIBILITY_MODES.map((m) => (
              <option value={m.id}>{m.label}</option>
            ))}
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" checked={state.options.minimizeFloorChanges} onChange={(e) => setOptions({ minimizeFloorChanges: e.currentTarget.checked })} /> Fewest floor
          changes
        </label>
        <div class="connector-choices">
          {CONNECTOR_TYPES.map((c) => (
            <label class="inline">
              {CONNECTOR_WORDS[c]}{' '}
              <select
                aria-label={CONNECTOR_WORDS[c]}
                value={state.options.connectors[c]}
                onChange={(e) => setOptions({ connectors: { ...state.options.connectors, [c]: e.currentTarget.value as DirectionsOptions['connectors'][ConnectorType] } })}
              >
                <option value="use">use</option>
                <option value="avoid">avoid</option>
                <option value="exclude">never</option>
              </select>
            </label>
          ))}
        </div>
        <label class="inline">
          Walking speed (m/s){' '}
          <input
            type="number"
            min={0.05}
            max={10}
            step={0.1}
            value={state.options.speedMS}
            onChange={(e) => {
              const speed = e.currentTarget.valueAsNumber;
              if (speed >= 0.05 && speed <= 10) setOptions({ speedMS: speed });
            }}
          />
        </label>
      </fieldset>
      {result?.loading && (
        <p role="status" class="muted">
          Finding a route…
        </p>
      )}
      <ErrorBox error={result?.error} />
      {route && (
        <section aria-label="Route" data-testid="route">
          <p data-testid="route-summary">
            <strong>{formatDistance(route.distance)}</strong> · <strong>{formatDuration(route.duration)}</strong>
            {route.avoided.length > 0 && <span class="muted"> · uses {route.avoided.map((c) => CONNECTOR_WORDS[c].toLowerCase()).join(', ')} all the same</span>}
          </p>
          <ol class="indications" aria-label="Indications">
            {rows.map((row) => (
              <li data-action={row.action} data-floor={row.showFloorId}>
                <button type="button" class="btn link" onClick={() => showFloor(row.showFloorId)} aria-current={row.showFloorId === floor.id ? 'true' : undefined}>
                  {row.text}
                </button>{' '}
                <span class="muted">
                  {row.distance} · {row.targetFloorName ? `${row.floorName} → ${row.targetFloorName}` : row.floorName}
                </span>
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}
