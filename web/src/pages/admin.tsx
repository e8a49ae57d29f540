import { useState } from 'preact/hooks';
import { api, ApiError, getAll, request } from '../api';
import { ActionButton, Dialog, ErrorBox, Field, Loading, submitWith, useAction, useLoad } from '../components/ui';
import type { Building } from './buildings';

interface User {
  id: string;
  email: string;
  full_name: string;
  role: 'ADMIN_ORG' | 'USER';
  group_ids: string[];
  building_ids: number[];
}

interface Group {
  id: string;
  name: string;
  description: string;
  user_ids: string[];
}


export function AdminPage() {
  const users = useLoad((s) => getAll<User>('/users', s), []);
  const groups = useLoad((s) => getAll<Group>('/groups', s), []);
  const buildings = useLoad((s) => getAll<Building>('/buildings', s), []);
  const [creatingUser, setCreatingUser] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [creatingGroup, setCreatingGroup] = useState(false);

  return (
    <section>
      <h1>Users and groups</h1>
      <div class="section-head">
        <h2>Users</h2>
        <button type="button" class="btn primary" onClick={() => setCreatingUser(true)}>
          New user
        </button>
      </div>
      <ErrorBox error={users.error} />
      {!users.data && !users.error && <Loading what="users" />}
      {users.data && (
        <table>
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Name</th>
              <th>Role</th>
              <th>Buildings</th>
              <th>
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((u) => (
              <tr>
                <td>{u.email}</td>
                <td>{u.full_name}</td>
                <td>{u.role === 'ADMIN_ORG' ? 'Administrator' : 'User'}</td>
                <td>{u.building_ids?.length ? u.building_ids.map((id) => buildings.data?.find((b) => b.id === id)?.name ?? id).join(', ') : 'all'}</td>
                <td>
                  <button type="button" class="btn plain" onClick={() => setEditing(u)}>
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="section-head">
        <h2>Groups</h2>
        <button type="button" class="btn primary" onClick={() => setCreatingGroup(true)}>
          New group
        </button>
      </div>
      <ErrorBox error={groups.error} />
      {groups.data && (
        <ul>
          {groups.data.map((g) => (
            <li>
              <strong>{g.name}</strong> {g.description} ({g.user_ids?.length ?? 0} members)
            </li>
          ))}
        </ul>
      )}
      <Dialog title="New user" open={creatingUser} onClose={() => setCreatingUser(false)}>
        <UserForm
          buildings={buildings.data ?? []}
          onSubmit={async (body) => {
            await api.post('/users', body);
            setCreatingUser(false);
            users.reload();
          }}
        />
      </Dialog>
      <Dialog title="Edit user" open={editing !== null} onClose={() => setEditing(null)}>
        {editing && (
          <UserForm
            initial={editing}
            buildings={buildings.data ?? []}
            onSubmit={async (body) => {
              await request(`/users/${editing.id}`, { method: 'PUT', body });
              setEditing(null);
              users.reload();
            }}
          />
        )}
      </Dialog>
      <Dialog title="New group" open={creatingGroup} onClose={() => setCreatingGroup(false)}>
        <GroupForm
          onSubmit={async (body) => {
            await api.post('/groups', body);
            setCreatingGroup(false);
            groups.reload();
          }}
        />
      </Dialog>
    </section>
  );
}

function UserForm({ initial, buildings, onSubmit }: { initial?: User; buildings: Building[]; onSubmit: (body: Record<string, unknown>) => Promise<void> }) {
  const [email, setEmail] = useState(initial?.email ?? '');
  const [fullName, setFullName] = useState(initial?.full_name ?? '');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<User['role']>(initial?.role ?? 'USER');
  const [restricted, setRestricted] = useState<number[]>(initial?.building_ids ?? []);
  const { error, run } = useAction(async () => {
    const body: Record<string, unknown> = { email, full_name: fullName, role, building_ids: restricted };
    if (!initial || password) body.password = password;
    await onSubmit(body);
  });
  const err = error as ApiError;
  return (
    <form
      onSubmit={submitWith(run)}
    >
      <Field label="E-mail" name="email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} error={err} />
      <Field label="Full name" name="full_name" value={fullName} onInput={(e) => setFullName(e.currentTarget.value)} error={err} />
      <Field
        label={initial ? 'New password (leave empty to keep)' : 'Password'}
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        error={err}
      />
      <Field label="Role" name="role" error={err}>
        <select name="role" value={role} onChange={(e) => setRole(e.currentTarget.value as User['role'])}>
          <option value="USER">User</option>
          <option value="ADMIN_ORG">Administrator</option>
        </select>
      </Field>
      <fieldset>
        <legend>Restrict to buildings (none checked: all buildings)</legend>
        {buildings.map((b) => (
          <label class="checkbox">
            <input
              type="checkbox"
              checked={restricted.includes(b.id)}
              onChange={(e) => setRestricted(e.currentTarget.checked ? [...restricted, b.id] : restricted.filter((id) => id !== b.id))}
            />{' '}
            {b.name}
          </label>
        ))}
      </fieldset>
      <ErrorBox error={error} fields={['email', 'full_name', 'password', 'role']} />
      <ActionButton kind="primary" onAction={run}>
        Save
      </ActionButton>
    </form>
  );
}

function GroupForm({ onSubmit }: { onSubmit: (body: Record<string, unknown>) => Promise<void> }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { error, run } = useAction(async () => {
    await onSubmit({ name, description });
  });
  return (
    <form
      onSubmit={submitWith(run)}
    >
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} />
      <Field label="Description" name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} error={error as ApiError} />
      <ErrorBox error={error} fields={['name', 'description']} />
      <ActionButton kind="primary" onAction={run}>
        Create group
      </ActionButton>
    </form>
  );
}
