import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ActionButton, CopyButton, Dialog, ErrorBox, Field, Loading, formatTime, submitWith, useAction, useLoad } from '../components/ui';
import type { Building, Floor } from '../model';
import { ExamplePlace, positionCurl } from '../onboarding/position-curl';

export type Permission = 'positioning' | 'read-only' | 'cartography-read-write' | 'read-write' | 'disabled';

/** The five levels of contract 2.3, each in one line. */
export const PERMISSIONS: Array<{ value: Permission; label: string; explains: string }> = [
  { value: 'positioning', label: 'Positioning', explains: 'Reads the maps and reports positions: the key to embed in apps.' },
  { value: 'read-only', label: 'Read only', explains: 'Reads everything, changes nothing.' },
  { value: 'cartography-read-write', label: 'Cartography read/write', explains: 'Reads everything and edits buildings, floors, POIs, paths and geofences.' },
  { value: 'read-write', label: 'Read/write', explains: 'Does everything your account may do.' },
  { value: 'disabled', label: 'Disabled', explains: 'Kept, but refused everywhere until you change it.' },
];

export interface ApiKey {
  id: string;
  apikey: string;
  permission: Permission;
  description: string;
  created_at: string;
  last_used_at: string | null;
}

/** The caller's API keys: levels, shown once, permission changes that take effect at once. */
export function ApiKeysPage() {
  return (
    <section>
      <h1>API keys</h1>
      <p class="muted">Keys let programs and apps use the API as you. A positioning key is the one to put in a device app: it reads the maps and reports positions.</p>
      <ApiKeys />
    </section>
  );
}

