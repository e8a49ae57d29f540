import * as L from 'leaflet';
import polylabel from 'polylabel';

/** POI names show from this zoom on (about 0.2 m a pixel: a room's width is well over a name's). */
export const POI_NAMES_ZOOM = 19;

/** Where a fence's name goes: its ring's pole of inaccessibility (inside even an L- or C-shaped fence). */
export function labelPoint(ring: readonly L.LatLngTuple[]): L.LatLngTuple {
  // Metres-like axes (longitude shrunk by the latitude), so "farthest from the edges" is on the ground.
  const k = Math.cos((ring[0][0] * Math.PI) / 180);
  const [x, y] = polylabel([ring.map(([lat, lng]) => [lng * k, lat])], 1e-7);
  return [y, x / k];
}

export type LabelKind = 'fence' | 'poi';

interface Label {
  key: string;
  tooltip: L.Tooltip;
  /** Whether the label fits its thing at the map's zoom, given its own width in pixels. */
  fits: (width: number) => boolean;
}

/**
 * The names on a floor map: permanent tooltips (class `map-label`), placed again after each zoom.
 * A label shows when it fits its thing (a fence's on-screen width, the POI zoom) and overlaps no
 * label already shown: fence names first, then POI names, each in the order given.
 */
export class MapLabels {
  private readonly group: L.LayerGroup;
  private readonly labels: Record<LabelKind, Label[]> = { fence: [], poi: [] };

  constructor(private readonly map: L.Map) {
    this.group = L.layerGroup().addTo(map);
    map.on('zoomend resize', () => this.place());
  }

  /** Replaces the labels of one kind (a label already there, same text at the same place, stays: no flicker on each occupancy update). */
  set(kind: LabelKind, labels: Array<{ at: L.LatLngTuple; text: string; offsetY?: number; fits: (width: number) => boolean }>): void {
    const old = new Map(this.labels[kind].map((l) => [l.key, l]));
    this.labels[kind] = labels.map(({ at, text, offsetY = 0, fits }) => {
      const key = JSON.stringify([at, text, offsetY]);
      const kept = old.get(key);
      if (kept) {
        old.delete(key);
        return { ...kept, fits };
      }
      const tooltip = L.tooltip({
        permanent: true,
        interactive: false,
        direction: offsetY ? 'top' : 'center',
        offset: [0, offsetY],
        className: `map-label ${kind}-label`,
      }).setLatLng(at);
      // Text, never markup: a name is whatever a user typed.
      const element = document.createElement('span');
      element.textContent = text;
      tooltip.setContent(element);
      this.group.addLayer(tooltip);
      return { key, tooltip, fits };
    });
    for (const l of old.values()) this.group.removeLayer(l.tooltip);
    this.place();
  }

  /** Shows the labels that fit and do not overlap, hides the others. */
  place(): void {
    const taken: DOMRect[] = [];
    for (const l of [...this.labels.fence, ...this.labels.poi]) {
      const element = l.tooltip.getElement();
      if (!element) continue;
      element.classList.remove('map-label-hidden');
      const box = element.getBoundingClientRect();
      const show = l.fits(box.width) && !taken.some((t) => box.left < t.right && t.left < box.right && box.top < t.bottom && t.top < box.bottom);
      element.classList.toggle('map-label-hidden', !show);
      if (show) taken.push(box);
    }
  }

  /** The labels shown, for the browser tests. */
  shown(): Array<{ kind: LabelKind; text: string }> {
    return (['fence', 'poi'] as const).flatMap((kind) =>
      this.labels[kind]
        .filter((l) => l.tooltip.getElement() && !l.tooltip.getElement()!.classList.contains('map-label-hidden'))
        .map((l) => ({ kind, text: l.tooltip.getElement()!.textContent ?? '' })),
    );
  }

  /** A fence's on-screen width, in pixels. */
  widthOf(bounds: L.LatLngBounds): number {
    return Math.abs(this.map.latLngToContainerPoint(bounds.getNorthEast()).x - this.map.latLngToContainerPoint(bounds.getSouthWest()).x);
  }
}
