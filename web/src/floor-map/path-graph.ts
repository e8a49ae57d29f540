/** The wayfinding graph as edited: pure changes on nodes and links, checked by unit tests. */
export interface PathNode {
  id: number;
  floor_id: number;
  x: number;
  y: number;
  lat?: number;
  lng?: number;
}

export interface PathLink {
  source: number;
  target: number;
  origin?: string;
  tags?: string[];
  accessible?: boolean;
}

export interface PathGraph {
  nodes: PathNode[];
  links: PathLink[];
}

export function addNode(graph: PathGraph, floorId: number, x: number, y: number): { graph: PathGraph; id: number } {
  const id = graph.nodes.reduce((max, n) => Math.max(max, n.id), 0) + 1;
  return { graph: { ...graph, nodes: [...graph.nodes, { id, floor_id: floorId, x, y }] }, id };
}

export const linked = (graph: PathGraph, a: number, b: number) => graph.links.some((l) => (l.source === a && l.target === b) || (l.source === b && l.target === a));

/** Links two nodes both ways (an existing link, or a node with itself, changes nothing). */
export function connect(graph: PathGraph, a: number, b: number): PathGraph {
  if (a === b || linked(graph, a, b)) return graph;
  return { ...graph, links: [...graph.links, { source: a, target: b, origin: 'both', tags: [], accessible: true }] };
}

export function disconnect(graph: PathGraph, a: number, b: number): PathGraph {
  return { ...graph, links: graph.links.filter((l) => !((l.source === a && l.target === b) || (l.source === b && l.target === a))) };
}

/** A node goes with its links. */
export function removeNode(graph: PathGraph, id: number): PathGraph {
  return { nodes: graph.nodes.filter((n) => n.id !== id), links: graph.links.filter((l) => l.source !== id && l.target !== id) };
}

export function moveNode(graph: PathGraph, id: number, x: number, y: number): PathGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (n.id === id ? { id: n.id, floor_id: n.floor_id, x, y } : n)) };
}

/** The body of `PUT /buildings/{id}/paths`: positions in floor metres (the server derives lat/lng). */
export function toBody(graph: PathGraph): PathGraph {
  return {
    nodes: graph.nodes.map((n) => ({ id: n.id, floor_id: n.floor_id, x: n.x, y: n.y })),
    links: graph.links.map((l) => ({ source: l.source, target: l.target, origin: l.origin ?? 'both', tags: l.tags ?? [], accessible: l.accessible ?? true })),
  };
}