function ApiKeys() {
  const keys = useLoad((signal) => api.get<ApiKey[]>('/auth/apikeys', signal), []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <section aria-labelledby="keys-title">
      <div class="section-head">
        <h2 id="keys-title">API keys</h2>
        <button type="button" class="btn primary" onClick={() => setCreating(true)}>
          Create new API key
        </button>
      </div>
      <ErrorBox error={keys.error} onRetry={keys.reload} />
      {!keys.data && !keys.error && <Loading what="API keys" />}
      {keys.data && keys.data.length === 0 && <p>No API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <div class="table-scroll">
          <table class="keys">
            <thead>
              <tr>
                <th>Description</th>
                <th>Key</th>
                <th>Permission</th>
                <th>Created</th>
                <th>Last used</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr data-key-id={key.id}>
                  <td>{key.description || <em>no description</em>}</td>
                  <td>
                    <code>{key.apikey}</code>
                    {key.permission === 'positioning' && !key.apikey.includes('*') && <CopyButton text={key.apikey} />}
                  </td>
                  <td>{PERMISSIONS.find((p) => p.value === key.permission)?.label ?? key.permission}</td>
                  <td>{formatTime(key.created_at)}</td>
                  <td>{formatTime(key.last_used_at)}</td>
                  <td class="actions">
                    <button type="button" class="btn plain" onClick={() => setEditing(key)}>
                      Edit
                    </button>
                    <button type="button" class="btn danger" onClick={() => setRevoking(key)}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Dialog title="Create new API key" open={creating} onClose={() => setCreating(false)}>
        <KeyForm
          submitLabel="Create"
          onSubmit={async (body) => {
            const key = await api.post<ApiKey>('/auth/apikeys', body);
            setCreating(false);
            setCreated(key);
            keys.reload();
          }}
        />
      </Dialog>
      <Dialog title="Your new API key" open={created !== null} onClose={() => setCreated(null)}>
        {created && <NewKey apiKey={created} onDone={() => setCreated(null)} />}
      </Dialog>
      <Dialog title="Edit API key" open={editing !== null} onClose={() => setEditing(null)}>
        {editing && (
          <KeyForm
            initial={editing}
            submitLabel="Save"
            onSubmit={async (body) => {
              await api.put(`/auth/apikeys/${editing.id}`, body);
              setEditing(null);
              keys.reload();
            }}
          />
        )}
      </Dialog>
      <Dialog title="Revoke API key" open={revoking !== null} onClose={() => setRevoking(null)}>
        {revoking && (
          <ConfirmRevoke
            apiKey={revoking}
            onRevoked={() => {
              setRevoking(null);
              keys.reload();
            }}
          />
        )}
      </Dialog>
    </section>
  );
}

function KeyForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial?: ApiKey;
  submitLabel: string;
  onSubmit: (body: { description: string; permission: Permission }) => Promise<void>;
}) {
  const [description, setDescription] = useState(initial?.description ?? '');
  const [permission, setPermission] = useState<Permission>(initial?.permission ?? 'read-only');
  const { error, run } = useAction(async () => {
    await onSubmit({ description, permission });
  });
  return (
    <form onSubmit={submitWith(run)}>
      <Field label="Description" name="description" value={description} maxLength={255} onInput={(e) => setDescription(e.currentTarget.value)} error={error as ApiError} />
      <fieldset class="permissions">
        <legend>Permission</legend>
        {PERMISSIONS.map((p) => (
          <label class="radio">
            <input type="radio" name="permission" value={p.value} checked={permission === p.value} onChange={() => setPermission(p.value)} />
            <span>
              <strong>{p.label}</strong> <small>{p.explains}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <ErrorBox error={error} fields={['description', 'permission']} />
      <ActionButton kind="primary" onAction={run}>
        {submitLabel}
      </ActionButton>
    </form>
  );
}

function NewKey({ apiKey, onDone }: { apiKey: ApiKey; onDone: () => void }) {
  return (
    <div class="new-key">
      <p>Copy the key now: {apiKey.permission === 'positioning' ? 'you can read positioning keys again later.' : 'it is shown this once and cannot be read again.'}</p>
      <p class="key-line">
        <code data-testid="new-api-key">{apiKey.apikey}</code> <CopyButton text={apiKey.apikey} />
      </p>
      <KeyExample apiKey={apiKey} />
      <button type="button" class="btn primary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** A command to try the key: a positioning key reports a position (on the first floor there is, so a dot appears), any other lists the buildings. */
export function KeyExample({ apiKey }: { apiKey: Pick<ApiKey, 'apikey' | 'permission'> }) {
  const place = useLoad(async (signal) => (apiKey.permission === 'positioning' ? firstPlace(signal) : null), [apiKey.permission]);
  if (apiKey.permission === 'positioning' && place.data === undefined && !place.error) return <Loading what="an example" />;
  const curl =
    apiKey.permission === 'positioning'
      ? positionCurl(location.origin, apiKey.apikey, place.data ?? null)
      : `curl -H 'X-API-KEY: ${apiKey.apikey}' ${location.origin}/api/v1/buildings`;
  return (
    <>
      <p>
        {apiKey.permission === 'positioning'
          ? 'Try it: this reports a position now, as a device app would' + (place.data ? ', and a dot appears on the floor map.' : '.')
          : 'Try it:'}
      </p>
      <p class="key-line">
        <code data-testid="curl-line">{curl}</code> <CopyButton text={curl} label="Copy command" />
      </p>
    </>
  );
}

/** The centre of the first building's lowest floor, when there is one. */
async function firstPlace(signal: AbortSignal): Promise<ExamplePlace | null> {
  const buildings = await api.get<Building[] | { data: Building[] }>('/buildings', signal);
  const list = Array.isArray(buildings) ? buildings : buildings.data;
  for (const b of list) {
    const floors = await api.get<Floor[]>(`/buildings/${b.id}/floors`, signal);
    const floor = floors.slice().sort((x, y) => x.level - y.level)[0];
    if (floor) return { buildingId: b.id, floorId: floor.id, lat: b.location.lat, lng: b.location.lng };
  }
  return null;
}

function ConfirmRevoke({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const [error, setError] = useState<unknown>(null);
  return (
    <div>
      <p>
        Revoke <strong>{apiKey.description || apiKey.apikey}</strong>? Every app using it stops working at once.
      </p>
      <ErrorBox error={error} />
      <ActionButton
        kind="danger"
        onAction={async () => {
          try {
            await api.del(`/auth/apikeys/${apiKey.id}`);
            onRevoked();
          } catch (e) {
            setError(e);
          }
        }}
      >
        Revoke key
      </ActionButton>
    </div>
  );
}
