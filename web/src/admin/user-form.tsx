import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { ActionButton, ErrorBox, Field, submitWith, useAction } from '../components/ui';
import type { Building } from '../model';

export interface User {
  id: string;
  email: string;
  full_name: string;
  role: 'ADMIN_ORG' | 'USER';
  group_ids: string[];
  building_ids: number[];
}

export interface Group {
  id: string;
  name: string;
  description: string;
  user_ids: string[];
}

export function UserForm({ initial, buildings, onSubmit }: { initial?: User; buildings: Building[]; onSubmit: (body: Record<string, unknown>) => Promise<void> }) {
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
    <form onSubmit={submitWith(run)}>
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
