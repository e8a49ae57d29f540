import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Destinations } from '../cartography/paths/directions.service';
import type { DirectionsResponseDto } from '../cartography/paths/directions.dto';
import type { FollowedRoute, RouteOptions } from '../cartography/paths/router';

/** The route a device follows: as the directions answer it, and what following it needs (router/progress.ts). */
export interface StoredRoute {
  answer: DirectionsResponseDto;
  followed: FollowedRoute;
}

/** What a new route is planned with: the destinations chosen among and the request's options. */
export interface NavigationPlan {
  destinations: Destinations;
  options: Partial<RouteOptions>;
}

/** The progress after the newest fix followed (the start's, before any). */
export interface StoredProgress {
  distance_remaining: number;
  duration_remaining: number;
  next_indication: number;
  off_route: boolean;
  off_route_fixes: number;
  arrived: boolean;
}

/**
 * A guided device (issue 40, "Following a route"): one row per device of an organization, with
 * the request it was started with, the current route and the progress along it. A row with
 * `arrivedAt` set is guidance that ended by arrival, kept only until the device's next fix so the
 * live stream can say it arrived; it is guidance no more (GET and DELETE answer 404).
 */
@Entity('device_navigations')
export class DeviceNavigation {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  deviceId: string;

  @Column({ type: 'integer' })
  buildingId: number;

  /** The request as given (a directions request without `from`). */
  @Column({ type: 'json' })
  request: Record<string, unknown>;

  @Column({ type: 'json' })
  plan: NavigationPlan;

  @Column({ type: 'json' })
  route: StoredRoute;

  @Column({ type: 'json' })
  progress: StoredProgress;

  /** The time of the newest fix followed (epoch ms); an older fix of a late batch is not followed. */
  @Column({ type: 'double precision' })
  fixTimeMs: number;

  @Column({ type: Date })
  startedAt: Date;

  @Column({ type: Date })
  updatedAt: Date;

  @Column({ type: Date, nullable: true })
  arrivedAt: Date | null;
}
