import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CachedRouteGraph } from '../cartography/paths/route-graphs';
import { DirectionsService } from '../cartography/paths/directions.service';
import { followRoute, startOf, type FollowedFix, type RoutePoint } from '../cartography/paths/router';
import { AcceptedFix } from '../positions/fix';
import { DeviceNavigation } from './device-navigation.entity';
import { DeviceNavigationsRepository } from './device-navigations.repository';
import { storedProgressOf, storedRouteOf } from './navigation.mapper';

/**
 * The fix pipeline's navigation stage: moves each guided device of a batch along its route, in
 * the batch's transaction. One query on the key finds the batch's guided devices (none: nothing
 * more is done); each of their new fixes is followed in time order (router/progress.ts). After
 * the building's `off_route_fixes` off-route fixes in a row the device is routed again from the
 * fix, to the destinations and with the options it started with; on arrival the guidance ends (the
 * row stays, arrived, until the device's next fix, so the live stream says it arrived).
 */
@Injectable()
export class NavigationFollower {
  constructor(
    private readonly navigations: DeviceNavigationsRepository,
    private readonly directions: DirectionsService,
  ) {}

  async follow(manager: EntityManager, organizationId: string, fixes: readonly AcceptedFix[]): Promise<void> {
    const byDevice = new Map<string, AcceptedFix[]>();
    for (const fix of fixes) {
      const list = byDevice.get(fix.deviceId);
      if (list) list.push(fix);
      else byDevice.set(fix.deviceId, [fix]);
    }
    if (byDevice.size === 0) return;
    const rows = await this.navigations.ofDevices(manager, organizationId, [...byDevice.keys()]);
    if (rows.length === 0) return;
    const cleared: string[] = [];
    const graphs = new Map<number, CachedRouteGraph | null>();
    const now = new Date();
    for (const navigation of rows) {
      if (navigation.arrivedAt !== null) {
        cleared.push(navigation.deviceId);
        continue;
      }
      const newer = byDevice
        .get(navigation.deviceId)!
        .filter((fix) => fix.time > navigation.fixTimeMs)
        .sort((a, b) => a.time - b.time);
      if (newer.length === 0) continue;
      if (!graphs.has(navigation.buildingId)) graphs.set(navigation.buildingId, await this.directions.graphFor(organizationId, navigation.buildingId, manager));
      const cached = graphs.get(navigation.buildingId);
      // The building is gone: nothing to follow on (its deletion takes the row with it).
      if (!cached) continue;
      for (const fix of newer) if (this.step(navigation, cached, fix, now)) break;
      await this.navigations.update(manager, navigation);
    }
    if (cleared.length > 0) await this.navigations.remove(manager, organizationId, cleared);
  }

  /** Follows one fix; true when the device arrived (its later fixes are not followed). */
  private step(navigation: DeviceNavigation, cached: CachedRouteGraph, fix: AcceptedFix, now: Date): boolean {
    const settings = cached.graph.settings;
    const followed: FollowedFix = fix.buildingId === navigation.buildingId ? { floor_id: fix.floorId, x: fix.x, y: fix.y } : { floor_id: null, x: null, y: null };
    let progress = followRoute(navigation.route.followed, followed, navigation.progress, settings);
    if (progress.reroute && followed.floor_id !== null) {
      const from: RoutePoint = { floor_id: followed.floor_id, x: followed.x!, y: followed.y! };
      const again = this.directions.routeAgain(navigation.buildingId, cached, from, navigation.plan.destinations, navigation.plan.options);
      // No route from here (too far from every path, say): the device stays off route, and the next fix tries again.
      if (!('code' in again)) {
        navigation.route = storedRouteOf(again);
        progress = followRoute(navigation.route.followed, followed, startOf(navigation.route.followed), settings);
      }
    }
    navigation.progress = storedProgressOf(progress);
    navigation.fixTimeMs = fix.time;
    navigation.updatedAt = now;
    if (progress.arrived) navigation.arrivedAt = now;
    return progress.arrived;
  }
}
