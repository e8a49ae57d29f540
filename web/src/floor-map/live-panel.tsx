import { useEffect, useRef, useState } from 'preact/hooks';
import { api, getAll, query } from '../api';
import type { GeofenceEvent } from '../components/event-list';
import { ErrorBox } from '../components/ui';
import { loadBuildingDeviceNames } from '../devices/device-names';
import { LiveMapProbe, PositionFeature, toLiveDevice } from '../live';
import { openLiveStream, StreamStatus } from '../live-stream';
import { LiveDeviceLayer } from '../map-live';
import { type Floor, floorLabel } from '../model';
import { DevicesOnFloor } from './device-popup';
import { type FloorContext, useLoadedEffect } from './floor-context';
import { FenceSection } from './fence-section';
import { LiveNavigations } from './live-navigation';
import type { FloorLayers, FloorMap } from './map-setup';
import { loadOccupancy } from './use-floor-map';

declare global {
  interface Window {
    cartographLiveMap?: LiveMapProbe;
  }
}

const NAMES_EVERY_MS = 60_000;
const STATUS_WORDS: Record<StreamStatus, string> = { connecting: 'connecting…', live: 'live', reconnecting: 'reconnecting…', stopped: 'stopped' };

function probe(map: FloorMap, floor: FloorLayers, layer: LiveDeviceLayer, navigations: LiveNavigations): LiveMapProbe {
  return Object.freeze({
    paintedAt: () => layer.lastPaint.at,
    paintedDevices: () => layer.lastPaint.devices.size,
    receivedAt: () => layer.receivedAt,
    fixesPaintedSince: (time: number) => {
      let n = 0;
      for (const d of layer.lastPaint.devices.values()) if (d.time >= time) n++;
      return n;
    },
    renderedDevices: () => layer.rendered(),
    renderedTrails: () => layer.renderedTrails(),
    frozenLabels: () => layer.frozenLabels,
    renderedFences: () => floor.fences.rendered(),
    renderedPois: () => floor.pois.rendered(),
    renderedNavigations: () => navigations.rendered(),
    project: (lngLat: [number, number]) => {
      const p = map.latLngToContainerPoint([lngLat[1], lngLat[0]]);
      return { x: p.x, y: p.y };
    },
    view: () => {
      const centre = map.getCenter();
      return { centre: [centre.lng, centre.lat] as [number, number], zoom: map.getZoom() };
    },
  });
}

/**
 * The floor now: devices from the realtime stream (after the current picture), fences coloured
 * by occupancy (read again as enters and exits arrive), the fences' list and panel.
 */
