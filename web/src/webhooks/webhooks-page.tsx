import { useState } from 'preact/hooks';
import { api, ApiError, getAll } from '../api';
import { CopyButton, Dialog, ErrorBox, Loading, useLoad } from '../components/ui';
import type { Building } from '../model';
import { WebhookDetail } from './webhook-detail';
import { Webhook, WebhookForm } from './webhook-form';

const TYPE_WORDS: Record<string, string> = { 'geofence.enter': 'enter', 'geofence.exit': 'exit', 'geofence.dwell': 'dwell' };

/**
 * The organization's webhooks: where events go, which ones, filtered to which buildings and
 * fences, and what happened to each delivery. Administrators change them; others see them.
 */
export function WebhooksPage({ isAdmin }: { isAdmin: boolean }) {
  const hooks = useLoad((s) => getAll<Webhook>('/webhooks', s), []);
  const buildings = useLoad((s) => getAll<Building>('/buildings', s), []);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [open, setOpen] = useState<Webhook | null>(null);
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
      {!hooks.data && !hooks.error && <Loading what="webhooks" />}
      {hooks.data?.length === 0 && <p>No webhooks yet.</p>}
      {hooks.data && hooks.data.length > 0 && (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>Filters</th>
                <th>State</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {hooks.data.map((h) => (
                <tr data-webhook-id={h.id}>
                  <td>
                    <code>{h.url}</code>
                    {h.description && <div class="muted">{h.description}</div>}
                  </td>
                  <td>{h.event_types.map((t) => TYPE_WORDS[t] ?? t).join(', ')}</td>
                  <td>
                    {h.filters.building_ids.length === 0 && h.filters.geofence_ids.length === 0
                      ? 'all'
                      : [h.filters.building_ids.map(buildingName).join(', '), h.filters.geofence_ids.length ? `${h.filters.geofence_ids.length} geofence(s)` : ''].filter(Boolean).join('; ')}
                  </td>
                  <td>{h.enabled ? 'Enabled' : h.disabled_reason === 'endpoint_gone' ? 'Disabled: the endpoint answered 410 Gone' : 'Disabled'}</td>
                  <td>
                    <button type="button" class="btn plain" onClick={() => setOpen(h)}>
                      Deliveries
                    </button>
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
      <Dialog title="Signing secret" open={secret !== null} onClose={() => setSecret(null)}>
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
      <Dialog title="Webhook" open={open !== null} onClose={() => setOpen(null)}>
        {open && (
          <WebhookDetail
            hook={open}
            isAdmin={isAdmin}
            buildings={buildings.data ?? []}
            onChanged={(changed) => {
              if (changed) setOpen(changed);
              hooks.reload();
            }}
            onSecret={(value) => setSecret({ title: 'New signing secret', value })}
            onDeleted={() => {
              setOpen(null);
              hooks.reload();
            }}
          />
        )}
      </Dialog>
    </section>
  );
}
