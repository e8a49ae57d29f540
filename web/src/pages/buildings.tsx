import { useState } from 'preact/hooks';
import { api, ApiError, getAll, request } from '../api';
import { ActionButton, Dialog, ErrorBox, Field, Loading, formatTime, submitWith, useAction, useLoad } from '../components/ui';
import { navigate } from '../router';

export interface Building {
  id: number;
  name: string;
  description: string;
  info: string;
  location: { lat: number; lng: number };
  dimensions: { width: number; length: number };
  rotation: number;
  created_at: string;
  updated_at: string;
}

export interface Floor {
  id: number;
  building_id: number;
  level: number;
  level_height: number | null;
  name: string;
  maps: { scale: number | null; map_id: string; map_url: string };
  updated_at: string;
}

export function BuildingsPage({ canWrite }: { canWrite: boolean }) {
  const list = useLoad(async (signal) => getAll<Building>('/buildings', signal), []);
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <div class="section-head">
        <h1>Buildings</h1>
        {canWrite && (
          <button type="button" class="btn primary" onClick={() => setCreating(true)}>
            New building
          </button>
        )}
      </div>
      <ErrorBox error={list.error} />
      {!list.data && !list.error && <Loading what="buildings" />}
      {list.data?.length === 0 && <p>No buildings yet.</p>}
      {list.data && list.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Location</th>
              <th>Size (m)</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((b) => (
              <tr>
                <td>
                  <a href={`/buildings/${b.id}`}>{b.name}</a>
                </td>
                <td>
                  {b.location.lat.toFixed(5)}, {b.location.lng.toFixed(5)}
                </td>
                <td>
                  {b.dimensions.width} × {b.dimensions.length}
                </td>
                <td>{formatTime(b.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog title="New building" open={creating} onClose={() => setCreating(false)}>
        <BuildingForm
          submitLabel="Create"
          onSubmit={async (body) => {
            const created = await api.post<Building>('/buildings', body);
            setCreating(false);
            navigate(`/buildings/${created.id}`);
          }}
        />
      </Dialog>
    </section>
  );
}

type BuildingBody = Pick<Building, 'name' | 'description' | 'location' | 'dimensions' | 'rotation'>;

export function BuildingForm({ initial, submitLabel, onSubmit }: { initial?: Building; submitLabel: string; onSubmit: (body: BuildingBody) => Promise<void> }) {
  const [form, setForm] = useState({
    name: initial?.name ?? '',
    description: initial?.description ?? '',
    lat: String(initial?.location.lat ?? ''),
    lng: String(initial?.location.lng ?? ''),
    width: String(initial?.dimensions.width ?? ''),
    length: String(initial?.dimensions.length ?? ''),
    rotation: String(initial?.rotation ?? 0),
  });
  const [error, setError] = useState<unknown>(null);
  const set = (key: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [key]: e.currentTarget.value });
  // Empty numeric inputs go to the server as null so its validation names the field.
  const num = (s: string) => (s.trim() === '' ? (null as unknown as number) : Number(s));
  const run = async () => {
    setError(null);
    try {
      await onSubmit({
        name: form.name,
        description: form.description,
        location: { lat: num(form.lat), lng: num(form.lng) },
        dimensions: { width: num(form.width), length: num(form.length) },
        rotation: num(form.rotation),
      });
    } catch (e) {
      setError(e);
    }
  };
  const err = error as ApiError;
  const fields = ['name', 'description', 'location.lat', 'location.lng', 'dimensions.width', 'dimensions.length', 'rotation', 'location', 'dimensions'];
  return (
    <form
      onSubmit={submitWith(run)}
    >
      <Field label="Name" name="name" required value={form.name} onInput={set('name')} error={err} />
      <Field label="Description" name="description" value={form.description} onInput={set('description')} error={err} />
      <div class="row">
        <Field label="Latitude" name="location.lat" inputMode="decimal" value={form.lat} onInput={set('lat')} error={err} />
        <Field label="Longitude" name="location.lng" inputMode="decimal" value={form.lng} onInput={set('lng')} error={err} />
      </div>
      <div class="row">
        <Field label="Width (m)" name="dimensions.width" inputMode="decimal" value={form.width} onInput={set('width')} error={err} />
        <Field label="Length (m)" name="dimensions.length" inputMode="decimal" value={form.length} onInput={set('length')} error={err} />
        <Field label="Rotation (rad)" name="rotation" inputMode="decimal" value={form.rotation} onInput={set('rotation')} error={err} />
      </div>
      <ErrorBox error={error} fields={fields} />
      <ActionButton kind="primary" onAction={run}>
        {submitLabel}
      </ActionButton>
    </form>
  );
}

export function BuildingPage({ id, canWrite }: { id: string; canWrite: boolean }) {
  const building = useLoad((signal) => request<Building>(`/buildings/${id}`, { signal }), [id]);
  const floors = useLoad(async (signal) => getAll<Floor>(`/buildings/${id}/floors`, signal), [id]);
  const [editing, setEditing] = useState(false);
  const [addingFloor, setAddingFloor] = useState(false);
  const b = building.data?.body;
  return (
    <section>
      <ErrorBox error={building.error} />
      {!b && !building.error && <Loading what="the building" />}
      {b && (
        <>
          <div class="section-head">
            <h1>{b.name}</h1>
            {canWrite && (
              <button type="button" class="btn plain" onClick={() => setEditing(true)}>
                Edit
              </button>
            )}
          </div>
          <p>{b.description}</p>
          <p>
            <a href={`/analytics?building_id=${b.id}`}>Analytics of this building</a>
          </p>
          <dl class="facts">
            <dt>Location</dt>
            <dd>
              {b.location.lat}, {b.location.lng}
            </dd>
            <dt>Size</dt>
            <dd>
              {b.dimensions.width} m × {b.dimensions.length} m, rotated {b.rotation} rad
            </dd>
          </dl>
          <div class="section-head">
            <h2>Floors</h2>
            {canWrite && (
              <button type="button" class="btn primary" onClick={() => setAddingFloor(true)}>
                New floor
              </button>
            )}
          </div>
          <ErrorBox error={floors.error} />
          {floors.data?.length === 0 && <p>No floors yet.</p>}
          <ul class="floors">
            {floors.data
              ?.slice()
              .sort((x, y) => x.level - y.level)
              .map((f) => (
                <li class="floor card">
                  <h3>
                    {f.name || `Level ${f.level}`} <small>level {f.level}</small>
                  </h3>
                  {f.maps.map_url ? <img src={f.maps.map_url} alt={`Plan of ${f.name || `level ${f.level}`}`} loading="lazy" /> : <p class="muted">No plan uploaded.</p>}
                  <p>
                    <a href={`/buildings/${b.id}/floors/${f.id}/map`}>Open the floor map</a>
                  </p>
                  {canWrite && <PlanUpload floor={f} onUploaded={floors.reload} />}
                </li>
              ))}
          </ul>
          <Dialog title="Edit building" open={editing} onClose={() => setEditing(false)}>
            <BuildingForm
              initial={b}
              submitLabel="Save"
              onSubmit={async (body) => {
                await api.put(`/buildings/${b.id}`, body, building.data!.etag ?? undefined);
                setEditing(false);
                building.reload();
              }}
            />
          </Dialog>
          <Dialog title="New floor" open={addingFloor} onClose={() => setAddingFloor(false)}>
            <FloorForm
              buildingId={b.id}
              onCreated={() => {
                setAddingFloor(false);
                floors.reload();
              }}
            />
          </Dialog>
        </>
      )}
    </section>
  );
}

function FloorForm({ buildingId, onCreated }: { buildingId: number; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [level, setLevel] = useState('0');
  const { error, run } = useAction(async () => {
    await api.post('/floors', { building_id: buildingId, name, level: level.trim() === '' ? null : Number(level) });
    onCreated();
  });
  return (
    <form
      onSubmit={submitWith(run)}
    >
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} />
      <Field label="Level" name="level" inputMode="numeric" value={level} onInput={(e) => setLevel(e.currentTarget.value)} error={error as ApiError} />
      <ErrorBox error={error} fields={['name', 'level']} />
      <ActionButton kind="primary" onAction={run}>
        Create floor
      </ActionButton>
    </form>
  );
}

/** Uploads a plan image, then points the floor at it (two API calls, progress shown). */
function PlanUpload({ floor, onUploaded }: { floor: Floor; onUploaded: () => void }) {
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
