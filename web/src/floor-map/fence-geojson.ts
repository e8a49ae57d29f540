import { toLatLngRing, toLngLatRing } from '../geo';
import type { CustomField, Geofence } from '../model';

/** A floor's fences as a GeoJSON file (RFC 7946: [lng, lat]); name, code and custom fields in the properties. */
export function fencesToGeoJson(fences: readonly Geofence[]): GeoJSON.FeatureCollection {
  return {
    type: 'FeatureCollection',
    features: fences.map((f) => ({
      type: 'Feature',
      id: f.id,
      properties: { name: f.name, code: f.code ?? '', custom_fields: f.custom_fields ?? [] },
      geometry: { type: 'Polygon', coordinates: [toLngLatRing(f.geometric)] },
    })),
  };
}

/** One fence to create from a file, or why a feature of it cannot be one. */
export type ImportItem =
  | { index: number; name: string; body: { name: string; code: string; custom_fields: CustomField[]; geometric: Array<[number, number]> } }
  | { index: number; name: string; problem: string };

const isPosition = (p: unknown): p is number[] => Array.isArray(p) && p.length >= 2 && typeof p[0] === 'number' && typeof p[1] === 'number';

/** The fences a GeoJSON text holds (a FeatureCollection, a Feature or a bare Polygon), each checked before anything is sent. */
export function readFenceFile(text: string): ImportItem[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'The file is not JSON: choose a .geojson or .json file.';
  }
  const root = parsed as { type?: string; features?: unknown[] };
  const features: unknown[] =
    root?.type === 'FeatureCollection' && Array.isArray(root.features)
      ? root.features
      : root?.type === 'Feature'
        ? [root]
        : root?.type === 'Polygon'
          ? [{ type: 'Feature', properties: {}, geometry: root }]
          : [];
  if (features.length === 0) return 'The file has no GeoJSON feature (a FeatureCollection of polygons is expected).';
  return features.map((raw, index) => {
    const feature = raw as { properties?: Record<string, unknown> | null; geometry?: { type?: string; coordinates?: unknown } | null };
    const props = feature.properties ?? {};
    const name = String(props.name ?? props.title ?? '').trim() || `Imported geofence ${index + 1}`;
    const geometry = feature.geometry;
    let ring: unknown = null;
    if (geometry?.type === 'Polygon' && Array.isArray(geometry.coordinates)) ring = geometry.coordinates[0];
    else if (geometry?.type === 'MultiPolygon' && Array.isArray(geometry.coordinates) && (geometry.coordinates as unknown[][]).length === 1)
      ring = (geometry.coordinates as unknown[][][])[0][0];
    if (!Array.isArray(ring) || !ring.every(isPosition)) return { index, name, problem: `not a polygon (${geometry?.type ?? 'no geometry'})` };
    const points = (ring as number[][]).map((p) => [p[0], p[1]]);
    const first = points[0];
    const last = points[points.length - 1];
    if (first[0] !== last[0] || first[1] !== last[1]) points.push([...first]);
    if (points.length < 4) return { index, name, problem: 'a polygon needs at least three corners' };
    const fields = Array.isArray(props.custom_fields)
      ? (props.custom_fields as Array<{ key?: unknown; value?: unknown }>)
          .filter((f) => f && typeof f.key === 'string')
          .map((f) => ({ key: String(f.key), value: String(f.value ?? '') }))
      : [];
    return { index, name, body: { name, code: typeof props.code === 'string' ? props.code : '', custom_fields: fields, geometric: toLatLngRing(points) } };
  });
}
