import { describe, expect, it } from 'vitest';
import { addNode, connect, disconnect, linked, PathGraph, removeNode, toBody } from './path-graph';

describe('path graph edits', () => {
  it('adds nodes with new ids, links them once, and removes a node with its links', () => {
    let graph: PathGraph = { nodes: [{ id: 4, floor_id: 1, x: 0, y: 0 }], links: [] };
    const a = addNode(graph, 1, 5, 5);
    expect(a.id).toBe(5);
    graph = a.graph;
    const b = addNode(graph, 2, 5, 5);
    graph = connect(connect(b.graph, 4, 5), 5, 6);
    expect(connect(graph, 5, 4)).toBe(graph);
    expect(connect(graph, 4, 4)).toBe(graph);
    expect(linked(graph, 6, 5)).toBe(true);
    expect(toBody(removeNode(graph, 5))).toEqual({
      nodes: [
        { id: 4, floor_id: 1, x: 0, y: 0 },
        { id: 6, floor_id: 2, x: 5, y: 5 },
      ],
      links: [],
    });
    expect(disconnect(graph, 5, 4).links).toEqual([{ source: 5, target: 6, origin: 'both', tags: [], accessible: true }]);
  });
});
