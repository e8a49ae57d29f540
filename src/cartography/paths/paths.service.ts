import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { buildingCondition, onlyDefined } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { BuildingRevisions } from '../buildings/building-revisions';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { derivedCartesianProblem, derivedGeoreferenceProblem, toCartesian, toGeoreference } from '../../common/geometry/cartesian';
import { lockOptions } from '../../database/row-locks';
import { Versioned } from '../../common/http/versioned';
import { TransactionRunner } from '../../database/transactions';
import { Floor } from '../floors/floor.entity';
import { PathGraph, PathLink, PathNode } from './path-graph.entity';
import { toPathsResponse } from './path-graph.mapper';
import { PathsResponseDto, ReplacePathsDto, RouteSettingsDto } from './paths.dto';
import { DEFAULT_ROUTE_SETTINGS, pathProblems, type RouteSettings } from './router';

@Injectable()
export class PathsService {
  constructor(
    @InjectRepository(PathGraph) private readonly graphs: Repository<PathGraph>,
    private readonly buildings: BuildingsService,
    private readonly revisions: BuildingRevisions,
    private readonly transactions: TransactionRunner,
  ) {}

  async list(principal: Principal, buildingId?: number): Promise<PathsResponseDto[]> {
    const building = buildingCondition(principal, buildingId);
    if (building === null) return [];
    const graphs = await this.graphs.find({
      where: { organizationId: principal.organizationId, ...onlyDefined({ buildingId: building }) },
      order: { buildingId: 'ASC' },
    });
    return graphs.map(toPathsResponse);
  }

  /** 404 until a graph has been stored for the building. */
  async getForBuilding(principal: Principal, buildingId: number): Promise<Versioned<PathsResponseDto>> {
    await this.buildings.findOwned(principal, buildingId);
    const graph = await this.graphs.findOneBy({ buildingId, organizationId: principal.organizationId });
    if (!graph) throw ApiError.notFound('Paths of building', buildingId);
    return new Versioned(toPathsResponse(graph), graph.version);
  }

  /** Replaces the whole graph in one transaction; every node must be on a floor of the building. */
  async replace(principal: Principal, buildingId: number, dto: ReplacePathsDto): Promise<Versioned<PathsResponseDto>> {
    return this.transactions.run(async (manager) => {
      const building = await this.buildings.findOwned(principal, buildingId, manager, 'share');
      // Share-locked: a floor cannot be deleted while a graph naming it is being stored.
      const floors = await manager.find(Floor, { where: { buildingId: building.id, deletedAt: IsNull() }, select: { id: true }, ...lockOptions(manager, 'share') });
      const frame = { latitude: building.latitude, longitude: building.longitude, width: building.width, length: building.length, rotation: building.rotation };
      // The graph's rules (ids, floors, links, connectors) are the router's; here only the coordinates.
      const errors: FieldError[] = pathProblems(dto.nodes, dto.links, floors).map(({ item, field, code, message, value }) =>
        field === null ? { message, code, fields: item } : { message, code, fields: `${item}.${field}`, value },
      );
      const nodes: PathNode[] = [];
      dto.nodes.forEach((node, index) => {
        const field = `nodes[${index}]`;
        const hasCartesian = node.x !== undefined && node.y !== undefined;
        const hasGeoreference = node.lat !== undefined && node.lng !== undefined;
        if (!hasCartesian && !hasGeoreference) {
          errors.push({ message: 'a node needs x and y, or lat and lng', code: 'required', fields: field });
          return;
        }
        const cartesian = hasCartesian ? { x: node.x!, y: node.y! } : toCartesian(frame, { lat: node.lat!, lng: node.lng! });
        const georeference = hasGeoreference ? { lat: node.lat!, lng: node.lng! } : toGeoreference(frame, cartesian);
        // What is derived is held to the same ranges as what is sent.
        const problem = hasGeoreference ? (hasCartesian ? null : derivedCartesianProblem(cartesian)) : derivedGeoreferenceProblem(georeference);
        if (problem) {
          errors.push({ message: problem, code: 'out_of_range', fields: hasGeoreference ? `${field}.lat` : `${field}.y` });
          return;
        }
        nodes.push({ id: node.id, floor_id: node.floor_id, ...cartesian, ...georeference });
      });
      const links: PathLink[] = dto.links.map((link) => ({
        source: link.source,
        target: link.target,
        origin: link.origin ?? 'both',
        tags: link.tags ?? [],
        accessible: link.accessible ?? true,
        connector: link.connector ?? null,
      }));
      if (errors.length > 0) throw ApiError.validation('The paths are not valid', errors);

      const now = new Date();
      const existing = await manager.findOneBy(PathGraph, { buildingId: building.id });
      // Settings left out stay: a client that only knows the graph replaces only the graph.
      const routeSettings = dto.settings === undefined ? (existing?.routeSettings ?? null) : routeSettingsOf(dto.settings);
      const graph: PathGraph = {
        buildingId: building.id,
        organizationId: principal.organizationId,
        nodes,
        links,
        routeSettings,
        version: (existing?.version ?? 0) + 1,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      if (existing) await manager.update(PathGraph, { buildingId: building.id }, { nodes, links, routeSettings, version: graph.version, updatedAt: now });
      else await manager.insert(PathGraph, graph);
      await this.revisions.bump(manager, [building.id]);
      return new Versioned(toPathsResponse(graph), graph.version);
    });
  }
}

/** The settings as given, only the fields set (the others follow the defaults, even when those change). */
function routeSettingsOf(dto: RouteSettingsDto): Partial<RouteSettings> {
  const settings: Partial<RouteSettings> = {};
  for (const key of Object.keys(DEFAULT_ROUTE_SETTINGS) as Array<keyof RouteSettings>) {
    if (dto[key] !== undefined) settings[key] = dto[key];
  }
  return settings;
}
