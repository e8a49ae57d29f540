import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, getAll, query } from '../api';
import { ActionButton, ConfirmDialog, Dialog, ErrorBox, Field, Loading, submitWith, useAction, useLoad } from '../components/ui';
import { DEFAULT_STALE_AFTER_S, formatAge, freshness, Freshness, FRESHNESS_WORDS, lastSeenBounds } from '../freshness';
import { type Building, type Device, deviceLabel, type Floor, floorLabel, type GeofencingSettings, type Page } from '../model';
import { deviceRenamed, rememberDevices } from './device-names';

const PAGE_SIZE = 50;
const REFRESH_MS = 15_000;

interface Filters {
  search: string;
  status: '' | Freshness;
  floor: string;
  page: number;
}

function filtersFrom(search: string): Filters {
  const q = new URLSearchParams(search);
  const status = q.get('status');
  return {
    search: q.get('search') ?? '',
    status: status === 'online' || status === 'stale' || status === 'offline' ? status : '',
    floor: q.get('floor') ?? '',
    page: Math.max(1, Number(q.get('page')) || 1),
  };
}

/**
 * Every device of the organization: who it is, whether it is online, stale or offline (the
 * same rule as the map), where it was last seen and with what accuracy; an administrator
 * renames and deletes them. Filters live in the address, so a link shows the same list.
 */
