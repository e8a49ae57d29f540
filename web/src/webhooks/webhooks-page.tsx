import { useState } from 'preact/hooks';
import { api, ApiError, getAll } from '../api';
import { ConfirmDialog, CopyButton, Dialog, ErrorBox, formatTime, Loading, useAction, useLoad } from '../components/ui';
import type { Building } from '../model';
import { WebhookActions } from './webhook-actions';
import './webhooks.css';
import { WebhookDetail } from './webhook-detail';
import { Webhook, WebhookForm } from './webhook-form';

const TYPE_WORDS: Record<string, string> = { 'geofence.enter': 'enter', 'geofence.exit': 'exit', 'geofence.dwell': 'dwell' };

/**
 * The organization's webhooks: where events go, which ones, filtered to which buildings and
 * fences, and what happened to each delivery. Administrators change them from the list
 * (edit, test, disable, rotate the secret, delete); others see them.
 */
export function WebhooksPage({ isAdmin }: { isAdmin: boolean }) {
  const hooks = useLoad((s) => getAll<Webhook>('/webhooks', s), []);
  const buildings = useLoad((s) => getAll<Building>('/buildings', s), []);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [open, setOpen] = useState<Webhook | null>(null);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Each row's action: its failure, or what it did, is shown above the list.
  const action = useAction(async (run: () => Promise<void>) => {
    setDone(null);
    await run();
  });
  const refused = hooks.error instanceof ApiError && hooks.error.status === 403;
  const buildingName = (id: string) => buildings.data?.find((b) => String(b.id) === id)?.name ?? `building ${id}`;
  return (
    <section>
      <div class="section-head">
        <h1>Webhooks</h1>
        {isAdmin && (
          <button type="button" class="btn primary" onClick={() => setCreating(true)}>
            New webhook
          </button>
        )}
      </div>
      <p class="muted">Events are sent signed (Standard Webhooks: verify the webhook-signature header with the secret) and retried until your endpoint answers 2xx.</p>
      {!isAdmin && !refused && <p class="notice">Only administrators create and change webhooks; you can see them and their deliveries.</p>}
      {refused ? <p class="notice">Webhooks are managed by your organization's administrators.</p> : <ErrorBox error={hooks.error} onRetry={hooks.reload} />}
      <ErrorBox error={action.error} />
      {done && (
        <p class="notice" role="status" data-testid="webhook-done">
          {done}
        </p>
      )}
      {!hooks.data && !hooks.error && <Loading what="webhooks" />}
      {hooks.data?.length === 0 && <p>No webhooks yet.</p>}
      {hooks.data && hooks.data.length > 0 && (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th>Webhook</th>
                <th>Events</th>
                <th>Filters</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {hooks.data.map((h) => (
                <tr data-webhook-id={h.id}>
                  <td class="webhook-main">
                    <code>{h.url}</code>
                    {h.description && <div class="muted">{h.description}</div>}
                    <div class="row webhook-actions">
                      {isAdmin && (
                        <WebhookActions
                          hook={h}
                          attempt={action.run}
                          onEdit={() => setEditing(h)}
                          onDelete={() => setDeleting(h)}
                          onChanged={(changed) => {
                            setDone(`${changed.enabled ? 'Enabled' : 'Disabled'}: ${changed.url}`);
                            hooks.reload();
                          }}
                          onTested={() => setDone(`A test event is on its way to ${h.url}: its delivery is under Deliveries.`)}
                          onSecret={(value) => {
                            setSecret({ title: 'New signing secret', value });
                            hooks.reload();
                          }}
                        />
                      )}
                      <button type="button" class="btn plain" onClick={() => setOpen(h)}>
                        Deliveries
                      </button>
                    </div>
                  </td>
                  <td>{h.event_types.map((t) => TYPE_WORDS[t] ?? t).join(', ')}</td>
                  <td>
                    {h.filters.building_ids.length === 0 && h.filters.geofence_ids.length === 0
                      ? 'all'
                      : [h.filters.building_ids.map(buildingName).join(', '), h.filters.geofence_ids.length ? `${h.filters.geofence_ids.length} geofence(s)` : '']
                          .filter(Boolean)
                          .join('; ')}
                  </td>
                  <td>
                    {h.enabled ? 'Enabled' : h.disabled_reason === 'endpoint_gone' ? 'Disabled: the endpoint answered 410 Gone' : 'Disabled'}
                    {h.previous_secret_expires_at && <div class="muted">The previous secret also signs until {formatTime(h.previous_secret_expires_at)}.</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog title="New webhook" open={creating} onClose={() => setCreating(false)}>
        <WebhookForm
          buildings={buildings.data ?? []}
          submitLabel="Create webhook"
          onSubmit={async (body) => {
            const created = await api.post<{ secret: string }>('/webhooks', body);
            setCreating(false);
            setSecret({ title: 'Signing secret', value: created.secret });
            hooks.reload();
          }}
        />
      </Dialog>
      <Dialog title="Edit webhook" open={editing !== null} onClose={() => setEditing(null)}>
        {editing && (
          <WebhookForm
            initial={editing}
            buildings={buildings.data ?? []}
            submitLabel="Save webhook"
            onSubmit={async (body) => {
              const saved = await api.put<Webhook>(`/webhooks/${editing.id}`, body);
              setEditing(null);
              setDone(`Saved: ${saved.body.url}`);
              hooks.reload();
            }}
          />
        )}
      </Dialog>
      <ConfirmDialog
        title="Delete webhook"
        open={deleting !== null}
        confirmLabel="Delete webhook"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await api.del(`/webhooks/${deleting!.id}`);
          setDone(`Deleted the webhook to ${deleting!.url}.`);
          setDeleting(null);
          hooks.reload();
        }}
      >
        <p>Delete the webhook to {deleting?.url}? Its pending deliveries are not sent.</p>
      </ConfirmDialog>
      <Dialog title={secret?.title ?? 'Signing secret'} open={secret !== null} onClose={() => setSecret(null)}>
        {secret && (
          <div>
            <p>Copy it now: it is shown this once. Your endpoint verifies each delivery with it.</p>
            <p class="key-line">
              <code data-testid="webhook-secret">{secret.value}</code> <CopyButton text={secret.value} />
            </p>
            <button type="button" class="btn primary" onClick={() => setSecret(null)}>
              Done
            </button>
          </div>
        )}
      </Dialog>
      <Dialog title="Webhook deliveries" open={open !== null} onClose={() => setOpen(null)}>
        {open && <WebhookDetail hook={open} isAdmin={isAdmin} />}
      </Dialog>
    </section>
  );
}
