import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ActionButton, ErrorBox, Field, submitWith, useAction } from '../components/ui';

/** datetime-local values are local time; the API wants an instant. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * Sends past events to the endpoint again (contract 7.5): those of a time range that the webhook
 * subscribes to, or particular events by id (from the event log), with their original webhook-id.
 */
export function ReplayForm({ hookId, onReplayed }: { hookId: string; onReplayed: () => void }) {
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
          <textarea
            name="event_ids"
            aria-label="Event ids"
            rows={3}
            value={ids}
            aria-invalid={idErrors.length ? 'true' : undefined}
            onInput={(e) => setIds(e.currentTarget.value)}
          />
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
