import { api, query } from '../api';
import { useDeviceName } from '../devices/device-names';
import { EventList, EventPage, formatDuration, NEWEST } from './event-list';
import { RulesForm } from './rules-form';
import { ErrorBox, formatTime, Loading, useLoad } from './ui';

interface Occupant {
  device_id: string;
  user_id: string | null;
  visit_id: string;
  entered_at: string;
  dwell_seconds: number;
  exiting: boolean;
}

const LAST_EVENTS = 10;

/**
 * What a fence is doing now: who is inside, its last events and the rules it fires them by.
 * `refreshKey` changes when the map hears an event of this fence, so the lists follow it live.
 */
export function FenceDetails({ fenceId, refreshKey }: { fenceId: string; refreshKey: number }) {
  const occupants = useLoad((s) => api.get<{ data: Occupant[] }>(`/geofences/${fenceId}/occupants`, s), [fenceId, refreshKey]);
  const events = useLoad((s) => api.get<EventPage>(`/geofencing/events${query({ geofence_ids: fenceId, before: NEWEST, limit: LAST_EVENTS })}`, s), [fenceId, refreshKey]);
  const name = useDeviceName();
  return (
    <div class="fence-details">
      <h3>Inside now{occupants.data ? ` (${occupants.data.data.length})` : ''}</h3>
      <ErrorBox error={occupants.error} onRetry={occupants.reload} />
      {!occupants.data && !occupants.error && <Loading what="occupants" />}
      {occupants.data?.data.length === 0 && <p class="muted">Nobody is inside.</p>}
      {occupants.data && occupants.data.data.length > 0 && (
        <ul class="occupants" data-testid="occupants">
          {occupants.data.data.map((o) => (
            <li data-device-id={o.device_id}>
              <strong>{name(o.device_id)}</strong>
              <span class="muted">
                {' '}
                since {formatTime(o.entered_at)} · {formatDuration(o.dwell_seconds)}
                {o.exiting ? ' · leaving' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3>Last events</h3>
      <ErrorBox error={events.error} onRetry={events.reload} />
      {!events.data && !events.error && <Loading what="events" />}
      {events.data && <EventList events={events.data.data} showFence={false} />}
      <RulesForm path={`/geofences/${fenceId}/rules`} scope="fence" />
    </div>
  );
}
