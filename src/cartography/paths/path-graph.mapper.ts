import { PathGraph, PathLink } from './path-graph.entity';
import { PathsResponseDto } from './paths.dto';
import { DEFAULT_ROUTE_SETTINGS } from './router';

/** A link as the API shows it: graphs stored before connectors (migration PathConnectors) read as derived. */
export const toPathLinkResponse = (link: PathLink): PathLink => ({ ...link, connector: link.connector ?? null });

export function toPathsResponse(graph: PathGraph): PathsResponseDto {
  return {
    building_id: graph.buildingId,
    nodes: graph.nodes,
    links: graph.links.map(toPathLinkResponse),
    settings: { ...DEFAULT_ROUTE_SETTINGS, ...(graph.routeSettings ?? {}) },
  };
}
