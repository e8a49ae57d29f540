import { useState } from 'preact/hooks';
import { api, ApiError, request } from '../api';
import { ActionButton, Dialog, ErrorBox, Field, submitWith, useAction } from '../components/ui';
import { type Building, type Floor, floorLabel } from '../model';
import { CascadeDelete } from './cascade-delete';

/** A floor card shows the plan small: the server's thumbnail (one of its widths), not the full plan. */
const planThumbnail = (url: string) => `${url}?width=640`;

/** One floor: its plan, its map, and renaming, a new plan and deleting it. */
export function FloorCard({ building, floor, onChanged }: { building: Building; floor: Floor; onChanged: () => void }) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const label = floorLabel(floor);
  return (
    <li class="floor card" data-floor-id={floor.id}>
      <h3>
        {label} <small>level {floor.level}</small>
      </h3>
      {floor.maps.map_url ? <img src={planThumbnail(floor.maps.map_url)} alt={`Plan of ${label}`} loading="lazy" /> : <p class="muted">No plan uploaded.</p>}
      <p>
        <a href={`/buildings/${building.id}/floors/${floor.id}/map`}>Open the floor map</a>
      </p>
      <PlanUpload floor={floor} onUploaded={onChanged} />
      <div class="row">
        <button type="button" class="btn plain" onClick={() => setRenaming(true)} aria-label={`Rename ${label}`}>
          Rename
        </button>
        <button type="button" class="btn danger" onClick={() => setDeleting(true)} aria-label={`Delete ${label}`}>
          Delete
        </button>
      </div>
      <Dialog title="Rename floor" open={renaming} onClose={() => setRenaming(false)}>
        <FloorForm
          initial={floor}
          submitLabel="Save"
          onSubmit={async (body) => {
            await api.put(`/floors/${floor.id}`, body);
            setRenaming(false);
            onChanged();
          }}
        />
      </Dialog>
      <CascadeDelete open={deleting} title="Delete floor" what={`the floor “${label}”`} path={`/floors/${floor.id}`} onClose={() => setDeleting(false)} onDeleted={onChanged} />
    </li>
  );
}

export function FloorForm({ initial, submitLabel, onSubmit }: { initial?: Floor; submitLabel: string; onSubmit: (body: { name: string; level: number | null }) => Promise<void> }) {
  const [name, setName] = useState(initial?.name ?? '');
  const [level, setLevel] = useState(String(initial?.level ?? 0));
  const { error, run, setError } = useAction(async () => {
    const n = level.trim() === '' ? NaN : Number(level);
    if (!Number.isInteger(n)) {
      setError(
        new ApiError(422, 'validation_failed', 'Check the level.', [
          { fields: 'level', message: 'The level must be a whole number, such as 0 for the ground floor or -1 for a basement.' },
        ]),
      );
      return;
    }
    await onSubmit({ name, level: n });
  });
  return (
    <form onSubmit={submitWith(run)} noValidate>
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} />
      <Field label="Level" name="level" inputMode="numeric" value={level} onInput={(e) => setLevel(e.currentTarget.value)} error={error as ApiError} />
      <ErrorBox error={error} fields={['name', 'level']} />
      <ActionButton kind="primary" onAction={run}>
        {submitLabel}
      </ActionButton>
    </form>
  );
}

/** Uploads a plan image, then points the floor at it (two API calls, progress shown). */
export function PlanUpload({ floor, onUploaded }: { floor: Floor; onUploaded: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div class="upload">
      <label>
        {floor.maps.map_url ? 'Replace the plan' : 'Upload a plan'} (PNG, JPEG, WebP or SVG)
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/svg+xml"
          disabled={busy}
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            if (!file) return;
            setError(null);
            setBusy(true);
            try {
              const form = new FormData();
              form.append('image', file);
              const image = (await request<{ id: string }>('/images', { method: 'POST', rawBody: form })).body;
              await api.put(`/floors/${floor.id}`, { map_id: image.id });
              onUploaded();
            } catch (err) {
              setError(err);
            } finally {
              setBusy(false);
            }
          }}
        />
      </label>
      {busy && (
        <p role="status">
          <span class="spinner" aria-hidden="true" /> Uploading…
        </p>
      )}
      <ErrorBox error={error} />
    </div>
  );
}
