import * as L from 'leaflet';
import { useEffect, useState } from 'preact/hooks';
import { api, query } from '../api';
import { ErrorBox, Loading, useLoad } from '../components/ui';
import { type FloorContext, useFloorLayerGroup } from './floor-context';
import { type GatewayHealth, type GatewayItem, gatewayView, type GatewayView } from './gateways';

/** How often the floor's gateways' health is read again while the section is open. */
const HEALTH_EVERY_MS = 15_000;

/**
 * The floor's BLE gateways on the map (squares: green heard, red silent, grey never heard) and listed
 * with their health (issue 39): last heard, messages per second, tags heard, what was not understood.
 * Gateways are registered through the API or its CSV (docs/gateways.md); here they are watched.
 */
export function GatewaysSection({ context }: { context: FloorContext }) {
  const { building, floor } = context;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), HEALTH_EVERY_MS);
    return () => clearInterval(timer);
  }, []);
  const list = useLoad(
    async (signal) => {
      const gateways = await api.get<GatewayItem[]>(`/infrastructure/gateways${query({ building_id: building.id, floor_id: floor.id })}`, signal);
      const healths = await Promise.all(gateways.map((g) => api.get<GatewayHealth>(`/infrastructure/gateways/${g.id}/health`, signal).catch(() => null)));
      const now = Date.now();
      return gateways.map((g, index) => ({ gateway: g, view: gatewayView(g, healths[index], now) }));
    },
    [building.id, floor.id, tick],
  );

  const drawn = useFloorLayerGroup(context);
  useEffect(() => {
    if (!drawn) return;
    drawn.clearLayers();
    for (const { gateway, view } of list.data ?? []) {
      const icon = L.divIcon({ className: `gateway-marker ${view.state}`, iconSize: [14, 14], html: '' });
      drawn.addLayer(L.marker([gateway.lat, gateway.lng], { icon, pane: 'markerPane', title: view.title, keyboard: false }).bindTooltip(tooltip(view), { direction: 'top' }));
    }
  }, [list.data, drawn]);

  const views: GatewayView[] = (list.data ?? []).map((item) => item.view);
  const silent = views.filter((view) => view.state === 'silent').length;
  return (
    <section class="gateways-section" aria-label="Gateways">
      <h2>Gateways</h2>
      <ErrorBox error={list.error} onRetry={list.reload} />
      {!list.data && !list.error && <Loading what="gateways" />}
      {list.data && views.length === 0 && <p class="muted">No gateway on this floor (register them through the API: docs/gateways.md).</p>}
      {views.length > 0 && (
        <p class={silent > 0 ? 'notice' : 'muted'} role="status">
          {views.length} {views.length === 1 ? 'gateway' : 'gateways'}
          {silent > 0 ? `, ${silent} silent` : ', none silent'}
        </p>
      )}
      <ul class="gateway-list">
        {views.map((view) => (
          <li class={`gateway ${view.state}`} data-gateway-id={view.id}>
            <strong>{view.title}</strong>
            {view.state === 'silent' && <span class="badge warn">Silent</span>}
            {view.lines.map((line) => (
              <div class="muted">{line}</div>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

function tooltip(view: GatewayView): HTMLElement {
  const box = document.createElement('div');
  const title = document.createElement('strong');
  title.textContent = view.title;
  box.append(title);
  for (const line of view.lines) {
    const row = document.createElement('div');
    row.textContent = line;
    box.append(row);
  }
  return box;
}
