import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Not, Repository } from 'typeorm';
import { Principal } from '../../access/principal';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { ErrorCode } from '../../common/errors/error-code';
import { BuildingFrame, toCartesian } from '../../common/geometry/cartesian';
import { appConfig, AppConfig } from '../../config/app.config';
import { BuildingRevisions } from '../buildings/building-revisions';
import { Building } from '../buildings/building.entity';
import { BuildingsService } from '../buildings/buildings.service';
import { Floor } from '../floors/floor.entity';
import { PoiCategory } from '../poi-categories/poi-category.entity';
import { Poi } from '../pois/poi.entity';
import { DeviceLocation, DeviceLocations } from './device-locations';
import { DirectionsFromDto, DirectionsRequestDto, DirectionsResponseDto, DirectionsToDto } from './directions.dto';
import { toDirectionsResponse } from './directions.mapper';
import { PathGraph } from './path-graph.entity';
import { CachedRouteGraph, RouteGraphCache } from './route-graphs';
import { buildRouteGraph, route, type Route, type RouteFailure, type RouteOptions, type RoutePoint, type RouteSettings } from './router';

type End = 'from' | 'to';

/** A resolved end: the point(s) to route from or to, and the POIs they are (to_poi_id). */
interface Place {
  points: RoutePoint[];
  poiIds: Array<number | null>;
}

const FORMS: Record<End, string> = {
  from: 'from is one of {floor_id, x, y}, {floor_id, lat, lng}, {poi_id} or {device_id}',
  to: 'to is one of {floor_id, x, y}, {floor_id, lat, lng}, {poi_id} or {poi_category_id}',
};

const invalid = (fields: string, message: string, value?: unknown): ApiError =>
  ApiError.validation('The directions request is not valid', [{ message, code: 'invalid', fields, ...(value === undefined ? {} : { value }) }]);

