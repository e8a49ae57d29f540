import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Building, Floor, Geofence, Poi, PoiCategory } from '../model';
import type { Occupancy } from './map-setup';

/** What every panel of the floor map works with: the map (loaded), the floor and what is on it. */
export interface FloorContext {
  map: MapLibreMap;
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
