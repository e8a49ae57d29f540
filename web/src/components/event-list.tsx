import { useDeviceName } from '../devices/device-names';
import { formatTime } from './ui';

/** A geofence event as the log, the stream and the webhooks carry it (contract 7.3). */
export interface GeofenceEvent {
  id: string;
  seq: number;
  type: 'geofence.enter' | 'geofence.exit' | 'geofence.dwell';
  occurred_at: string;
  detected_at: string | null;
  building_id: string;
  floor_id: number;
  geofence: { id: string; name: string; code: string };
  device_id: string;
  user_id: string | null;
  visit_id: string;
  position: { lat: number; lng: number; accuracy: number | null; time: string } | null;
  classification: string;
  dwell_seconds: number;
  reason: string;
}

export interface EventPage {
  data: GeofenceEvent[];
  next_cursor: string | null;
  has_more: boolean;
}

export const EVENT_TYPES = ['geofence.enter', 'geofence.exit', 'geofence.dwell'] as const;
export const EVENT_LABELS: Record<string, string> = { 'geofence.enter': 'Enter', 'geofence.exit': 'Exit', 'geofence.dwell': 'Dwell' };
const REASONS: Record<string, string> = {
  position: '',
  timeout: 'no fix for a while',
  fence_changed: 'the fence was changed',
  fence_deleted: 'the fence was deleted',
  fence_created: 'the fence was created around it',
};

/** Cursors are seqs: `before` with the largest cursor the API accepts reads the newest events first. */
export const NEWEST = '999999999999999';

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

/** Events newest first; `fresh` marks the ones that just arrived live. */
export function EventList({ events, fresh, showFence = true }: { events: GeofenceEvent[]; fresh?: ReadonlySet<number>; showFence?: boolean }) {
  const name = useDeviceName();
  if (events.length === 0) return <p class="muted">No events.</p>;
  return (
    <ol class="events" aria-label="Geofence events">
      {events.map((e) => (
        <li class={`event ${e.type.replace('geofence.', '')}${fresh?.has(e.seq) ? ' fresh' : ''}`} data-seq={e.seq} data-event-type={e.type}>
          <span class="event-type">{EVENT_LABELS[e.type] ?? e.type}</span>
          <span class="event-what">
            {showFence && <strong>{e.geofence.name}</strong>} <span>device {name(e.device_id)}</span>
            {e.type === 'geofence.dwell' || (e.type === 'geofence.exit' && e.dwell_seconds > 0) ? <span class="muted"> · after {formatDuration(e.dwell_seconds)}</span> : null}
            {REASONS[e.reason] ? <span class="muted"> · {REASONS[e.reason]}</span> : null}
          </span>
          <time class="muted" dateTime={e.occurred_at}>
            {formatTime(e.occurred_at)}
          </time>
        </li>
      ))}
    </ol>
  );
}