export function DevicesPage({ search, isAdmin }: { search: string; isAdmin: boolean }) {
  const [filters, setFilters] = useState<Filters>(() => filtersFrom(search));
  const [typed, setTyped] = useState(filters.search);
  const [tick, setTick] = useState(0);
  const [renaming, setRenaming] = useState<Device | null>(null);
  const [deleting, setDeleting] = useState<Device | null>(null);
  const places = useLoad(async (signal) => {
    const [buildings, floors, settings] = await Promise.all([
      getAll<Building>('/buildings', signal),
      getAll<Floor>('/floors', signal),
      api.get<GeofencingSettings>('/geofencing/settings', signal).catch(() => ({ stale_after_seconds: DEFAULT_STALE_AFTER_S })),
    ]);
    return { buildings, floors, staleAfterS: settings.stale_after_seconds ?? DEFAULT_STALE_AFTER_S };
  }, []);
  const staleAfterS = places.data?.staleAfterS ?? DEFAULT_STALE_AFTER_S;

  useEffect(() => {
    const params = new URLSearchParams();
    if (filters.search) params.set('search', filters.search);
    if (filters.status) params.set('status', filters.status);
    if (filters.floor) params.set('floor', filters.floor);
    if (filters.page > 1) params.set('page', String(filters.page));
    history.replaceState(null, '', `/devices${params.toString() ? `?${params}` : ''}`);
  }, [filters]);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const list = useLoad(
    (signal) =>
      api
        .get<Page<Device>>(
          `/devices${query({
            search: filters.search || undefined,
            floor_ids: filters.floor || undefined,
            ...(filters.status ? lastSeenBounds(filters.status, Date.now(), staleAfterS) : {}),
            sort: '-last_seen_at',
            page: filters.page,
            size: PAGE_SIZE,
          })}`,
          signal,
        )
        .then((loaded) => {
          rememberDevices(loaded.data);
          return loaded;
        }),
    [filters, tick, staleAfterS],
  );
  const floorName = useMemo(() => {
    const byId = new Map<number, string>();
    for (const f of places.data?.floors ?? []) {
      const b = places.data!.buildings.find((x) => x.id === f.building_id);
      byId.set(f.id, `${b ? `${b.name} · ` : ''}${floorLabel(f)}`);
    }
    return byId;
  }, [places.data]);
  const set = (patch: Partial<Filters>) => setFilters({ ...filters, page: 1, ...patch });
  const now = Date.now();
  const page = list.data;

  return (
    <section>
      <h1>Devices</h1>
      <form class="filters card" aria-label="Device filters" onSubmit={submitWith(async () => set({ search: typed.trim() }))}>
        <Field label="Search" name="search" type="search" value={typed} placeholder="Id, name or model" onInput={(e) => setTyped(e.currentTarget.value)} />
        <Field label="Status" name="status">
          <select value={filters.status} onChange={(e) => set({ status: e.currentTarget.value as Filters['status'] })}>
            <option value="">Any</option>
            <option value="online">Online (a fix in the last 30 s)</option>
            <option value="stale">Stale (silent, up to {staleAfterS} s)</option>
            <option value="offline">Offline</option>
          </select>
        </Field>
        <Field label="Floor" name="floor">
          <select value={filters.floor} onChange={(e) => set({ floor: e.currentTarget.value })}>
            <option value="">Any floor</option>
            {[...floorName].map(([id, name]) => (
              <option value={String(id)}>{name}</option>
            ))}
          </select>
        </Field>
        <div class="row">
          <button type="submit" class="btn primary">
            Search
          </button>
        </div>
      </form>
      <ErrorBox error={places.error} onRetry={places.reload} />
      <ErrorBox error={list.error} onRetry={list.reload} />
      {!page && !list.error && <Loading what="devices" />}
      {page && page.data.length === 0 && <p>{filters.search || filters.status || filters.floor ? 'No device matches these filters.' : 'No device has reported a position yet.'}</p>}
      {page && page.data.length > 0 && (
        <>
          <p class="muted" role="status">
            {page.metadata.total_elements} {page.metadata.total_elements === 1 ? 'device' : 'devices'}; refreshed every {REFRESH_MS / 1000} s.
          </p>
          <div class="table-scroll">
            <table class="devices">
              <thead>
                <tr>
                  <th>Device</th>
                  <th>Status</th>
                  <th>Last seen</th>
                  <th>Where</th>
                  <th>Accuracy</th>
                  <th>Model</th>
                  <th>
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((d) => {
                  const seen = d.last_seen_at ? Date.parse(d.last_seen_at) : null;
                  const status = freshness(seen, now, staleAfterS);
                  const at = d.last_position;
                  return (
                    <tr data-device-id={d.id} data-status={status}>
                      <td>
                        <strong>{deviceLabel(d)}</strong>
                        {d.name && <div class="muted">{d.id}</div>}
                      </td>
                      <td>
                        <span class={`badge ${status}`}>{FRESHNESS_WORDS[status]}</span>
                      </td>
                      <td>{seen ? `${formatAge(now - seen)} ago` : 'never'}</td>
                      <td>
                        {at?.floor_id && at.building_id ? (
                          <a href={`/buildings/${at.building_id}/floors/${at.floor_id}/map?device=${encodeURIComponent(d.id)}`}>
                            {floorName.get(at.floor_id) ?? `floor ${at.floor_id}`}
                          </a>
                        ) : at ? (
                          `${at.lat.toFixed(5)}, ${at.lng.toFixed(5)}`
                        ) : (
                          '—'
                        )}
                      </td>
                      <td>{at ? `${Math.round(at.accuracy * 10) / 10} m` : '—'}</td>
                      <td>{d.code || '—'}</td>
                      <td class="actions">
                        {at?.floor_id && at.building_id && (
                          <a class="btn plain" href={`/buildings/${at.building_id}/floors/${at.floor_id}/map?view=history&device=${encodeURIComponent(d.id)}`}>
                            History
                          </a>
                        )}
                        {isAdmin && (
                          <>
                            <button type="button" class="btn plain" onClick={() => setRenaming(d)} aria-label={`Rename ${d.id}`}>
                              Rename
                            </button>
                            <button type="button" class="btn danger" onClick={() => setDeleting(d)} aria-label={`Delete ${d.id}`}>
                              Delete
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav class="row pager" aria-label="Pages">
            <button type="button" class="btn plain" disabled={filters.page <= 1} onClick={() => setFilters({ ...filters, page: filters.page - 1 })}>
              Previous
            </button>
            <span>
              Page {page.metadata.number} of {Math.max(1, page.metadata.total_pages)}
            </span>
            <button type="button" class="btn plain" disabled={page.metadata.last} onClick={() => setFilters({ ...filters, page: filters.page + 1 })}>
              Next
            </button>
          </nav>
        </>
      )}
      {!isAdmin && <p class="muted">Only administrators rename and delete devices.</p>}
      <Dialog title="Rename device" open={renaming !== null} onClose={() => setRenaming(null)}>
        {renaming && (
          <RenameForm
            device={renaming}
            onSaved={() => {
              setRenaming(null);
              list.reload();
            }}
          />
        )}
      </Dialog>
      <ConfirmDialog
        title="Delete device"
        open={deleting !== null}
        confirmLabel="Delete device and its history"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await api.del(`/devices/${encodeURIComponent(deleting!.id)}`);
          setDeleting(null);
          list.reload();
        }}
      >
        <p>
          Delete <strong>{deleting && deviceLabel(deleting)}</strong> and its whole position history? Reports and the heatmap no longer count it. If it reports again, it comes back
          as a new device.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function RenameForm({ device, onSaved }: { device: Device; onSaved: () => void }) {
  const [name, setName] = useState(device.name);
  const [code, setCode] = useState(device.code);
  const { error, run } = useAction(async () => {
    const saved = await api.put<Device>(`/devices/${encodeURIComponent(device.id)}`, { name: name.trim(), code: code.trim() });
    deviceRenamed(saved.body);
    onSaved();
  });
  return (
    <form onSubmit={submitWith(run)}>
      <p class="muted">Device id {device.id} (chosen by the device; it does not change).</p>
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} hint="What people call it, e.g. Forklift 7" />
      <Field label="Model" name="code" value={code} onInput={(e) => setCode(e.currentTarget.value)} error={error as ApiError} />
      <ErrorBox error={error} fields={['name', 'code']} />
      <ActionButton kind="primary" onAction={run}>
        Save
      </ActionButton>
    </form>
  );
}
