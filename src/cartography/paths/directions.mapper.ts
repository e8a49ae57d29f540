import { BuildingFrame, toGeoreference } from '../../common/geometry/cartesian';
import { DirectionsResponseDto, RoutePointDto } from './directions.dto';
import type { Route, RoutePoint } from './router';

/** The wire form of a route (issue 40, "The wire"): points with lat/lng from the building's frame, GeoJSON per floor. */
export function toDirectionsResponse(route: Route, frame: BuildingFrame, toPoiId: number | null): DirectionsResponseDto {
  const point = (p: RoutePoint): RoutePointDto => {
    const { lat, lng } = toGeoreference(frame, p);
    return { floor_id: p.floor_id, x: p.x, y: p.y, lat, lng };
  };
  return {
    distance: route.distance,
    duration: route.duration,
    from: point(route.from),
    to: point(route.to),
    to_poi_id: toPoiId,
    points: route.points.map(point),
    edges: route.edges.map((edge) => ({ from: edge.from, to: edge.to, distance: edge.distance, floor_id: edge.floor_id, connector: edge.connector })),
    segments: route.segments.map((segment) => ({ floor_id: segment.floor_id, points: segment.points.map(point) })),
    indications: route.indications.map((indication) => ({
      action: indication.action,
      distance: indication.distance,
      floor_id: indication.floor_id,
      next_floor_id: indication.next_floor_id,
      text: indication.text,
    })),
    avoided: route.avoided,
    geojson: {
      type: 'FeatureCollection',
      features: route.lines.map((line) => ({
        type: 'Feature',
        properties: { floor_id: line.floor_id },
        geometry: {
          type: 'LineString',
          coordinates: line.coordinates.map(([x, y]) => {
            const { lat, lng } = toGeoreference(frame, { x, y });
            return [lng, lat];
          }),
        },
      })),
    },
  };
}
