import * as L from 'leaflet';
import type { TerraDraw } from 'terra-draw';
import { toLngLatRing } from '../geo';
import type { Geofence } from '../model';

/**
 * Drawing and reshaping fences with terra-draw, loaded the first time it is needed (it is
 * not part of the map page's first load). One per map.
 */
export class FenceDrawing {
  private constructor(private readonly draw: TerraDraw) {}

  static async start(map: L.Map, onFinish: (ring: number[][]) => void): Promise<FenceDrawing> {
    const [{ TerraDraw, TerraDrawPolygonMode, TerraDrawSelectMode }, { TerraDrawLeafletAdapter }] = await Promise.all([import('terra-draw'), import('terra-draw-leaflet-adapter')]);
    const adapter = new TerraDrawLeafletAdapter({ lib: L, map });
    // The adapter orders its panes with an inline <style> element, which the dashboard's CSP refuses:
    // the same z-index goes on the pane itself, and the pane stays for the next drawing.
    (adapter as unknown as { createPaneStyleSheet(name: string, zIndex: number): { remove(): void } }).createPaneStyleSheet = (name, zIndex) => {
      const pane = map.getPane(name) ?? map.createPane(name);
      pane.style.zIndex = String(zIndex + 600);
      return { remove: () => {} };
    };
    const draw = new TerraDraw({
      adapter,
      modes: [
        new TerraDrawPolygonMode(),
        new TerraDrawSelectMode({ flags: { polygon: { feature: { draggable: false, coordinates: { midpoints: true, draggable: true, deletable: true } } } } }),
      ],
    });
    draw.start();
    draw.on('finish', (id) => {
      const feature = draw.getSnapshotFeature(id);
      if (feature?.geometry.type === 'Polygon' && draw.getMode() === 'polygon') onFinish(feature.geometry.coordinates[0] as number[][]);
    });
    return new FenceDrawing(draw);
  }

  get drawing(): boolean {
    return this.draw.getMode() === 'polygon';
  }

  /** Click by click: each click a corner, the first one again closes the ring. */
  polygon(): void {
    this.draw.clear();
    this.draw.setMode('polygon');
  }

  /** The fence's corners become handles to drag; midpoints add corners. */
  reshape(fence: Geofence): boolean {
    this.draw.clear();
    const [result] = this.draw.addFeatures([
      { id: fence.id, type: 'Feature', properties: { mode: 'polygon' }, geometry: { type: 'Polygon', coordinates: [toLngLatRing(fence.geometric)] } },
    ]);
    if (!result.valid) return false;
    this.draw.setMode('select');
    this.draw.selectFeature(fence.id);
    return true;
  }

  /** The reshaped ring, [lng, lat] pairs. */
  ring(id: string): number[][] | null {
    const feature = this.draw.getSnapshotFeature(id);
    return feature?.geometry.type === 'Polygon' ? (feature.geometry.coordinates[0] as number[][]) : null;
  }

  stop(): void {
    this.draw.clear();
    this.draw.setMode('static');
  }

  destroy(): void {
    try {
      this.draw.stop();
    } catch {
      // The map may already be gone.
    }
  }
}
