import { useState } from 'preact/hooks';
import { api, ApiError, getAll, request } from '../api';
import { ActionButton, CopyButton, Dialog, ErrorBox, Field, Loading, formatTime, submitWith, useAction, useLoad } from '../components/ui';

const EVENT_TYPES = ['geofence.enter', 'geofence.exit', 'geofence.dwell'] as const;

interface Webhook {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  filters: { building_ids: string[]; geofence_ids: string[] };
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
}

interface Delivery {
  id: string;
  message_id: string;
  event_type: string;
  status: 'pending' | 'failed' | 'succeeded' | 'dead';
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  attempt_log: Array<{ attempt: number; started_at: string; duration_ms: number; status_code: number | null; error: string | null }>;
}

export function WebhooksPage() {
  const hooks = useLoad((s) => getAll<Webhook>('/webhooks', s), []);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [open, setOpen] = useState<Webhook | null>(null);
  return (
    <section>
      <div class="section-head">
        <h1>Webhooks</h1>
        <button type="button" class="btn primary" onClick={() => setCreating(true)}>
          New webhook
        </button>
      </div>
      <p class="muted">Events are sent signed (Standard Webhooks: verify the webhook-signature header with the secret) and retried until your endpoint answers 2xx.</p>
      <ErrorBox error={hooks.error} />
      {!hooks.data && !hooks.error && <Loading what="webhooks" />}
      {hooks.data?.length === 0 && <p>No webhooks yet.</p>}
      {hooks.data && hooks.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>URL</th>
              <th>Events</th>
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
                <td>{h.event_types.join(', ')}</td>
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
      )}
      <Dialog title="New webhook" open={creating} onClose={() => setCreating(false)}>
        <WebhookForm
          onCreated={(value) => {
            setCreating(false);
            setSecret({ title: 'Signing secret', value });
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
            onChanged={hooks.reload}
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

function WebhookForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<string[]>([...EVENT_TYPES]);
  const { error, run } = useAction(async () => {
    const created = await api.post<{ secret: string }>('/webhooks', { url, description, event_types: types });
    onCreated(created.secret);
  });
  return (
    <form
      onSubmit={submitWith(run)}
    >
      <Field label="URL" name="url" type="url" placeholder="https://example.com/hooks/cartograph" value={url} onInput={(e) => setUrl(e.currentTarget.value)} error={error as ApiError} />
      <Field label="Description" name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} error={error as ApiError} />
      <fieldset>
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label class="checkbox">
            <input type="checkbox" checked={types.includes(type)} onChange={(e) => setTypes(e.currentTarget.checked ? [...types, type] : types.filter((t) => t !== type))} /> {type}
          </label>
        ))}
      </fieldset>
      <ErrorBox error={error} fields={['url', 'description']} />
      <ActionButton kind="primary" onAction={run}>
        Create webhook
      </ActionButton>
    </form>
  );
}

