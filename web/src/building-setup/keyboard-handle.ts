import * as L from 'leaflet';

/** A focusable handle on the map (a round marker), with its label for screen readers. */
export function handleMarker(at: L.LatLngExpression, kind: string, label: string, size: number, options: L.MarkerOptions = {}): L.Marker {
  const marker = L.marker(at, { icon: L.divIcon({ className: `edit-handle ${kind}`, iconSize: [size, size] }), keyboard: true, title: label, ...options });
  marker.on('add', () => marker.getElement()?.setAttribute('aria-label', label));
  return marker;
}

/**
 * Arrow keys move a focused handle by a pixel of the screen (ten with Shift), as a drag would;
 * Enter (or Space) says it is where it should be. The map keeps its own arrow keys for itself.
 */
export function moveWithKeys(map: L.Map, marker: L.Marker, onMove: (to: [number, number]) => void, onSet?: () => void): () => void {
  const element = marker.getElement();
  if (!element) return () => {};
  const keydown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 10 : 1;
    const delta = ({ ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] } as Record<string, [number, number]>)[e.key];
    if (delta) {
      e.preventDefault();
      e.stopPropagation();
      const to = map.containerPointToLatLng(map.latLngToContainerPoint(marker.getLatLng()).add(delta));
      marker.setLatLng(to);
      onMove([to.lng, to.lat]);
    } else if (onSet && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      e.stopPropagation();
      onSet();
    }
  };
  element.addEventListener('keydown', keydown);
  return () => element.removeEventListener('keydown', keydown);
}
