import * as L from 'leaflet';
import { createPortal } from 'preact/compat';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorBox, formatTime, useLoad } from '../components/ui';
import { formatAge, FRESHNESS_WORDS } from '../freshness';
import { deviceClicked, LiveDeviceLayer } from '../map-live';
import { rememberDevices, useDeviceName } from '../devices/device-names';
import type { Device } from '../model';
import type { NavigationView } from './directions';
import type { FloorContext } from './floor-context';
import type { LiveNavigations } from './live-navigation';
import { latLng } from './map-setup';

/**
 * Who a dot is: hovering one shows its id, accuracy and last fix on the map; clicking it (or
 * choosing it in the list, with the keyboard) shows its details, name and model from the API,
 * beside the map. A guided device's popup and details say its navigation's progress.
 */
export function DevicesOnFloor({
  context,
  layer,
  navigations,
  focusDevice,
  onHistory,
}: {
  context: FloorContext;
  layer: LiveDeviceLayer;
  navigations: LiveNavigations;
  focusDevice?: string;
  onHistory: (id: string) => void;
}) {
  const { map } = context;
  const [hovered, setHovered] = useState<string | null>(null);
  const [pinned, setPinned] = useState<string | null>(focusDevice ?? null);
  const [listOpen, setListOpen] = useState(false);
  const [tick, setTick] = useState(0);
  // A guided device's progress shows as its items arrive.
  useEffect(() => navigations.subscribe(() => setTick((n) => n + 1)), [navigations]);

  useEffect(() => {
    const container = map.getContainer();
    const move = (e: L.LeafletMouseEvent) => {
      const id = layer.deviceAt(e.containerPoint) ?? null;
      container.classList.toggle('over-device', id !== null);
      setHovered(id);
    };
    const leave = () => {
      container.classList.remove('over-device');
      setHovered(null);
    };
    const click = (e: L.LeafletMouseEvent) => {
      const id = deviceClicked(e.originalEvent);
      if (id) setPinned(id);
    };
    map.on('mousemove', move);
    map.on('mouseout', leave);
    map.on('click', click);
    return () => {
      map.off('mousemove', move);
      map.off('mouseout', leave);
      map.off('click', click);
      leave();
    };
  }, [map, layer]);

  // The list and the popup's age follow the clock while shown.
  useEffect(() => {
    if (!listOpen && !pinned && !hovered) return;
    const timer = setInterval(() => setTick((n) => n + 1), 2000);
    return () => clearInterval(timer);
  }, [listOpen, pinned, hovered]);

  const devices = useMemo(() => (listOpen ? layer.devices() : []), [listOpen, tick, layer]);
  const name = useDeviceName();
  return (
    <>
      {hovered && hovered !== pinned && <DevicePopup context={context} layer={layer} id={hovered} navigation={navigations.get(hovered)} />}
      {pinned && <DeviceDetails layer={layer} id={pinned} navigation={navigations.get(pinned)} onClose={() => setPinned(null)} onHistory={onHistory} />}
      <details class="devices-on-floor" onToggle={(e) => setListOpen((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>Devices on this floor</summary>
        {listOpen && devices.length === 0 && <p class="muted">None right now.</p>}
        <ul class="plain-list">
          {devices.slice(0, 300).map((d) => (
            <li>
              <button type="button" class="btn link" onClick={() => setPinned(d.id)}>
                {name(d.id)}
              </button>{' '}
              {name(d.id) !== d.id && <span class="muted">{d.id}</span>}
              <span class="muted">{d.frozen ? `${FRESHNESS_WORDS.stale}, ${formatAge(Date.now() - d.time)} ago` : `${formatAge(Date.now() - d.time)} ago`}</span>
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}

/** The dot under the pointer: who, how accurate, how old, next to it on the map. */
function DevicePopup({ context, layer, id, navigation }: { context: FloorContext; layer: LiveDeviceLayer; id: string; navigation?: NavigationView }) {
  const element = useMemo(() => document.createElement('div'), []);
  const shown = layer.device(id);
  const name = useDeviceName();
  const lngLat = shown?.lngLat;
  useEffect(() => {
    if (!lngLat) return;
    const marker = L.marker(latLng(lngLat), {
      icon: L.divIcon({ html: element, className: 'map-popup-icon', iconSize: undefined }),
      interactive: false,
      keyboard: false,
      zIndexOffset: 1000,
    }).addTo(context.map);
    return () => {
      marker.remove();
    };
  }, [element, lngLat?.[0], lngLat?.[1]]);
  if (!shown) return null;
  return createPortal(
    <div class="map-popup" role="tooltip" data-testid="device-popup">
      <strong>{name(id)}</strong>
      <dl>
        {name(id) !== id && (
          <>
            <dt>Id</dt>
            <dd>{id}</dd>
          </>
        )}
        <Facts shown={shown} />
        {navigation && <NavigationFacts view={navigation} />}
      </dl>
    </div>,
    element,
  );
}

function Facts({ shown }: { shown: { time: number; accuracy: number; frozen: boolean } }) {
  return (
    <>
      <dt>Accuracy</dt>
      <dd>{Math.round(shown.accuracy * 10) / 10} m</dd>
      <dt>Last fix</dt>
      <dd>
        {formatTime(new Date(shown.time).toISOString())} ({formatAge(Date.now() - shown.time)} ago{shown.frozen ? `, ${FRESHNESS_WORDS.stale}` : ''})
      </dd>
    </>
  );
}

/** A device chosen (a click on its dot, or in the list): its name and model from the API, beside the map. */
function DeviceDetails({
  layer,
  id,
  navigation,
  onClose,
  onHistory,
}: {
  layer: LiveDeviceLayer;
  id: string;
  navigation?: NavigationView;
  onClose: () => void;
  onHistory: (id: string) => void;
}) {
  const details = useLoad(
    (signal) =>
      api.get<Device>(`/devices/${encodeURIComponent(id)}`, signal).then((d) => {
        rememberDevices([d]);
        return d;
      }),
    [id],
  );
  const shown = layer.device(id);
  const device = details.data;
  const name = useDeviceName();
  return (
    <section class="device-details card" aria-label={`Device ${id}`} data-testid="device-details">
      <div class="section-head">
        <h2>{name(id)}</h2>
        <button type="button" class="btn plain close" aria-label="Close the device details" onClick={onClose}>
          ×
        </button>
      </div>
      <dl class="facts">
        {name(id) !== id && (
          <>
            <dt>Id</dt>
            <dd>{id}</dd>
          </>
        )}
        {device?.code && (
          <>
            <dt>Model</dt>
            <dd>{device.code}</dd>
          </>
        )}
        {shown ? <Facts shown={shown} /> : <dd>No longer on this floor.</dd>}
        {navigation && <NavigationFacts view={navigation} />}
      </dl>
      <p class="row">
        <a href={`/devices?search=${encodeURIComponent(id)}`}>In the device list</a>
        <button type="button" class="btn link" onClick={() => onHistory(id)}>
          History
        </button>
      </p>
      <ErrorBox error={details.error} onRetry={details.reload} />
    </section>
  );
}

/** A guided device's progress: what is left, the next indication, off route or arrived. */
function NavigationFacts({ view }: { view: NavigationView }) {
  return (
    <>
      <dt>Navigation</dt>
      <dd data-testid="navigation-progress">
        {view.arrived ? (
          <span class="badge arrived">Arrived</span>
        ) : (
          <>
            {view.distanceRemaining} · {view.durationRemaining} left
            {view.offRoute && (
              <>
                {' '}
                <span class="badge off-route">Off route</span>
              </>
            )}
          </>
        )}
      </dd>
      {view.nextIndication && (
        <>
          <dt>Next</dt>
          <dd data-testid="navigation-next">{view.nextIndication}</dd>
        </>
      )}
    </>
  );
}
