import { type RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, getAll, query } from '../api';
import type { Building, Floor, GeofencingSettings, Geofence, Poi, PoiCategory } from '../model';
import { DEFAULT_STALE_AFTER_S } from '../freshness';
import type { FloorContext } from './floor-context';
import { addFloorLayers, createMap, type FloorMap, type Occupancy } from './map-setup';

export const loadOccupancy = async (floorId: number | string, signal?: AbortSignal): Promise<Occupancy> =>
  Object.fromEntries(
    (await api.get<{ data: Array<{ geofence_id: string; occupants: number }> }>(`/geofencing/occupancy${query({ floor_ids: floorId })}`, signal)).data.map((o) => [
      o.geofence_id,
      o.occupants,
    ]),
  );

/**
 * Loads the floor (building, floor, fences, POIs, categories, occupancy, the organization's
 * stale timeout), then makes the map once and draws the floor on it when it has loaded.
 * Answers the context the panels use as soon as the floor is read, or the error that stopped
 * it (with a retry).
 */
export function useFloorMap(
  container: RefObject<HTMLDivElement | null>,
  buildingId: string,
  floorId: string,
): { context: FloorContext | null; error: unknown; retry: () => void; title: { building?: Building; floor?: Floor } } {
  const [attempt, setAttempt] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [title, setTitle] = useState<{ building?: Building; floor?: Floor }>({});
  const [context, setContext] = useState<FloorContext | null>(null);
  const state = useRef<{ fences: Geofence[]; pois: Poi[]; occupancy: Occupancy; map: FloorMap | null }>({ fences: [], pois: [], occupancy: {}, map: null });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let map: FloorMap | null = null;
    setError(null);
    setContext(null);
    (async () => {
      const [building, floor, fences, pois, categories, occupancy, settings] = await Promise.all([
        api.get<Building>(`/buildings/${buildingId}`, signal),
        api.get<Floor>(`/floors/${floorId}`, signal),
        getAll<Geofence>(`/geofences?floor_ids=${floorId}`, signal),
        api.get<Poi[]>(`/buildings/${buildingId}/pois`, signal),
        api.get<PoiCategory[]>('/poi_categories', signal),
        loadOccupancy(floorId, signal),
        api.get<GeofencingSettings>('/geofencing/settings', signal).catch(() => ({ stale_after_seconds: DEFAULT_STALE_AFTER_S })),
      ]);
      if (signal.aborted) return;
      setTitle({ building, floor });
      const onFloor = pois.filter((p) => p.position.floor_id === floor.id);
      Object.assign(state.current, { fences, pois: onFloor, occupancy });
      map = createMap(container.current!, building, { basemap: true });
      state.current.map = map;
      const created = map;
      const s = state.current;
      const layers = addFloorLayers(created, building, floor, s.fences, s.occupancy, s.pois);
      void layers.pois.useIcons(categories);
      container.current?.setAttribute('data-ready', 'true');
      const loaded = Promise.resolve();
      const make = (): FloorContext => ({
        map: created,
        loaded,
        layers,
        building,
        floor,
        fences: s.fences,
        pois: s.pois,
        categories,
        occupancy: s.occupancy,
        staleAfterS: settings.stale_after_seconds ?? DEFAULT_STALE_AFTER_S,
        reloadFences: async () => {
          s.fences = await getAll<Geofence>(`/geofences?floor_ids=${floorId}`);
          layers.fences.set(s.fences, s.occupancy);
          setContext(make());
          return s.fences;
        },
        reloadPois: async () => {
          s.pois = (await api.get<Poi[]>(`/buildings/${buildingId}/pois`)).filter((p) => p.position.floor_id === floor.id);
          layers.pois.set(s.pois);
          setContext(make());
        },
        setOccupancy: (occupancy) => {
          s.occupancy = occupancy;
          layers.fences.set(s.fences, occupancy);
          setContext(make());
        },
      });
      // The panels show now; their drawing waits for the map (see useLoadedEffect).
      setContext(make());
    })().catch((e) => !signal.aborted && setError(e));
    return () => {
      controller.abort();
      container.current?.removeAttribute('data-ready');
      map?.remove();
      state.current.map = null;
    };
  }, [buildingId, floorId, attempt]);

  return { context, error, retry: () => setAttempt((n) => n + 1), title };
}