/** Directions over a building's paths (issue 40): resolves the ends, routes over the cached graph, answers the wire form. */
@Injectable()
export class DirectionsService {
  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    @InjectRepository(PathGraph) private readonly graphs: Repository<PathGraph>,
    private readonly buildings: BuildingsService,
    private readonly revisions: BuildingRevisions,
    private readonly cache: RouteGraphCache,
    private readonly devices: DeviceLocations,
  ) {}

  async directions(principal: Principal, buildingId: number, dto: DirectionsRequestDto): Promise<DirectionsResponseDto> {
    const building = await this.buildings.findOwned(principal, buildingId);
    const cached = await this.graphOf(building);
    const from = await this.resolve(principal, building, cached, 'from', dto.from);
    const to = await this.resolve(principal, building, cached, 'to', dto.to);
    const planned = plan(building.id, cached, from.points[0], to, optionsOf(dto));
    if ('code' in planned) throw routeFailure(planned);
    return planned.answer;
  }

  /**
   * A route from a device's live position (its building, floor and x/y) to the request's `to`: a
   * navigation's start. 404 for a device the organization does not have; 422 naming `device_id`
   * when it has no live position on a floor of a building; the route's 422s as for directions.
   */
  async fromDevice(principal: Principal, deviceId: string, dto: Omit<DirectionsRequestDto, 'from'>): Promise<{ planned: PlannedRoute; fix: DeviceLocation }> {
    const fix = await this.liveFix(principal, deviceId, 'device_id');
    if (fix.buildingId === null || fix.floorId === null) throw invalid('device_id', `device ${deviceId} is not on a floor of a building`, deviceId);
    const building = await this.buildings.findOwned(principal, fix.buildingId);
    const cached = await this.graphOf(building);
    const to = await this.resolve(principal, building, cached, 'to', dto.to);
    const planned = plan(building.id, cached, pointOfFix(cached, fix), to, optionsOf(dto));
    if ('code' in planned)
      throw routeFailure(planned.code === 'end_unreachable' && planned.end === 'from' ? { ...planned, reason: `device ${deviceId}: ${planned.reason}` } : planned, 'device_id');
    return { planned, fix };
  }

  /** A live building's graph for work without a caller (a guided device's fixes), read in `manager`'s transaction; null: the building is gone. */
  async graphFor(organizationId: string, buildingId: number, manager: EntityManager): Promise<CachedRouteGraph | null> {
    const building = await manager.findOne(Building, { where: { id: buildingId, organizationId, deletedAt: IsNull() } });
    return building ? this.graphOf(building, manager) : null;
  }

  /** The route again, from `from` to the destinations planned before, with the same options (a device off its route). */
  routeAgain(buildingId: number, cached: CachedRouteGraph, from: RoutePoint, destinations: Destinations, options: Partial<RouteOptions>): PlannedRoute | RouteFailure {
    return plan(buildingId, cached, from, { points: destinations.points, poiIds: destinations.poi_ids }, options);
  }

  private async graphOf(building: Building, manager: EntityManager = this.graphs.manager): Promise<CachedRouteGraph> {
    // Read before the graph, so a cached graph is never older than the revision it is kept under.
    const revision = await this.revisions.current(building.id);
    return this.cache.getOrBuild(building.id, building.version, revision, () => this.build(building, manager));
  }

  /** A device's newest fix while it is live (POSITIONS_MAX_SEC_THRESHOLD): 404 for a device the organization does not have, 422 naming `field` otherwise. */
  private async liveFix(principal: Principal, deviceId: string, field: string): Promise<DeviceLocation> {
    const fix = await this.devices.locate(principal.organizationId, deviceId);
    if (!fix) throw ApiError.notFound('Device', deviceId);
    const maxAgeMs = this.config.positions.defaultMaxSecThreshold * 1000;
    if (Date.now() - fix.time > maxAgeMs) throw invalid(field, `device ${deviceId} has no live position (its newest fix is older than ${maxAgeMs / 1000} s)`, deviceId);
    return fix;
  }

  private async build(building: Building, manager: EntityManager): Promise<Omit<CachedRouteGraph, 'revision' | 'buildingVersion'>> {
    const [floors, stored] = await Promise.all([
      manager.find(Floor, { where: { buildingId: building.id, deletedAt: IsNull() }, select: { id: true, level: true, name: true } }),
      manager.findOneBy(PathGraph, { buildingId: building.id }),
    ]);
    const graph = buildRouteGraph(
      floors.map((floor) => ({ id: floor.id, level: floor.level, name: floor.name })),
      stored?.nodes ?? [],
      stored?.links ?? [],
      stored?.routeSettings ?? {},
    );
    return { graph, frame: frameOf(building) };
  }

  private async resolve(principal: Principal, building: Building, cached: CachedRouteGraph, end: End, given: DirectionsFromDto | DirectionsToDto): Promise<Place> {
    const point = given.floor_id !== undefined || given.x !== undefined || given.y !== undefined || given.lat !== undefined || given.lng !== undefined;
    const deviceId = end === 'from' ? (given as DirectionsFromDto).device_id : undefined;
    const categoryId = end === 'to' ? (given as DirectionsToDto).poi_category_id : undefined;
    const forms = [point, given.poi_id !== undefined, deviceId !== undefined, categoryId !== undefined].filter(Boolean).length;
    if (forms !== 1) throw invalid(end, FORMS[end]);
    if (given.poi_id !== undefined) return this.poiPlace(principal, building, end, given.poi_id);
    if (deviceId !== undefined) return this.devicePlace(principal, building, cached, deviceId);
    if (categoryId !== undefined) return this.categoryPlace(principal, building, categoryId);
    return { points: [pointOf(cached, end, given)], poiIds: [null] };
  }

  private async poiPlace(principal: Principal, building: Building, end: End, poiId: number): Promise<Place> {
    const poi = await this.graphs.manager.findOneBy(Poi, { id: poiId, organizationId: principal.organizationId });
    if (!poi) throw ApiError.notFound('POI', poiId);
    if (poi.buildingId !== building.id) throw invalid(`${end}.poi_id`, `POI ${poiId} is not in building ${building.id}`, poiId);
    if (poi.floorId === null) throw invalid(`${end}.poi_id`, `POI ${poiId} is outdoors: it has no floor to route on`, poiId);
    return { points: [{ floor_id: poi.floorId, x: poi.x, y: poi.y }], poiIds: [poi.id] };
  }

  private async categoryPlace(principal: Principal, building: Building, categoryId: number): Promise<Place> {
    const manager = this.graphs.manager;
    const category = await manager.findOneBy(PoiCategory, { id: categoryId, organizationId: principal.organizationId });
    if (!category) throw ApiError.notFound('POI category', categoryId);
    const pois = await manager.find(Poi, { where: { buildingId: building.id, categoryId, floorId: Not(IsNull()) }, order: { id: 'ASC' } });
    if (pois.length === 0) {
      throw new ApiError(422, ErrorCode.EndUnreachable, `No POI of category ${categoryId} is on a floor of building ${building.id}`, [
        { message: 'no POI of this category is on a floor of the building', code: 'end_unreachable', fields: 'to.poi_category_id', value: categoryId },
      ]);
    }
    return { points: pois.map((poi) => ({ floor_id: poi.floorId!, x: poi.x, y: poi.y })), poiIds: pois.map((poi) => poi.id) };
  }

  private async devicePlace(principal: Principal, building: Building, cached: CachedRouteGraph, deviceId: string): Promise<Place> {
    const fix = await this.liveFix(principal, deviceId, 'from.device_id');
    if (fix.buildingId !== building.id || fix.floorId === null) throw invalid('from.device_id', `device ${deviceId} is not on a floor of building ${building.id}`, deviceId);
    return { points: [pointOfFix(cached, fix)], poiIds: [null] };
  }
}

