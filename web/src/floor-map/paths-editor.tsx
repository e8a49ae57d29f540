import * as L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, getAll } from '../api';
import { ActionButton, ErrorBox, Field, Loading, submitWith, useAction, useLoad } from '../components/ui';
import { fromFloorMetres, toFloorMetres } from '../geo';
import { type Floor, floorLabel } from '../model';
import { readNumber } from '../building-setup/building-input';
import { type FloorContext, useFloorLayerGroup } from './floor-context';
import { latLng } from './map-setup';
import { addNode, connect, disconnect, PathGraph, removeNode, toBody } from './path-graph';
import { useMapPick } from './use-map-pick';

/**
 * The building's wayfinding graph on this floor: nodes placed by a click (or typed in metres),
 * links drawn from node to node, and links to nodes of other floors (stairs, lifts). The whole
 * graph is saved at once (the API replaces it).
 */
export function PathsEditor({ context }: { context: FloorContext }) {
  const { building, floor } = context;
  const loaded = useLoad(
    async (signal) => {
      // A building without a graph yet answers 404: it starts empty.
      const [graph, floors] = await Promise.all([
        api.get<PathGraph>(`/buildings/${building.id}/paths`, signal).catch((e: unknown) => {
          if (e instanceof ApiError && e.status === 404) return { nodes: [], links: [] } as PathGraph;
          throw e;
        }),
        getAll<Floor>(`/buildings/${building.id}/floors`, signal),
      ]);
      return { graph, floors };
    },
    [building.id],
  );
  const [graph, setGraph] = useState<PathGraph | null>(null);
  const [dirty, setDirty] = useState(false);
  const [mode, setMode] = useState<'select' | 'add' | 'connect'>('select');
  const [selected, setSelected] = useState<number | null>(null);
  useEffect(() => {
    if (loaded.data) {
      setGraph(loaded.data.graph);
      setDirty(false);
    }
  }, [loaded.data]);
  // A new tool, or Escape, starts afresh: "Draw links" links from a node only once it is clicked.
  const chooseMode = (next: typeof mode) => {
    setMode(next);
    setSelected(null);
  };
  useEffect(() => {
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !document.querySelector('dialog[open]')) setSelected(null);
    };
    document.addEventListener('keydown', escape);
    return () => document.removeEventListener('keydown', escape);
  }, []);
  const change = (next: PathGraph) => {
    setGraph(next);
    setDirty(true);
  };

  // The graph on the map: links under nodes; a click on a node selects it, or in "connect" links it to the selected one.
  const drawn = useFloorLayerGroup(context);
  const onNode = useRef<(id: number) => void>(() => {});
  onNode.current = (id: number) => {
    if (mode === 'connect' && selected !== null && graph) {
      change(connect(graph, selected, id));
      setSelected(id);
    } else setSelected(id);
  };

  // Draw this floor's part of the graph; a node linked to another floor is a connector (red).
  // A change of selection restyles the markers in place: redrawing them would drop a click whose
  // press landed on the old marker and whose release on the new one.
  const markers = useRef(new Map<number, L.CircleMarker>());
  const [drawnGraph, setDrawnGraph] = useState<PathGraph | null>(null);
  useEffect(() => {
    if (!graph || !drawn) return;
    drawn.clearLayers();
    markers.current.clear();
    const here = new Map(graph.nodes.filter((n) => n.floor_id === floor.id).map((n) => [n.id, n]));
    const floorOf = new Map(graph.nodes.map((n) => [n.id, n.floor_id]));
    const connectors = new Set(graph.links.filter((l) => floorOf.get(l.source) !== floorOf.get(l.target)).flatMap((l) => [l.source, l.target]));
    const at = (id: number) => latLng(fromFloorMetres(building, here.get(id)!.x, here.get(id)!.y));
    for (const l of graph.links) {
      if (here.has(l.source) && here.has(l.target)) drawn.addLayer(L.polyline([at(l.source), at(l.target)], { pane: 'floor', color: '#0b7a75', weight: 3, interactive: false }));
    }
    for (const n of here.values()) {
      const node = L.circleMarker(at(n.id), {
        pane: 'floor',
        radius: 6,
        color: '#fff',
        weight: 2,
        fillColor: connectors.has(n.id) ? '#c0392b' : '#0b7a75',
        fillOpacity: 1,
        bubblingMouseEvents: false,
      });
      // Not passed on to the map: a click on a node is not a new node on top of it.
      node.on('click', () => onNode.current(n.id));
      drawn.addLayer(node);
      markers.current.set(n.id, node);
    }
    setDrawnGraph(graph);
  }, [graph, drawn]);
  useEffect(() => {
    for (const [id, marker] of markers.current) {
      marker.setRadius(id === selected ? 8 : 6);
      marker.getElement()?.classList.toggle('path-node-selected', id === selected);
    }
  }, [selected, drawnGraph]);

  const pick = useCallback(
    (lngLat: [number, number]) => {
      if (!graph) return;
      const { x, y } = toFloorMetres(building, lngLat);
      const added = addNode(graph, floor.id, x, y);
      const next = selected !== null && mode === 'connect' ? connect(added.graph, selected, added.id) : added.graph;
      change(next);
      setSelected(added.id);
    },
    [graph, selected, mode],
  );
  useMapPick(context, mode === 'add' || mode === 'connect', pick);

  const save = useAction(async () => {
    const saved = await api.put<PathGraph>(`/buildings/${building.id}/paths`, toBody(graph!));
    setGraph(saved.body);
    setDirty(false);
  });

  if (loaded.error) return <ErrorBox error={loaded.error} onRetry={loaded.reload} />;
  if (!graph || !loaded.data) return <Loading what="the paths" />;
  const floors = loaded.data.floors;
  const onFloor = graph.nodes.filter((n) => n.floor_id === floor.id);
  const node = graph.nodes.find((n) => n.id === selected);
  const neighbours = node ? graph.links.filter((l) => l.source === node.id || l.target === node.id).map((l) => (l.source === node.id ? l.target : l.source)) : [];
  const label = (id: number) => {
    const n = graph.nodes.find((m) => m.id === id);
    const f = floors.find((fl) => fl.id === n?.floor_id);
    return `node ${id}${n && n.floor_id !== floor.id ? ` (${f ? floorLabel(f) : `floor ${n.floor_id}`})` : ''}`;
  };
  return (
    <div class="paths-editor">
      <h2>Paths</h2>
      <p class="muted">
        {onFloor.length} nodes on this floor, {graph.links.length} links in the building.
      </p>
      <div class="row" role="group" aria-label="Path tool">
        {(['select', 'add', 'connect'] as const).map((m) => (
          <button type="button" class="btn plain" aria-pressed={mode === m} onClick={() => chooseMode(m)}>
            {m === 'select' ? 'Select' : m === 'add' ? 'Add nodes' : 'Draw links'}
          </button>
        ))}
      </div>
      <p class="muted small" role="status">
        {mode === 'add'
          ? 'Click on the map to add a node.'
          : mode === 'connect'
            ? 'Click nodes one after another to link them; a click on an empty spot adds a linked node.'
            : 'Click a node to select it.'}{' '}
        Escape clears the selection.
      </p>
      <AddNodeForm
        onAdd={(x, y) => {
          const added = addNode(graph, floor.id, x, y);
          change(added.graph);
          setSelected(added.id);
        }}
      />
      {node && (
        <div class="card node-card" data-testid="path-node">
          <h3>Node {node.id}</h3>
          <p class="muted">
            x {node.x} m, y {node.y} m
          </p>
          <ul class="plain-list">
            {neighbours.map((id) => (
              <li>
                Linked to {label(id)}{' '}
                <button type="button" class="btn plain" onClick={() => change(disconnect(graph, node.id, id))}>
                  Unlink
                </button>
              </li>
            ))}
          </ul>
          <Field label="Link to a node" name="link_to">
            <select
              value=""
              onChange={(e) => {
                const target = Number(e.currentTarget.value);
                if (target) change(connect(graph, node.id, target));
              }}
            >
              <option value="">Choose a node (other floors included)…</option>
              {graph.nodes
                .filter((n) => n.id !== node.id && !neighbours.includes(n.id))
                .map((n) => (
                  <option value={String(n.id)}>{label(n.id)}</option>
                ))}
            </select>
          </Field>
          <button
            type="button"
            class="btn danger"
            onClick={() => {
              change(removeNode(graph, node.id));
              setSelected(null);
            }}
          >
            Delete node
          </button>
        </div>
      )}
      <ErrorBox error={save.error} onRetry={save.run} />
      <div class="row">
        <ActionButton kind="primary" onAction={save.run}>
          Save paths
        </ActionButton>
        {dirty && (
          <button type="button" class="btn plain" onClick={loaded.reload}>
            Discard changes
          </button>
        )}
      </div>
      {dirty && <p class="muted">Unsaved changes.</p>}
    </div>
  );
}

function AddNodeForm({ onAdd }: { onAdd: (x: number, y: number) => void }) {
  const [x, setX] = useState('');
  const [y, setY] = useState('');
  return (
    <form
      class="row add-node"
      aria-label="Add a node by position"
      onSubmit={submitWith(async () => {
        const px = readNumber(x);
        const py = readNumber(y);
        if (px === null || py === null) return;
        onAdd(px, py);
        setX('');
        setY('');
      })}
    >
      <Field label="x (m)" name="x" inputMode="decimal" value={x} onInput={(e) => setX(e.currentTarget.value)} />
      <Field label="y (m)" name="y" inputMode="decimal" value={y} onInput={(e) => setY(e.currentTarget.value)} />
      <button type="submit" class="btn plain">
        Add node
      </button>
    </form>
  );
}
