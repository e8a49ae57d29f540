import { useState } from 'preact/hooks';
import { api, getAll, request } from '../api';
import { ConfirmDialog, Dialog, ErrorBox, Loading, useLoad } from '../components/ui';
import type { Building } from '../model';
import { GroupForm, GroupMembers } from './group-forms';
import { Group, User, UserForm } from './user-form';

/** The organization's users and groups. Administrators change them; others see who is there. */
export function AdminPage({ isAdmin, self }: { isAdmin: boolean; self: string }) {
  const users = useLoad((s) => getAll<User>('/users', s), []);
  const groups = useLoad((s) => getAll<Group>('/groups', s), []);
  const buildings = useLoad((s) => getAll<Building>('/buildings', s), []);
  const [creatingUser, setCreatingUser] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [deletingUser, setDeletingUser] = useState<User | null>(null);
  const [creatingGroup, setCreatingGroup] = useState(false);
  const [members, setMembers] = useState<Group | null>(null);
  const [deletingGroup, setDeletingGroup] = useState<Group | null>(null);
  const userName = (id: string) => users.data?.find((u) => u.id === id)?.email ?? id;

  return (
    <section>
      <h1>Users and groups</h1>
      {!isAdmin && <p class="notice">Only administrators add, change and delete users and groups.</p>}
      <div class="section-head">
        <h2>Users</h2>
        {isAdmin && (
          <button type="button" class="btn primary" onClick={() => setCreatingUser(true)}>
            New user
          </button>
        )}
      </div>
      <ErrorBox error={users.error} onRetry={users.reload} />
      {!users.data && !users.error && <Loading what="users" />}
      {users.data && (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th>E-mail</th>
                <th>Name</th>
                <th>Role</th>
                <th>Buildings</th>
                {isAdmin && (
                  <th>
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {users.data.map((u) => (
                <tr data-user-id={u.id}>
                  <td>{u.email}</td>
                  <td>{u.full_name}</td>
                  <td>{u.role === 'ADMIN_ORG' ? 'Administrator' : 'User'}</td>
                  <td>{u.building_ids?.length ? u.building_ids.map((id) => buildings.data?.find((b) => b.id === id)?.name ?? id).join(', ') : 'all'}</td>
                  {isAdmin && (
                    <td class="actions">
                      <button type="button" class="btn plain" onClick={() => setEditing(u)} aria-label={`Edit ${u.email}`}>
                        Edit
                      </button>
                      {u.id !== self && (
                        <button type="button" class="btn danger" onClick={() => setDeletingUser(u)} aria-label={`Delete ${u.email}`}>
                          Delete
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="section-head">
        <h2>Groups</h2>
        {isAdmin && (
          <button type="button" class="btn primary" onClick={() => setCreatingGroup(true)}>
            New group
          </button>
        )}
      </div>
      <ErrorBox error={groups.error} onRetry={groups.reload} />
      {groups.data?.length === 0 && <p>No groups yet.</p>}
      {groups.data && groups.data.length > 0 && (
        <ul class="plain-list groups">
          {groups.data.map((g) => (
            <li data-group-id={g.id}>
              <strong>{g.name}</strong> {g.description} ({g.user_ids?.length ?? 0} {g.user_ids?.length === 1 ? 'member' : 'members'}
              {g.user_ids?.length ? `: ${g.user_ids.map(userName).join(', ')}` : ''})
              {isAdmin && (
                <>
                  <button type="button" class="btn plain" onClick={() => setMembers(g)} aria-label={`Members of ${g.name}`}>
                    Members
                  </button>
                  <button type="button" class="btn plain" onClick={() => setDeletingGroup(g)} aria-label={`Delete ${g.name}`}>
                    Delete
                  </button>
                </>
              )}
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
      <ConfirmDialog
        title="Delete user"
        open={deletingUser !== null}
        confirmLabel="Delete user"
        onClose={() => setDeletingUser(null)}
        onConfirm={async () => {
          await api.del(`/users/${deletingUser!.id}`);
          setDeletingUser(null);
          users.reload();
          groups.reload();
        }}
      >
        <p>Delete {deletingUser?.email}? They can no longer log in, and their API keys stop working at once.</p>
      </ConfirmDialog>
      <Dialog title="New group" open={creatingGroup} onClose={() => setCreatingGroup(false)}>
        <GroupForm
          onSubmit={async (body) => {
            await api.post('/groups', body);
            setCreatingGroup(false);
            groups.reload();
          }}
        />
      </Dialog>
      <Dialog title="Group members" open={members !== null} onClose={() => setMembers(null)}>
        {members && (
          <GroupMembers
            group={members}
            users={users.data ?? []}
            onSaved={() => {
              setMembers(null);
              groups.reload();
            }}
          />
        )}
      </Dialog>
      <ConfirmDialog
        title="Delete group"
        open={deletingGroup !== null}
        confirmLabel="Delete group"
        onClose={() => setDeletingGroup(null)}
        onConfirm={async () => {
          await api.del(`/groups/${deletingGroup!.id}`);
          setDeletingGroup(null);
          groups.reload();
        }}
      >
        <p>Delete the group {deletingGroup?.name}? Its members stay users.</p>
      </ConfirmDialog>
    </section>
  );
}