/** A route found, as the directions answer it and as a navigation follows it. */
export interface PlannedRoute {
  buildingId: number;
  /** Where it was asked to start (before the snap). */
  from: RoutePoint;
  route: Route;
  answer: DirectionsResponseDto;
  /** The destinations it chose among (one, or a category's POIs), to route again to. */
  destinations: Destinations;
  /** The options it was found with, only those given. */
  options: Partial<RouteOptions>;
  settings: Readonly<RouteSettings>;
}

/** Where a route may end: points, and the POI each is (null for a point). */
export interface Destinations {
  points: RoutePoint[];
  poi_ids: Array<number | null>;
}

function optionsOf(dto: Omit<DirectionsRequestDto, 'from'>): Partial<RouteOptions> {
  const options: Partial<RouteOptions> = {
    accessibility_mode: dto.accessibility_mode,
    minimize_floor_changes: dto.minimize_floor_changes,
    avoid: dto.avoid,
    exclude: dto.exclude,
    avoid_factor: dto.avoid_factor,
    included_tags: dto.included_tags,
    excluded_tags: dto.excluded_tags,
    speed_m_s: dto.speed_m_s,
  };
  // Only what was given: the options are stored with a navigation and given again on a new route.
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<RouteOptions>;
}

function plan(buildingId: number, cached: CachedRouteGraph, from: RoutePoint, to: Place, options: Partial<RouteOptions>): PlannedRoute | RouteFailure {
  const result = route(cached.graph, from, to.points.length === 1 ? to.points[0] : to.points, options);
  if (!result.ok) return result.failure;
  return {
    buildingId,
    from,
    route: result.route,
    answer: toDirectionsResponse(result.route, cached.frame, to.poiIds[result.route.target] ?? null),
    destinations: { points: to.points, poi_ids: to.poiIds },
    options,
    settings: cached.graph.settings,
  };
}

function pointOfFix(cached: CachedRouteGraph, fix: DeviceLocation): RoutePoint {
  const xy = fix.x !== null && fix.y !== null ? { x: fix.x, y: fix.y } : toCartesian(cached.frame, { lat: fix.lat, lng: fix.lng });
  return { floor_id: fix.floorId!, ...xy };
}

function frameOf(building: Building): BuildingFrame {
  return { latitude: building.latitude, longitude: building.longitude, width: building.width, length: building.length, rotation: building.rotation };
}

/** A point end: a floor of the building with x/y or lat/lng (not both, not half of either). */
function pointOf(cached: CachedRouteGraph, end: End, given: DirectionsFromDto | DirectionsToDto): RoutePoint {
  const cartesian = given.x !== undefined || given.y !== undefined;
  const georeference = given.lat !== undefined || given.lng !== undefined;
  const errors: FieldError[] = [];
  if (given.floor_id === undefined) errors.push({ message: `${end}.floor_id is required with a point`, code: 'required', fields: `${end}.floor_id` });
  if (cartesian === georeference || (cartesian && (given.x === undefined || given.y === undefined)) || (georeference && (given.lat === undefined || given.lng === undefined))) {
    errors.push({ message: `a point is x and y, or lat and lng`, code: 'invalid', fields: end });
  }
  if (errors.length > 0) throw ApiError.validation('The directions request is not valid', errors);
  const floor = cached.graph.floor(given.floor_id!);
  if (!floor || floor.rank < 0)
    throw ApiError.validation('The directions request is not valid', [
      { message: 'no such floor in this building', code: 'not_found', fields: `${end}.floor_id`, value: given.floor_id },
    ]);
  const xy = cartesian ? { x: given.x!, y: given.y! } : toCartesian(cached.frame, { lat: given.lat!, lng: given.lng! });
  return { floor_id: given.floor_id!, ...xy };
}

/** A route the router could not find: 422 with its code and reason (the end that cannot be reached, or the floors); `fromField` names the start. */
function routeFailure(failure: RouteFailure, fromField = 'from'): ApiError {
  if (failure.code === 'end_unreachable') {
    return new ApiError(422, ErrorCode.EndUnreachable, failure.reason, [{ message: failure.reason, code: failure.code, fields: failure.end === 'from' ? fromField : failure.end }]);
  }
  return new ApiError(422, ErrorCode.NoRoute, failure.reason);
}
