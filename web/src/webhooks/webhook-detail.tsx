import { useDeviceName } from '../devices/device-names';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, request } from '../api';
import type { GeofenceEvent } from '../components/event-list';
import { ActionButton, ErrorBox, formatTime, Loading, useAction, useLoad } from '../components/ui';
import { ReplayForm } from './replay-form';
import type { Webhook } from './webhook-form';

interface Delivery {
  id: string;
  message_id: string;
  event_type: string;
  status: 'pending' | 'failed' | 'succeeded' | 'dead';
  attempts: number;
  next_attempt_at: string | null;
  created_at: string;
  attempt_log: Array<{ attempt: number; started_at: string; duration_ms: number; status_code: number | null; error: string | null }>;
}

const REFRESH_MS = 5000;

/** A webhook's deliveries (refreshed while open) with the device and fence each was about, and the replay of past events; its actions are on its row of the list. */
export function WebhookDetail({ hook, isAdmin }: { hook: Webhook; isAdmin: boolean }) {
  const [tick, setTick] = useState(0);
  const list = useLoad((s) => api.get<{ data: Delivery[] }>(`/webhooks/${hook.id}/deliveries?size=50`, s), [hook.id, tick]);
  // Each retry's failure is shown in this panel.
  const { error, run: attempt } = useAction((action: () => Promise<void>) => action());
  const guard = (action: () => Promise<void>) => () => attempt(action);
  const refreshSoon = () => setTimeout(() => setTick((n) => n + 1), 800);
  useEffect(() => {
    const timer = setInterval(() => !document.hidden && setTick((n) => n + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div class="webhook-detail">
      <p>
        <code>{hook.url}</code>
      </p>
      {hook.previous_secret_expires_at && <p class="muted">The previous secret also signs until {formatTime(hook.previous_secret_expires_at)}.</p>}
      <ErrorBox error={error} />
      {isAdmin && <ReplayForm hookId={hook.id} onReplayed={refreshSoon} />}
      <div class="section-head">
        <h3>Deliveries</h3>
        <button type="button" class="btn plain" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </button>
      </div>
      <p class="muted small">Refreshed every {REFRESH_MS / 1000} s.</p>
      <ErrorBox error={list.error} onRetry={() => setTick((n) => n + 1)} />
      {!list.data && !list.error && <Loading what="deliveries" />}
      {list.data?.data.length === 0 && <p>No deliveries yet.</p>}
      <ul class="deliveries">
        {list.data?.data.map((d) => (
          <li class={`delivery ${d.status}`} data-delivery-status={d.status} data-delivery-id={d.id}>
            <strong>{d.event_type}</strong> · {d.status} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'} · {formatTime(d.created_at)}
            {d.next_attempt_at && d.status !== 'succeeded' && <span class="muted"> · next {formatTime(d.next_attempt_at)}</span>}
            <EventOf messageId={d.message_id} />
            <ol>
              {d.attempt_log.map((a) => (
                <li>
                  {formatTime(a.started_at)}: {a.status_code ?? 'no answer'} in {a.duration_ms} ms{a.error ? ` (${a.error.slice(0, 120)})` : ''}
                </li>
              ))}
            </ol>
            {isAdmin && (d.status === 'dead' || d.status === 'failed') && (
              <ActionButton
                onAction={guard(async () => {
                  await request(`/webhooks/${hook.id}/deliveries/${d.id}/retry`, { method: 'POST' });
                  refreshSoon();
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

/** Events do not change: each is read once per page (the delivery's message id is the event id). */
const events = new Map<string, Promise<GeofenceEvent | null>>();

/** Which device and fence a delivery was about, from the event log; a test delivery has no event there. */
function EventOf({ messageId }: { messageId: string }) {
  const [event, setEvent] = useState<GeofenceEvent | null | undefined>(undefined);
  const test = messageId.startsWith('msg_test_');
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    if (test) return;
    let read = events.get(messageId);
    if (!read) {
      read = api.get<GeofenceEvent>(`/geofencing/events/${encodeURIComponent(messageId)}`).catch(() => null);
      events.set(messageId, read);
    }
    void read.then((e) => mounted.current && setEvent(e));
    return () => {
      mounted.current = false;
    };
  }, [messageId]);
  const name = useDeviceName();
  if (test) return <div class="muted delivery-about">A test event</div>;
  if (event === undefined) return null;
  if (event === null) return <div class="muted delivery-about">The event is no longer in the log</div>;
  return (
    <div class="delivery-about" data-testid="delivery-about">
      device <strong>{name(event.device_id)}</strong> · geofence <strong>{event.geofence.name}</strong>
    </div>
  );
}
