import { PathGraph } from './path-graph.entity';
import { PathsResponseDto } from './paths.dto';

export function toPathsResponse(graph: PathGraph): PathsResponseDto {
  return { building_id: graph.buildingId, nodes: graph.nodes, links: graph.links };
}
