import type * as L from 'leaflet';
import { useLayoutEffect } from 'preact/hooks';
import type { FloorContext } from './floor-context';

/** While `active`, a click on the map hands its point ([lng, lat]) to `onPick`; the cursor says so. */
export function useMapPick(context: FloorContext, active: boolean, onPick: (lngLat: [number, number]) => void): void {
  // A layout effect: the map listens before the words asking for the click are painted.
  useLayoutEffect(() => {
    if (!active) return;
    const container = context.map.getContainer();
    container.classList.add('picking');
    const click = (e: L.LeafletMouseEvent) => onPick([e.latlng.lng, e.latlng.lat]);
    context.map.on('click', click);
    return () => {
      container.classList.remove('picking');
      context.map.off('click', click);
    };
  }, [context.map, active, onPick]);
}
