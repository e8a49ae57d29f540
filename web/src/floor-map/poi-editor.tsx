import * as L from 'leaflet';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ActionButton, ConfirmDialog, Dialog, ErrorBox, Field, submitWith, useAction } from '../components/ui';
import { fromFloorMetres, toFloorMetres } from '../geo';
import type { Poi } from '../model';
import { readNumber } from '../building-setup/building-input';
import type { FloorContext } from './floor-context';
import { latLng } from './map-setup';
import { PoiCategories } from './poi-categories';
import { useMapPick } from './use-map-pick';

interface Draft {
  id?: number;
  name: string;
  categoryId: string;
  x: string;
  y: string;
}

const draftOf = (p: Poi): Draft => ({ id: p.id, name: p.name, categoryId: p.category_id ? String(p.category_id) : '', x: String(p.position.x), y: String(p.position.y) });

/**
 * The floor's points of interest: placed by a click on the map (or by typing where, in floor
 * metres), moved by dragging their handle, renamed, given a category (with its icon), deleted.
 */
export function PoiEditor({ context }: { context: FloorContext }) {
  const { building, floor, pois, categories } = context;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [placing, setPlacing] = useState(false);
  const [deleting, setDeleting] = useState<Poi | null>(null);
  const [managing, setManaging] = useState(false);
  const [cats, setCats] = useState(categories);
  // A category given an icon here shows it on the map too.
  useEffect(() => {
    if (cats !== categories) void context.layers.pois.useIcons(cats);
  }, [cats]);

  const pick = useCallback(
    (lngLat: [number, number]) => {
      const { x, y } = toFloorMetres(building, lngLat);
      setDraft((d) => ({ ...(d ?? { name: '', categoryId: '' }), x: String(x), y: String(y) }));
      setPlacing(false);
    },
    [building],
  );
  useMapPick(context, placing, pick);

  // The draft's position as a handle on the map, dragged to move it.
  const x = draft ? readNumber(draft.x) : null;
  const y = draft ? readNumber(draft.y) : null;
  useEffect(() => {
    if (x === null || y === null) return;
    const icon = L.divIcon({ className: 'poi-handle', iconSize: [16, 16] });
    const marker = L.marker(latLng(fromFloorMetres(building, x, y)), { icon, draggable: true, keyboard: false, title: 'Drag to move' }).addTo(context.map);
    marker.on('dragend', () => {
      const at = marker.getLatLng();
      const metres = toFloorMetres(building, [at.lng, at.lat]);
      setDraft((d) => d && { ...d, x: String(metres.x), y: String(metres.y) });
    });
    return () => {
      marker.remove();
    };
  }, [x, y, building]);

  const save = useAction(async () => {
    if (!draft) return;
    const px = readNumber(draft.x);
    const py = readNumber(draft.y);
    const errors = [
      ...(draft.name.trim() ? [] : [{ fields: 'name', message: 'Give the POI a name.' }]),
      ...(px === null ? [{ fields: 'position.cartesians.x', message: 'Click on the map where it is, or type x in metres.' }] : []),
      ...(py === null ? [{ fields: 'position.cartesians.y', message: 'Type y in metres.' }] : []),
    ];
    if (errors.length) throw new ApiError(422, 'validation_failed', 'Some fields need a change.', errors);
    const body = { name: draft.name.trim(), category_id: draft.categoryId ? Number(draft.categoryId) : null, position: { floor_id: floor.id, cartesians: { x: px, y: py } } };
    if (draft.id) await api.put(`/pois/${draft.id}`, body);
    else await api.post('/pois', { ...body, building_id: building.id });
    setDraft(null);
    await context.reloadPois();
  });
  const err = save.error instanceof ApiError ? save.error : null;

  return (
    <div class="poi-editor">
      <div class="section-head">
        <h2>POIs ({pois.length})</h2>
        <button type="button" class="btn plain" onClick={() => setManaging(true)}>
          Categories
        </button>
      </div>
      {!draft && (
        <button
          type="button"
          class="btn primary"
          onClick={() => {
            setDraft({ name: '', categoryId: '', x: '', y: '' });
            setPlacing(true);
          }}
        >
          Add a POI
        </button>
      )}
      {draft && (
        <form class="poi-form" aria-label={draft.id ? 'Edit POI' : 'New POI'} onSubmit={submitWith(save.run)} noValidate>
          <h3>{draft.id ? 'Edit POI' : 'New POI'}</h3>
          {placing ? (
            <p class="notice" role="status">
              Click on the map where it is, or type its position below.
            </p>
          ) : (
            <p class="muted">Drag the orange handle on the map to move it.</p>
          )}
          <Field label="Name" name="name" value={draft.name} onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })} error={err} />
          <Field label="Category" name="category_id" error={err}>
            <select value={draft.categoryId} onChange={(e) => setDraft({ ...draft, categoryId: e.currentTarget.value })}>
              <option value="">No category</option>
              {cats.map((c) => (
                <option value={String(c.id)}>{c.name_en}</option>
              ))}
            </select>
          </Field>
          <div class="row">
            <Field label="x (m)" name="position.cartesians.x" inputMode="decimal" value={draft.x} onInput={(e) => setDraft({ ...draft, x: e.currentTarget.value })} error={err} />
            <Field label="y (m)" name="position.cartesians.y" inputMode="decimal" value={draft.y} onInput={(e) => setDraft({ ...draft, y: e.currentTarget.value })} error={err} />
          </div>
          <ErrorBox error={save.error} fields={['name', 'category_id', 'position.cartesians.x', 'position.cartesians.y']} />
          <div class="row">
            <ActionButton kind="primary" onAction={save.run}>
              Save POI
            </ActionButton>
            <button
              type="button"
              class="btn plain"
              onClick={() => {
                setDraft(null);
                setPlacing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      <ul class="plain-list poi-list">
        {pois.map((p) => {
          const category = cats.find((c) => c.id === p.category_id);
          return (
            <li data-poi-id={p.id}>
              {category?.icon_url ? <img class="icon" src={category.icon_url} alt="" /> : <span class="poi-dot" aria-hidden="true" />}
              <span class="poi-name">
                {p.name} {p.category_name && <span class="muted">· {p.category_name}</span>}
              </span>
              <button type="button" class="btn plain" onClick={() => setDraft(draftOf(p))} aria-label={`Edit ${p.name}`}>
                Edit
              </button>
              <button type="button" class="btn plain" onClick={() => setDeleting(p)} aria-label={`Delete ${p.name}`}>
                Delete
              </button>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        title="Delete POI"
        open={deleting !== null}
        confirmLabel="Delete POI"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await api.del(`/pois/${deleting!.id}`);
          setDeleting(null);
          await context.reloadPois();
        }}
      >
        <p>Delete the POI {deleting?.name}? Apps stop showing it.</p>
      </ConfirmDialog>
      <Dialog title="POI categories" open={managing} onClose={() => setManaging(false)}>
        <PoiCategories categories={cats} onChanged={setCats} />
      </Dialog>
    </div>
  );
}
