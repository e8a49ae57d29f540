import { lazy, Suspense } from 'preact/compat';
import { useRef, useState } from 'preact/hooks';
import { ErrorBox, Loading } from '../components/ui';
import { floorLabel } from '../model';
import { type DirectionsState, INITIAL_DIRECTIONS } from './directions';
import { LivePanel } from './live-panel';
import { useFloorMap } from './use-floor-map';

// The live view is what opens; the others load when chosen.
const HistoryPanel = lazy(() => import('./history-panel').then((m) => ({ default: m.HistoryPanel })));
const HeatmapPanel = lazy(() => import('./heatmap-panel').then((m) => ({ default: m.HeatmapPanel })));
const DirectionsPanel = lazy(() => import('./directions-panel').then((m) => ({ default: m.DirectionsPanel })));
const EditPanel = lazy(() => import('./edit-panel').then((m) => ({ default: m.EditPanel })));

const TABS = [
  { id: 'live', label: 'Live' },
  { id: 'history', label: 'History' },
  { id: 'heatmap', label: 'Heatmap' },
  { id: 'directions', label: 'Directions' },
  { id: 'edit', label: 'Edit map' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/**
 * A floor on its map, in five views that share the map: live devices and fences, history
 * playback, the heatmap, directions between two ends, and the editors of what is on the floor.
 * The view is in the address (`?view=`), so a link opens it. The directions' ends and route are
 * kept here, so they stay when the map moves to another floor.
 */
export function FloorMapPage({ buildingId, floorId, search }: { buildingId: string; floorId: string; search: string }) {
  const container = useRef<HTMLDivElement>(null);
  const params = new URLSearchParams(search);
  const [tab, setTab] = useState<Tab>((TABS.find((t) => t.id === params.get('view'))?.id as Tab) ?? 'live');
  const { context, error, retry, title } = useFloorMap(container, buildingId, floorId);
  const [historyDevice, setHistoryDevice] = useState(params.get('device') ?? undefined);
  const [directions, setDirections] = useState<DirectionsState>(INITIAL_DIRECTIONS);
  const choose = (next: Tab) => {
    setTab(next);
    const url = new URL(location.href);
    url.searchParams.set('view', next);
    history.replaceState(null, '', url.pathname + url.search);
  };
  return (
    <section>
      <h1>
        {title.building ? <a href={`/buildings/${buildingId}`}>{title.building.name}</a> : 'Floor'} · {title.floor ? floorLabel(title.floor) : ''}
      </h1>
      <ErrorBox error={error} onRetry={retry} />
      <div class="tabs" role="tablist" aria-label="Map views">
        {TABS.map((t) => (
          <button type="button" role="tab" id={`tab-${t.id}`} aria-selected={tab === t.id} aria-controls="map-panel" class="btn plain" onClick={() => choose(t.id)}>
            {t.label}
          </button>
        ))}
      </div>
      <div class="map-page">
        <div class="map-wrap">
          <div ref={container} class="map" data-testid="floor-map" role="region" aria-label="Floor map" />
          {context && (
            <div class="map-zoom">
              <button type="button" class="btn plain" aria-label="Zoom in" onClick={() => context.map.zoomIn()}>
                +
              </button>
              <button type="button" class="btn plain" aria-label="Zoom out" onClick={() => context.map.zoomOut()}>
                −
              </button>
            </div>
          )}
        </div>
        <div class="map-side card" id="map-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
          {!context && !error && <Loading what="the floor" />}
          {context && tab === 'live' && (
            <LivePanel
              context={context}
              buildingId={buildingId}
              focusDevice={params.get('device') ?? undefined}
              onHistory={(id) => {
                setHistoryDevice(id);
                choose('history');
              }}
            />
          )}
          <Suspense fallback={<Loading what="the view" />}>
            {context && tab === 'history' && <HistoryPanel context={context} initialDevice={historyDevice} />}
            {context && tab === 'heatmap' && <HeatmapPanel context={context} />}
            {context && tab === 'directions' && <DirectionsPanel context={context} buildingId={buildingId} state={directions} setState={setDirections} />}
            {context && tab === 'edit' && <EditPanel context={context} />}
          </Suspense>
        </div>
      </div>
    </section>
  );
}
