import { useState } from 'preact/hooks';
import { api, getAll } from '../api';
import { BuildingForm } from '../building-setup/building-form';
import { Dialog, ErrorBox, formatTime, Loading, useLoad } from '../components/ui';
import type { Building } from '../model';
import { navigate } from '../router';

/** Where a session lands: the organization's buildings, or the guided start when there are none. */
export function BuildingsPage() {
  const list = useLoad(async (signal) => getAll<Building>('/buildings', signal), []);
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <div class="section-head">
        <h1>Buildings</h1>
        <button type="button" class="btn primary" onClick={() => setCreating(true)}>
          New building
        </button>
      </div>
      <ErrorBox error={list.error} onRetry={list.reload} />
      {!list.data && !list.error && <Loading what="buildings" />}
      {list.data?.length === 0 && (
        <div class="card empty-start" data-testid="empty-organization">
          <h2>Set up your first site</h2>
          <p>There are no buildings yet. The guide takes you through a building, its floor plan, a geofence and a first device on the map in a few minutes.</p>
          <a class="btn primary" href="/start">
            Start the guide
          </a>
        </div>
      )}
      {list.data && list.data.length > 0 && (
        <div class="table-scroll">
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
        </div>
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
