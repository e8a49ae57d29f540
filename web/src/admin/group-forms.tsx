import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ActionButton, ErrorBox, Field, submitWith, useAction } from '../components/ui';
import type { Group, User } from './user-form';

export function GroupForm({ onSubmit }: { onSubmit: (body: Record<string, unknown>) => Promise<void> }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { error, run } = useAction(() => onSubmit({ name, description }));
  return (
    <form onSubmit={submitWith(run)}>
      <Field label="Name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} error={error as ApiError} />
      <Field label="Description" name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} error={error as ApiError} />
      <ErrorBox error={error} fields={['name', 'description']} />
      <ActionButton kind="primary" onAction={run}>
        Create group
      </ActionButton>
    </form>
  );
}

/** Who is in a group: a checkbox per user, saved as the group's `user_ids`. */
export function GroupMembers({ group, users, onSaved }: { group: Group; users: User[]; onSaved: () => void }) {
  const [chosen, setChosen] = useState<string[]>(group.user_ids ?? []);
  const { error, run } = useAction(async () => {
    await api.put(`/groups/${group.id}`, { user_ids: chosen });
    onSaved();
  });
  return (
    <form onSubmit={submitWith(run)} aria-label={`Members of ${group.name}`}>
      <fieldset>
        <legend>Members of {group.name}</legend>
        {users.map((u) => (
          <label class="checkbox">
            <input type="checkbox" checked={chosen.includes(u.id)} onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, u.id] : chosen.filter((id) => id !== u.id))} />{' '}
            {u.email}
          </label>
        ))}
      </fieldset>
      <ErrorBox error={error} fields={['user_ids']} />
      <ActionButton kind="primary" onAction={run}>
        Save members
      </ActionButton>
    </form>
  );
}