export function LivePanel({
  context,
  buildingId,
  focusDevice,
  onHistory,
}: {
  context: FloorContext;
  buildingId: string;
  focusDevice?: string;
  onHistory: (deviceId: string) => void;
}) {
  const { map, floor, staleAfterS } = context;
  const [layer, setLayer] = useState<LiveDeviceLayer | null>(null);
  const [navigations, setNavigations] = useState<LiveNavigations | null>(null);
  const [trails, setTrails] = useState(true);
  const [deviceCount, setDeviceCount] = useState(0);
  const [positionsStatus, setPositionsStatus] = useState<StreamStatus>('connecting');
  const [eventsStatus, setEventsStatus] = useState<StreamStatus>('connecting');
  const [liveError, setLiveError] = useState<unknown>(null);
  // Bumped when an event of a fence arrives: the fence panel showing it reloads its lists.
  const [fenceEvent, setFenceEvent] = useState<{ fenceId: string; n: number }>({ fenceId: '', n: 0 });
  const contextRef = useRef(context);
  contextRef.current = context;
  const [attempt, setAttempt] = useState(0);
  const trailsRef = useRef(trails);
  trailsRef.current = trails;
  useEffect(() => {
    if (layer) layer.trails = trails;
  }, [layer, trails]);

  useLoadedEffect(context, () => {
    let cancelled = false;
    let occupancyTimer: ReturnType<typeof setTimeout> | undefined;
    setLiveError(null);
    const live = new LiveDeviceLayer(map, floor.id, setDeviceCount, staleAfterS * 1000, { trails: trailsRef.current });
    const guided = new LiveNavigations(map, floor.id, staleAfterS * 1000);
    setLayer(live);
    setNavigations(guided);
    window.cartographLiveMap = probe(map, context.layers!, live, guided);
    getAll<Floor>(`/buildings/${buildingId}/floors`).then(
      (floors) => !cancelled && guided.setFloorNames(new Map(floors.map((f) => [f.id, floorLabel(f)]))),
      () => undefined,
    );

    /** Occupancy again, at most a few times a second however many enters and exits arrive. */
    const refreshOccupancy = () => {
      if (occupancyTimer) return;
      occupancyTimer = setTimeout(() => {
        occupancyTimer = undefined;
        loadOccupancy(floor.id).then(
          (o) => !cancelled && contextRef.current.setOccupancy(o),
          (e) => !cancelled && setLiveError(e),
        );
      }, 250);
    };

    // The stream first, then the current picture (as old as the stale timeout): a fix older than what is shown never moves a dot back.
    const offer = (feature: PositionFeature) => {
      const device = toLiveDevice(feature);
      if (device) live.offer(device);
      guided.offer(feature);
    };
    const streams = [
      openLiveStream({
        path: '/realtime/stream',
        params: { building_ids: buildingId },
        events: ['position'],
        onEvent: (_type, data) => offer(data as PositionFeature),
        onStatus: setPositionsStatus,
      }),
      openLiveStream({
        path: '/geofencing/events/stream',
        params: { building_ids: buildingId },
        events: ['geofence.enter', 'geofence.exit', 'geofence.dwell'],
        onEvent: (type, data) => {
          const event = data as GeofenceEvent;
          if (event.floor_id !== floor.id) return;
          if (type !== 'geofence.dwell') refreshOccupancy();
          setFenceEvent((last) => ({ fenceId: event.geofence?.id ?? '', n: last.n + 1 }));
        },
        onStatus: (status) => {
          setEventsStatus(status);
          // Whatever happened while the stream was down is in the occupancy read.
          if (status === 'live') refreshOccupancy();
        },
      }),
    ];
    // The names of the building's devices (GET /devices, as the device list), read again each minute for renames made elsewhere.
    const readNames = () => loadBuildingDeviceNames(buildingId).catch(() => undefined);
    readNames();
    const namesTimer = setInterval(readNames, NAMES_EVERY_MS);
    api.get<{ features: PositionFeature[] }>(`/realtime/positions${query({ building_ids: buildingId, max_sec_threshold: staleAfterS })}`).then(
      (snapshot) => !cancelled && snapshot.features.forEach(offer),
      (e) => !cancelled && setLiveError(e),
    );
    return () => {
      cancelled = true;
      clearTimeout(occupancyTimer);
      clearInterval(namesTimer);
      streams.forEach((s) => s.close());
      live.destroy();
      guided.destroy();
      delete window.cartographLiveMap;
      setLayer(null);
      setNavigations(null);
    };
  }, [map, floor.id, buildingId, staleAfterS, attempt]);

  return (
    <div class="live-panel">
      <p class="live-status" role="status" data-testid="live-status" data-devices={deviceCount}>
        <span class={`dot ${positionsStatus}`} aria-hidden="true" /> {deviceCount} {deviceCount === 1 ? 'device' : 'devices'} on this floor · positions{' '}
        {STATUS_WORDS[positionsStatus]} · events {STATUS_WORDS[eventsStatus]}
      </p>
      <p class="muted small">
        Grey dots have not reported for over 30 s (their age is shown); they leave the map after {staleAfterS} s without a fix, when the geofences let them go too.
      </p>
      <label class="inline">
        <input type="checkbox" checked={trails} onChange={(e) => setTrails(e.currentTarget.checked)} /> Trails (each device's last 2 minutes)
      </label>
      <ErrorBox error={liveError} onRetry={() => setAttempt((n) => n + 1)} />
      {layer && navigations && <DevicesOnFloor context={context} layer={layer} navigations={navigations} focusDevice={focusDevice} onHistory={onHistory} />}
      <FenceSection context={context} fenceEvent={fenceEvent} />
    </div>
  );
}