function WebhookDetail({ hook, onChanged, onSecret, onDeleted }: { hook: Webhook; onChanged: () => void; onSecret: (s: string) => void; onDeleted: () => void }) {
  const list = useLoad((s) => api.get<{ data: Delivery[] }>(`/webhooks/${hook.id}/deliveries?size=50`, s), [hook.id]);
  const [enabled, setEnabled] = useState(hook.enabled);
  // Each button's failure is shown in this panel.
  const { error, run: attempt } = useAction((action: () => Promise<void>) => action());
  const guard = (action: () => Promise<void>) => () => attempt(action);
  return (
    <div class="webhook-detail">
      <p>
        <code>{hook.url}</code>
      </p>
      {hook.previous_secret_expires_at && <p class="muted">The previous secret also signs until {formatTime(hook.previous_secret_expires_at)}.</p>}
      <ErrorBox error={error} />
      <div class="row">
        <ActionButton
          onAction={guard(async () => {
            await request(`/webhooks/${hook.id}/test`, { method: 'POST' });
            setTimeout(list.reload, 800);
          })}
        >
          Send a test event
        </ActionButton>
        <ActionButton
          onAction={guard(async () => {
            await api.put(`/webhooks/${hook.id}`, { enabled: !enabled });
            setEnabled(!enabled);
            onChanged();
          })}
        >
          {enabled ? 'Disable' : 'Enable'}
        </ActionButton>
        <ActionButton onAction={guard(async () => onSecret((await api.post<{ secret: string }>(`/webhooks/${hook.id}/rotate_secret`)).secret))}>Rotate secret</ActionButton>
        <ActionButton
          kind="danger"
          onAction={guard(async () => {
            await api.del(`/webhooks/${hook.id}`);
            onDeleted();
          })}
        >
          Delete
        </ActionButton>
      </div>
      <ReplayForm hookId={hook.id} onReplayed={() => setTimeout(list.reload, 800)} />
      <div class="section-head">
        <h3>Deliveries</h3>
        <button type="button" class="btn plain" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={list.error} />
      {!list.data && !list.error && <Loading what="deliveries" />}
      {list.data?.data.length === 0 && <p>No deliveries yet.</p>}
      <ul class="deliveries">
        {list.data?.data.map((d) => (
          <li class={`delivery ${d.status}`} data-delivery-status={d.status}>
            <strong>{d.event_type}</strong> · {d.status} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'} · {formatTime(d.created_at)}
            {d.next_attempt_at && d.status !== 'succeeded' && <span class="muted"> · next {formatTime(d.next_attempt_at)}</span>}
            <ol>
              {d.attempt_log.map((a) => (
                <li>
                  {formatTime(a.started_at)}: {a.status_code ?? 'no answer'} in {a.duration_ms} ms{a.error ? ` (${a.error.slice(0, 120)})` : ''}
                </li>
              ))}
            </ol>
            {(d.status === 'dead' || d.status === 'failed') && (
              <ActionButton
                onAction={guard(async () => {
                  await request(`/webhooks/${hook.id}/deliveries/${d.id}/retry`, { method: 'POST' });
                  setTimeout(list.reload, 800);
                })}
              >
                Retry now
              </ActionButton>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** datetime-local values are local time; the API wants an instant. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * Sends past events to the endpoint again (contract 7.5): those of a time range that the webhook
 * subscribes to, or particular events by id (from the event log), with their original webhook-id.
 */
function ReplayForm({ hookId, onReplayed }: { hookId: string; onReplayed: () => void }) {
  const [by, setBy] = useState<'range' | 'ids'>('range');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [ids, setIds] = useState('');
  const [result, setResult] = useState<{ events: number; enqueued: number; in_flight: number } | null>(null);
  const { error, run } = useAction(async () => {
    setResult(null);
    const body = by === 'range' ? { from: instant(from), to: instant(to) } : { event_ids: ids.split(/[\s,]+/).filter(Boolean) };
    setResult(await api.post<{ events: number; enqueued: number; in_flight: number }>(`/webhooks/${hookId}/replay`, body));
    onReplayed();
  });
  const apiError = error instanceof ApiError ? error : null;
  // Each bad id is named `event_ids[i]`: shown under the list, with the id it names.
  const idErrors = apiError?.errors.filter((e) => e.fields?.startsWith('event_ids')) ?? [];
  const eventIds = ids.split(/[\s,]+/).filter(Boolean);
  return (
    <form class="replay" aria-label="Replay events" onSubmit={submitWith(run)}>
      <h3>Replay</h3>
      <p class="muted">Send past events again, with their original webhook-id, so your endpoint can tell a replay from a new event.</p>
      <fieldset>
        <legend>Which events</legend>
        <label class="radio">
          <input type="radio" name="replay-by" checked={by === 'range'} onChange={() => setBy('range')} /> The ones this webhook subscribes to, in a time range
        </label>
        <label class="radio">
          <input type="radio" name="replay-by" checked={by === 'ids'} onChange={() => setBy('ids')} /> Particular events, by id
        </label>
      </fieldset>
      {by === 'range' ? (
        <div class="row">
          <Field label="From" name="from" type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} error={apiError} />
          <Field label="To" name="to" type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} error={apiError} />
        </div>
      ) : (
        <Field label="Event ids" name="event_ids" error={apiError} hint="evt_… ids from the event log, separated by commas, spaces or lines">
          <textarea name="event_ids" aria-label="Event ids" rows={3} value={ids} aria-invalid={idErrors.length ? 'true' : undefined} onInput={(e) => setIds(e.currentTarget.value)} />
          {idErrors.length > 0 && (
            <ul class="error" role="alert">
              {idErrors.map((e) => {
                const index = /\[(\d+)\]/.exec(e.fields ?? '')?.[1];
                return <li>{index !== undefined && eventIds[Number(index)] ? `${eventIds[Number(index)]}: ${e.message}` : e.message}</li>;
              })}
            </ul>
          )}
        </Field>
      )}
      <ErrorBox error={error} fields={['from', 'to', ...idErrors.map((e) => e.fields!)]} />
      {result && (
        <p class="notice" role="status" data-testid="replay-result">
          {result.events} {result.events === 1 ? 'event' : 'events'} to replay: {result.enqueued} {result.enqueued === 1 ? 'delivery' : 'deliveries'} queued
          {result.in_flight ? `, ${result.in_flight} already being sent` : ''}.
        </p>
      )}
      <ActionButton kind="primary" onAction={run}>
        Replay
      </ActionButton>
    </form>
  );
}
