import type * as L from 'leaflet';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, getAll, request } from '../api';
import { ActionButton, ErrorBox, Field, Loading, useAction } from '../components/ui';
import { toLatLngRing } from '../geo';
import { OCCUPANCY_SCALE, occupancyColour } from '../live';
import { deviceClicked } from '../map-live';
import type { Geofence } from '../model';
import { type FloorContext, useLoadedEffect } from './floor-context';
import { FenceDrawing } from './fence-draw';
import { FencePanel, Selected } from './fence-panel';

/**
 * The floor's geofences: the list with each one's occupancy, drawing a new one, the panel of
 * the one chosen (on the map or in the list), and the deleted ones with their restore.
 */
export function FenceSection({ context, fenceEvent }: { context: FloorContext; fenceEvent: { fenceId: string; n: number } }) {
  const { map, fences, occupancy } = context;
  const drawing = useRef<FenceDrawing | null>(null);
  const [mode, setMode] = useState<'view' | 'draw' | 'edit'>('view');
  const [drawn, setDrawn] = useState<number[][] | null>(null);
  const [selected, setSelected] = useState<Selected | null>(null);
  const [detailsKey, setDetailsKey] = useState(0);
  const [undo, setUndo] = useState<Geofence | null>(null);
  const [deletedKey, setDeletedKey] = useState(0);
  const lastTried = useRef('');
  const select = useAction(async (id: string) => {
    lastTried.current = id;
    const r = await request<Geofence>(`/geofences/${id}`);
    setSelected({ fence: r.body, etag: r.etag });
    setMode('view');
  });
  const selectRef = useRef(select.run);
  selectRef.current = select.run;

  useEffect(() => {
    if (selected && fenceEvent.fenceId === selected.fence.id) setDetailsKey((k) => k + 1);
  }, [fenceEvent.n]);

  useLoadedEffect(context, () => {
    const fences = context.layers.fences;
    // A click on a device dot over a fence is the device's (its details open), not the fence's.
    const click = (e: L.LeafletMouseEvent) => {
      if (drawing.current?.drawing || deviceClicked(e.originalEvent)) return;
      const id = fences.fenceOf(e.propagatedFrom ?? e.sourceTarget);
      if (id) void selectRef.current(id);
    };
    fences.group.on('click', click);
    return () => {
      fences.group.off('click', click);
      drawing.current?.destroy();
      drawing.current = null;
    };
  }, [map]);

  const drawingTool = async () => {
    await context.loaded;
    return (drawing.current ??= await FenceDrawing.start(map, setDrawn));
  };
  const startDraw = useAction(async () => {
    const tool = await drawingTool();
    setDrawn(null);
    setSelected(null);
    tool.polygon();
    setMode('draw');
  });
  const stopDrawing = () => {
    drawing.current?.stop();
    setDrawn(null);
    setMode('view');
  };

  return (
    <div class="fences">
      {undo && (
        <p class="notice row" role="status" data-testid="fence-deleted">
          <span>
            Geofence <strong>{undo.name}</strong> deleted.
          </span>
          <ActionButton
            onAction={async () => {
              await api.post(`/geofences/${undo.id}/restore`);
              setUndo(null);
              setDeletedKey((k) => k + 1);
              await context.reloadFences();
            }}
          >
            Restore
          </ActionButton>
        </p>
      )}
      {mode === 'view' && (
        <ActionButton kind="primary" type="button" onAction={startDraw.run}>
          Draw a geofence
        </ActionButton>
      )}
      <ErrorBox error={startDraw.error} onRetry={startDraw.run} />
      {mode === 'draw' && (
        <NewFenceForm
          drawn={drawn}
          onCancel={stopDrawing}
          onSave={async (name) => {
            await api.post<Geofence>('/geofences', { name, building_id: context.building.id, floor_id: context.floor.id, geometric: toLatLngRing(drawn!) });
            stopDrawing();
            await context.reloadFences();
          }}
        />
      )}
      <ErrorBox error={select.error} onRetry={() => select.run(lastTried.current)} />
      {selected && mode !== 'draw' && (
        <FencePanel
          selected={selected}
          editing={mode === 'edit'}
          detailsKey={detailsKey}
          onEdit={async () => {
            const tool = await drawingTool();
            if (tool.reshape(selected.fence)) setMode('edit');
          }}
          onCancelEdit={() => {
            drawing.current?.stop();
            setMode('view');
          }}
          onSaveEdit={async () => {
            const ring = drawing.current!.ring(selected.fence.id);
            const r = await api.put<Geofence>(`/geofences/${selected.fence.id}`, { geometric: toLatLngRing(ring!) }, selected.etag ?? undefined);
            setSelected({ fence: r.body, etag: r.etag });
            drawing.current?.stop();
            setMode('view');
            await context.reloadFences();
          }}
          onSaved={async (r) => {
            setSelected(r);
            await context.reloadFences();
          }}
          onDeleted={async () => {
            setUndo(selected.fence);
            setSelected(null);
            setDeletedKey((k) => k + 1);
            await context.reloadFences();
          }}
          onReload={() => select.run(selected.fence.id)}
          onClose={() => setSelected(null)}
          occupants={occupancy[selected.fence.id] ?? 0}
        />
      )}
      <h2>Geofences ({fences.length})</h2>
      <ul class="fence-list">
        {fences.map((f) => {
          const n = occupancy[f.id] ?? 0;
          return (
            <li data-fence-id={f.id} data-occupants={n}>
              <Swatch colour={occupancyColour(n)} />
              <button type="button" class="btn plain" onClick={() => select.run(f.id)}>
                {f.name}
              </button>
              <span class="muted occupancy">{n} inside</span>
            </li>
          );
        })}
      </ul>
      <ul class="legend" aria-label="Fence colours">
        {OCCUPANCY_SCALE.map((step) => (
          <li>
            <Swatch colour={step.colour} /> {step.label}
          </li>
        ))}
      </ul>
      <DeletedFences context={context} refreshKey={deletedKey} onRestored={() => setUndo(null)} />
    </div>
  );
}

