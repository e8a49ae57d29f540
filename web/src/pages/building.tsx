import { useState } from 'preact/hooks';
import { api, getAll, request } from '../api';
import { BuildingForm } from '../building-setup/building-form';
import { degrees } from '../building-setup/building-input';
import { FloorCard, FloorForm } from '../building-setup/floor-card';
import { CascadeDelete } from '../building-setup/cascade-delete';
import { Dialog, ErrorBox, Loading, useLoad } from '../components/ui';
import { type Building, type Floor } from '../model';
import { navigate } from '../router';

/** One building: its facts, its floors with their plans, and the ways to change or delete them. */
export function BuildingPage({ id }: { id: string }) {
  const building = useLoad((signal) => request<Building>(`/buildings/${id}`, { signal }), [id]);
  const floors = useLoad(async (signal) => getAll<Floor>(`/buildings/${id}/floors`, signal), [id]);
  const [editing, setEditing] = useState(false);
  const [addingFloor, setAddingFloor] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const b = building.data?.body;
  if (building.error) return <ErrorBox error={building.error} onRetry={building.reload} />;
  if (!b) return <Loading what="the building" />;
  return (
    <section>
      <div class="section-head">
        <h1>{b.name}</h1>
        <div class="row">
          <button type="button" class="btn plain" onClick={() => setEditing(true)}>
            Edit
          </button>
          <a class="btn plain" href={`/buildings/${b.id}/place`}>
            Place on the map
          </a>
          <button type="button" class="btn danger" onClick={() => setDeleting(true)}>
            Delete building
          </button>
        </div>
      </div>
      {b.description && <p>{b.description}</p>}
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
          {b.dimensions.width} m × {b.dimensions.length} m, rotated {degrees(b.rotation)}°
        </dd>
      </dl>
      <div class="section-head">
        <h2>Floors</h2>
        <button type="button" class="btn primary" onClick={() => setAddingFloor(true)}>
          New floor
        </button>
      </div>
      <ErrorBox error={floors.error} onRetry={floors.reload} />
      {floors.data?.length === 0 && <p>No floors yet.</p>}
      <ul class="floors">
        {floors.data
          ?.slice()
          .sort((x, y) => x.level - y.level)
          .map((f) => (
            <FloorCard building={b} floor={f} onChanged={floors.reload} />
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
          onSubmit={async (body) => {
            await api.post('/floors', { building_id: b.id, ...body });
            setAddingFloor(false);
            floors.reload();
          }}
          submitLabel="Create floor"
        />
      </Dialog>
      <CascadeDelete
        open={deleting}
        title="Delete building"
        what={`the building “${b.name}”`}
        path={`/buildings/${b.id}`}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/buildings')}
      />
    </section>
  );
}
