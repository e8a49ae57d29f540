import * as L from 'leaflet';
import type { FloorDrawing, RouteMarker } from './directions';
import { latLng } from './map-setup';

const MARKER_WORDS: Record<RouteMarker['kind'], string> = { start: 'A', end: 'B', leave: '⇅', arrive: '⇅' };

/**
 * A route's part on the floor shown, as directions.routeOnFloor shapes it: its lines in the
 * route pane (drawn, never clicked), a marker at each end, and one where a floor change leaves
 * or arrives, titled with the other floor. One layer per route: the directions mode has one,
 * the live map one per guided device.
 */
export class RouteLayer {
  private readonly group = L.layerGroup();
  private drawing: FloorDrawing = { lines: [], markers: [] };

  constructor(
    map: L.Map,
    private readonly style: { colour: string; className: string } = { colour: '#7b2cbf', className: 'route' },
  ) {
    this.group.addTo(map);
  }

  set(drawing: FloorDrawing, floorName: (id: number) => string): void {
    this.drawing = drawing;
    this.group.clearLayers();
    for (const line of drawing.lines) {
      this.group.addLayer(
        L.polyline(line.map(latLng), { pane: 'route', color: this.style.colour, weight: 5, opacity: 0.85, interactive: false, className: `${this.style.className}-line` }),
      );
    }
    for (const marker of drawing.markers) {
      const element = document.createElement('span');
      element.className = `route-marker ${marker.kind}`;
      element.dataset.kind = marker.kind;
      element.style.setProperty('--route-colour', this.style.colour);
      element.textContent = MARKER_WORDS[marker.kind];
      if (marker.otherFloorId !== undefined) {
        const other = floorName(marker.otherFloorId);
        element.dataset.floor = other;
        element.title = marker.kind === 'leave' ? `Change to ${other}` : `Arriving from ${other}`;
        element.textContent = `${MARKER_WORDS[marker.kind]} ${other}`;
      } else element.title = marker.kind === 'start' ? 'Start' : 'End';
      const icon = L.divIcon({ html: element, className: `route-marker-icon ${this.style.className}-icon`, iconSize: undefined });
      this.group.addLayer(L.marker(latLng(marker.lngLat), { icon, interactive: false, keyboard: false, zIndexOffset: 500 }));
    }
  }

  clear(): void {
    this.set({ lines: [], markers: [] }, String);
  }

  /** What is drawn now, for the page's probe. */
  rendered(): FloorDrawing {
    return this.drawing;
  }

  remove(): void {
    this.group.remove();
  }
}
