import { formatTimestamp } from '../common/time/timestamps';
import type { PlannedRoute } from '../cartography/paths/directions.service';
import type { RouteProgress } from '../cartography/paths/router';
import { DeviceNavigation, StoredProgress, StoredRoute } from './device-navigation.entity';
import { NavigationResponseDto } from './navigation.dto';

/** A guided device's progress on the wire (issue 40): the same object for the navigation routes and the live stream. */
export function toNavigationResponse(navigation: DeviceNavigation): NavigationResponseDto {
  const { answer } = navigation.route;
  const { progress } = navigation;
  return {
    device_id: navigation.deviceId,
    building_id: navigation.buildingId,
    destination: answer.to,
    distance_remaining: progress.distance_remaining,
    duration_remaining: progress.duration_remaining,
    next_indication: answer.indications[progress.next_indication] ?? answer.indications[answer.indications.length - 1],
    off_route: progress.off_route,
    arrived: progress.arrived,
    route: answer,
    started_at: formatTimestamp(navigation.startedAt),
    updated_at: formatTimestamp(navigation.updatedAt),
  };
}

/** What a navigation keeps of a planned route: its answer, and its points, edges and indications' places to follow it by. */
export function storedRouteOf(planned: PlannedRoute): StoredRoute {
  const { route } = planned;
  return {
    answer: planned.answer,
    followed: {
      points: route.points,
      edges: route.edges.map(({ from, to, distance, duration, connector }) => ({ from, to, distance, duration, connector })),
      indicationPoints: route.indications.map((indication) => indication.point),
    },
  };
}

export function storedProgressOf(progress: RouteProgress): StoredProgress {
  const { distance_remaining, duration_remaining, next_indication, off_route, off_route_fixes, arrived } = progress;
  return { distance_remaining, duration_remaining, next_indication, off_route, off_route_fixes, arrived };
}
