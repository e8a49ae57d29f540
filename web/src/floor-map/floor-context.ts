import * as L from 'leaflet';
import { useEffect, useState } from 'preact/hooks';
import type { Building, Floor, Geofence, Poi, PoiCategory } from '../model';
import type { FloorLayers, FloorMap, Occupancy } from './map-setup';

/**
 * What every panel of the floor map works with: the map, the floor and what is on it. The
 * panels show as soon as the floor is read; what they draw waits for `loaded` (the map's style
 * and the floor's own layers), see useLoadedEffect.
 */
export interface FloorContext {
  map: FloorMap;
  /** Resolves once the map is loaded and the plan, fences and POIs are on it. */
  loaded: Promise<void>;
  /** The plan, fences and POIs on the map. */
  layers: FloorLayers;
  building: Building;
  floor: Floor;
  fences: Geofence[];
  pois: Poi[];
  categories: PoiCategory[];
  occupancy: Occupancy;
  /** The organization's `stale_after_seconds`: how long a silent device stays on the map (and in fences). */
  staleAfterS: number;
  /** Reads the floor's fences again and redraws them; answers the new list. */
  reloadFences(): Promise<Geofence[]>;
  reloadPois(): Promise<void>;
  setOccupancy(occupancy: Occupancy): void;
}

/** An effect on the map that runs once it is loaded (its cleanup as any effect's). */
export function useLoadedEffect(context: Pick<FloorContext, 'loaded'>, effect: () => void | (() => void), deps: unknown[]): void {
  useEffect(() => {
    let cleanup: void | (() => void);
    let cancelled = false;
    void context.loaded.then(() => {
      if (!cancelled) cleanup = effect();
    });
    return () => {
      cancelled = true;
      if (cleanup) cleanup();
    };
  }, deps);
}

/** A layer group of the editor's own on the floor map, once it has loaded (null before), removed when the editor goes. */
export function useFloorLayerGroup(context: Pick<FloorContext, 'loaded' | 'map'>): L.LayerGroup | null {
  const [group, setGroup] = useState<L.LayerGroup | null>(null);
  useLoadedEffect(context, () => {
    const created = L.layerGroup().addTo(context.map);
    setGroup(created);
    return () => {
      setGroup(null);
      created.remove();
    };
  }, [context.map]);
  return group;
}
