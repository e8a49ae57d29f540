import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ActionButton, CopyButton, Dialog, ErrorBox, Field, Loading, formatTime, submitWith, useAction, useLoad } from '../components/ui';
import type { Session } from '../session';

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

export function ProfilePage({ session }: { session: Session }) {
  return (
    <section>
      <h1>Profile</h1>
      <p>
        Signed in as <strong>{session.user.email}</strong> ({session.user.role === 'ADMIN_ORG' ? 'administrator' : 'user'}).
      </p>
      <ApiKeys />
      <ChangePassword />
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
      <ErrorBox error={keys.error} />
      {!keys.data && !keys.error && <Loading what="API keys" />}
      {keys.data && keys.data.length === 0 && <p>No API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
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

function KeyForm({ initial, submitLabel, onSubmit }: { initial?: ApiKey; submitLabel: string; onSubmit: (body: { description: string; permission: Permission }) => Promise<void> }) {
  const [description, setDescription] = useState(initial?.description ?? '');
  const [permission, setPermission] = useState<Permission>(initial?.permission ?? 'read-only');
  const { error, run } = useAction(async () => {
    await onSubmit({ description, permission });
  });
  return (
    <form
      onSubmit={submitWith(run)}
    >
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
  const curl = `curl -H 'X-API-KEY: ${apiKey.apikey}' ${location.origin}/api/v1/buildings`;
  return (
    <div class="new-key">
      <p>Copy the key now: {apiKey.permission === 'positioning' ? 'you can read positioning keys again later.' : 'it is shown this once and cannot be read again.'}</p>
      <p class="key-line">
        <code data-testid="new-api-key">{apiKey.apikey}</code> <CopyButton text={apiKey.apikey} />
      </p>
      <p>Try it:</p>
      <p class="key-line">
        <code data-testid="curl-line">{curl}</code> <CopyButton text={curl} label="Copy curl" />
      </p>
      <button type="button" class="btn primary" onClick={onDone}>
        Done
      </button>
    </div>
  );
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

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const run = async () => {
    setError(null);
    setDone(false);
    try {
      await api.put('/users/me/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setDone(true);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form
        class="narrow"
        onSubmit={submitWith(run)}
      >
        <Field label="Current password" name="current_password" type="password" autoComplete="current-password" value={current} onInput={(e) => setCurrent(e.currentTarget.value)} error={error as ApiError} />
        <Field label="New password" name="new_password" type="password" autoComplete="new-password" value={next} onInput={(e) => setNext(e.currentTarget.value)} error={error as ApiError} />
        <ErrorBox error={error} fields={['current_password', 'new_password']} />
        {done && (
          <p class="notice" role="status">
            Password changed. Your other sessions were signed out.
          </p>
        )}
        <ActionButton kind="primary" onAction={run}>
          Change password
        </ActionButton>
      </form>
    </section>
  );
}

