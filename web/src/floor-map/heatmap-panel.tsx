import * as L from 'leaflet';
import { useEffect, useState } from 'preact/hooks';
import { CELL_SIZES, DEFAULT_CELL_SIZE } from '../../../src/reports/heatmaps/heatmap-grid';
import { api, query } from '../api';
import { ActionButton, ErrorBox, Field, formatTime, submitWith, useAction } from '../components/ui';
import { fromFloorMetres } from '../geo';
import { type FloorContext, useLoadedEffect } from './floor-context';
import { canvasFor, latLng } from './map-setup';
import { localInput } from './playback';

interface Heatmap {
  from: string;
  to: string;
  cell_size: number;
  total: number;
  max: number;
  cells: Array<{ x: number; y: number; lat: number; lng: number; count: number }>;
}

const PERIODS = [
  { label: 'Last 24 hours', ms: 86_400_000 },
  { label: 'Last 7 days', ms: 7 * 86_400_000 },
  { label: 'Last 30 days', ms: 30 * 86_400_000 },
  { label: 'Custom', ms: 0 },
];

/** From few to many positions in a cell: blue to red. */
const RAMP = ['#2c7bb6', '#abd9e9', '#ffffbf', '#fdae61', '#d7191c'];
export const heatColour = (share: number) => RAMP[Math.min(RAMP.length - 1, Math.floor(Math.max(0, share) * RAMP.length))];

/**
 * Where people were over a period: the server counts the floor's positions per grid cell
 * (from the history); the map shows each cell coloured by its share of the busiest one, and
 * the busiest cells are listed.
 */
export function HeatmapPanel({ context }: { context: FloorContext }) {
  const { map, floor, building } = context;
  const [period, setPeriod] = useState(PERIODS[1].ms);
  const [from, setFrom] = useState(localInput(Date.now() - 86_400_000));
  const [to, setTo] = useState(localInput(Date.now()));
  const [cellSize, setCellSize] = useState<number>(DEFAULT_CELL_SIZE);
  const [heat, setHeat] = useState<Heatmap | null>(null);

  const [drawn, setDrawn] = useState<{ group: L.LayerGroup; renderer: L.Canvas } | null>(null);
  useLoadedEffect(context, () => {
    const renderer = canvasFor('heat').addTo(map);
    const group = L.layerGroup().addTo(map);
    setDrawn({ group, renderer });
    return () => {
      setDrawn(null);
      group.remove();
      renderer.remove();
    };
  }, [map]);

  const load = useAction(async () => {
    await context.loaded;
    const end = period ? Date.now() : new Date(to).getTime();
    const start = period ? end - period : new Date(from).getTime();
    const answer = await api.get<Heatmap>(`/floors/${floor.id}/heatmap${query({ from: new Date(start).toISOString(), to: new Date(end).toISOString(), cell_size: cellSize })}`);
    setHeat(answer);
  });
  useEffect(() => {
    if (!drawn || !heat) return;
    const { group, renderer } = drawn;
    group.clearLayers();
    const half = heat.cell_size / 2;
    for (const c of heat.cells) {
      // The cell's square in the building's frame (turned with it), from its centre.
      const square = [
        fromFloorMetres(building, c.x - half, c.y - half),
        fromFloorMetres(building, c.x + half, c.y - half),
        fromFloorMetres(building, c.x + half, c.y + half),
        fromFloorMetres(building, c.x - half, c.y + half),
      ].map(latLng);
      group.addLayer(L.polygon(square, { renderer, stroke: false, fillColor: heatColour(c.count / Math.max(1, heat.max)), fillOpacity: 0.6, interactive: false }));
    }
  }, [drawn, heat]);
  // The default period shows at once (once the heat layer is there).
  useLoadedEffect(context, () => void load.run(), []);

  const busiest = heat
    ? heat.cells
        .slice()
        .sort((a, b) => b.count - a.count)
        .slice(0, 5)
    : [];
  return (
    <div class="heatmap-panel">
      <h2>Heatmap</h2>
      <form aria-label="Heatmap period" onSubmit={submitWith(load.run)}>
        <Field label="Period" name="period">
          <select value={String(period)} onChange={(e) => setPeriod(Number(e.currentTarget.value))}>
            {PERIODS.map((p) => (
              <option value={String(p.ms)}>{p.label}</option>
            ))}
          </select>
        </Field>
        {period === 0 && (
          <div class="row">
            <Field label="From" name="from" type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
            <Field label="To" name="to" type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          </div>
        )}
        <Field label="Cell size" name="cell_size">
          <select value={String(cellSize)} onChange={(e) => setCellSize(Number(e.currentTarget.value))}>
            {CELL_SIZES.map((s) => (
              <option value={String(s)}>{s} m</option>
            ))}
          </select>
        </Field>
        <ErrorBox error={load.error} onRetry={load.run} />
        <ActionButton kind="primary" onAction={load.run}>
          Show heatmap
        </ActionButton>
      </form>
      {heat && (
        <div data-testid="heatmap-summary">
          <p role="status">
            {heat.total === 0
              ? 'No position on this floor in this period.'
              : `${heat.total} positions in ${heat.cells.length} cells of ${heat.cell_size} m, ${formatTime(heat.from)} to ${formatTime(heat.to)}.`}
          </p>
          {busiest.length > 0 && (
            <>
              <h3>Busiest places</h3>
              <ol class="busiest" data-testid="busiest">
                {busiest.map((c) => (
                  <li data-count={c.count}>
                    {c.count} {c.count === 1 ? 'position' : 'positions'} around x {c.x} m, y {c.y} m
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      )}
    </div>
  );
}
