import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, getAll, query } from '../api';
import { EVENT_LABELS, EVENT_TYPES, EventList, EventPage, GeofenceEvent, NEWEST } from '../components/event-list';
import { ActionButton, ErrorBox, Field, Loading, useAction, useLoad } from '../components/ui';
import { openLiveStream, StreamStatus } from '../live-stream';
import type { Building } from '../model';

interface Filters {
  types: string[];
  building_id: string;
  device_ids: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { types: [...EVENT_TYPES], building_id: '', device_ids: '', from: '', to: '' };
const PAGE = 50;
/** Live events kept on screen at most; older ones are a click on "Older events" away. */
const MAX_SHOWN = 2000;

/** datetime-local values are local time; the API wants an instant. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The log's filters as the API names them (the stream takes the same ones). */
function filterParams(f: Filters) {
  return {
    types: f.types.length === EVENT_TYPES.length ? undefined : f.types,
    building_ids: f.building_id || undefined,
    device_ids: f.device_ids
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean),
    from: instant(f.from),
    to: instant(f.to),
  };
}

/**
 * The geofence event log, newest first, paging back in time with the log's cursors, and the
 * events that happen while the page is open arriving on top (the events stream, resumed from
 * the newest event shown, so none falls between the page and the stream).
 */
export function EventsPage() {
  const buildings = useLoad((s) => getAll<Building>('/buildings', s), []);
  const [form, setForm] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [events, setEvents] = useState<GeofenceEvent[]>([]);
  const [olderCursor, setOlderCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [live, setLive] = useState(true);
  const [status, setStatus] = useState<StreamStatus>('stopped');
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const newestSeq = useRef(0);
  const [attempt, setAttempt] = useState(0);

  // The newest page of the log for these filters.
  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    setLoaded(0);
    api.get<EventPage>(`/geofencing/events${query({ ...filterParams(filters), before: NEWEST, limit: PAGE })}`, controller.signal).then(
      (page) => {
        setEvents(page.data);
        setFresh(new Set());
        setOlderCursor(page.has_more ? page.next_cursor : null);
        newestSeq.current = page.data[0]?.seq ?? 0;
        setLoaded((n) => n + 1);
      },
      (e) => (e as Error).name !== 'AbortError' && setError(e),
    );
    return () => controller.abort();
  }, [filters, attempt]);

  // Live on top, from the newest event shown. A `to` in the past has nothing live to add.
  const liveAllowed = !filters.to || new Date(filters.to).getTime() > Date.now();
  useEffect(() => {
    if (!loaded || !live || !liveAllowed) {
      setStatus('stopped');
      return;
    }
    const stream = openLiveStream({
      path: '/geofencing/events/stream',
      params: filterParams(filters),
      events: [...EVENT_TYPES],
      after: String(newestSeq.current),
      onEvent: (_type, data) => {
        const event = data as GeofenceEvent;
        if (event.seq <= newestSeq.current) return;
        newestSeq.current = event.seq;
        setEvents((list) => [event, ...list].slice(0, MAX_SHOWN));
        setFresh((seqs) => new Set([...seqs, event.seq].slice(-50)));
      },
      onStatus: setStatus,
    });
    return () => stream.close();
  }, [loaded, live, liveAllowed]);

  const older = useAction(async () => {
    if (!olderCursor) return;
    const page = await api.get<EventPage>(`/geofencing/events${query({ ...filterParams(filters), before: olderCursor, limit: PAGE })}`);
    setEvents((list) => [...list, ...page.data]);
    setOlderCursor(page.has_more ? page.next_cursor : null);
  });

  const fieldError = error instanceof ApiError ? error : null;
  const statusWords: Record<StreamStatus, string> = {
    connecting: 'Connecting to the live stream…',
    live: 'Live: new events appear on top as they happen.',
    reconnecting: 'Connection lost: reconnecting (nothing will be missed)…',
    stopped: !live
      ? 'Paused: new events are not added until you resume.'
      : error
        ? 'Live updates are off until the event log can be read again.'
        : !liveAllowed
          ? 'Live updates are off: the range you chose has ended.'
          : 'Live updates stopped.',
  };
  return (
    <section>
      <div class="section-head">
        <h1>Events</h1>
        <button type="button" class="btn plain" aria-pressed={live} onClick={() => setLive(!live)}>
          {live ? 'Pause live' : 'Resume live'}
        </button>
      </div>
      <form
        class="filters card"
        aria-label="Event filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...form });
        }}
      >
        <fieldset>
          <legend>Types</legend>
          {EVENT_TYPES.map((type) => (
            <label class="checkbox">
              <input
                type="checkbox"
                checked={form.types.includes(type)}
                onChange={(e) => setForm({ ...form, types: e.currentTarget.checked ? [...form.types, type] : form.types.filter((t) => t !== type) })}
              />{' '}
              {EVENT_LABELS[type]}
            </label>
          ))}
        </fieldset>
        <Field label="Building" name="building_ids" error={fieldError}>
          <select name="building_ids" aria-label="Building" value={form.building_id} onChange={(e) => setForm({ ...form, building_id: e.currentTarget.value })}>
            <option value="">All buildings</option>
            {buildings.data?.map((b) => (
              <option value={String(b.id)}>{b.name}</option>
            ))}
          </select>
        </Field>
        <Field
          label="Devices"
          name="device_ids"
          hint="Ids separated by commas"
          value={form.device_ids}
          error={fieldError}
          onInput={(e) => setForm({ ...form, device_ids: e.currentTarget.value })}
        />
        <Field label="From" name="from" type="datetime-local" value={form.from} error={fieldError} onInput={(e) => setForm({ ...form, from: e.currentTarget.value })} />
        <Field label="To" name="to" type="datetime-local" value={form.to} error={fieldError} onInput={(e) => setForm({ ...form, to: e.currentTarget.value })} />
        <div class="row">
          <button type="submit" class="btn primary">
            Apply filters
          </button>
          <button
            type="button"
            class="btn plain"
            onClick={() => {
              setForm(NO_FILTERS);
              setFilters(NO_FILTERS);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <p class="tail-status" role="status" data-testid="tail-status" data-status={status}>
        <span class={`dot ${status}`} aria-hidden="true" /> {statusWords[status]}
      </p>
      <ErrorBox error={error} fields={['building_ids', 'device_ids', 'from', 'to']} onRetry={() => setAttempt((n) => n + 1)} />
      {!loaded && !error && <Loading what="events" />}
      {loaded > 0 && <EventList events={events} fresh={fresh} />}
      {olderCursor && (
        <div class="more">
          <ActionButton onAction={older.run}>Older events</ActionButton>
          <ErrorBox error={older.error} onRetry={older.run} />
        </div>
      )}
    </section>
  );
}