/** Deleted fences of the floor, each with a Restore (the API keeps them with `deleted: true`). */
function DeletedFences({ context, refreshKey, onRestored }: { context: FloorContext; refreshKey: number; onRestored: () => void }) {
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<Geofence[] | null>(null);
  const load = useAction(async () => setList(await getAll<Geofence>(`/geofences?floor_ids=${context.floor.id}&deleted=true&sort=-updated_at`)));
  useEffect(() => {
    if (open) void load.run();
  }, [open, refreshKey]);
  const restore = useAction(async (fence: Geofence) => {
    await api.post(`/geofences/${fence.id}/restore`);
    onRestored();
    await context.reloadFences();
    await load.run();
  });
  return (
    <details class="deleted-fences" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Deleted geofences</summary>
      <ErrorBox error={load.error} onRetry={load.run} />
      <ErrorBox error={restore.error} />
      {open && !list && !load.error && <Loading what="deleted geofences" />}
      {list?.length === 0 && <p class="muted">None.</p>}
      <ul class="plain-list">
        {list?.map((f) => (
          <li data-deleted-fence-id={f.id}>
            {f.name}{' '}
            <ActionButton onAction={() => restore.run(f)}>
              Restore <span class="sr-only">{f.name}</span>
            </ActionButton>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A colour sample; its colour is set through the DOM (the CSP has no inline styles). */
export function Swatch({ colour }: { colour: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    ref.current?.style.setProperty('background-color', colour);
  }, [colour]);
  return <span ref={ref} class="swatch" data-colour={colour} aria-hidden="true" />;
}

function NewFenceForm({ drawn, onSave, onCancel }: { drawn: number[][] | null; onSave: (name: string) => Promise<void>; onCancel: () => void }) {
  const [name, setName] = useState('');
  const { error, run, setError } = useAction(async () => {
    if (!drawn) {
      setError(new ApiError(422, 'validation_failed', 'Draw the geofence on the map first: click its corners, then the first one again.'));
      return;
    }
    if (!name.trim()) {
      setError(new ApiError(422, 'validation_failed', 'Give the geofence a name.', [{ fields: 'name', message: 'Give the geofence a name.' }]));
      return;
    }
    await onSave(name.trim());
  });
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <h2>New geofence</h2>
      <p class="muted" role="status">
        {drawn ? 'Name it and save.' : 'Click on the map to place its corners; click the first one again to close it.'}
      </p>
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} />
      <ErrorBox error={error} fields={['name']} />
      <div class="row">
        <ActionButton kind="primary" onAction={run}>
          Save geofence
        </ActionButton>
        <button type="button" class="btn plain" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
