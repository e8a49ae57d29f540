import { useState } from 'preact/hooks';
import { ApiError, getAll } from '../api';
import { ActionButton, ErrorBox, Field, submitWith, useAction, useLoad } from '../components/ui';
import type { Building, Geofence } from '../model';

export const EVENT_TYPES = ['geofence.enter', 'geofence.exit', 'geofence.dwell'] as const;

export interface Webhook {
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

export interface WebhookBody {
  url: string;
  description: string;
  event_types: string[];
  filters: { building_ids: string[]; geofence_ids: string[] };
}

/** Where a webhook sends, which events, and only those of some buildings or fences (none chosen: all). */
export function WebhookForm({
  initial,
  buildings,
  submitLabel,
  onSubmit,
}: {
  initial?: Webhook;
  buildings: Building[];
  submitLabel: string;
  onSubmit: (body: WebhookBody) => Promise<void>;
}) {
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [types, setTypes] = useState<string[]>(initial?.event_types ?? [...EVENT_TYPES]);
  const [buildingIds, setBuildingIds] = useState<string[]>(initial?.filters.building_ids ?? []);
  const [fenceIds, setFenceIds] = useState<string[]>(initial?.filters.geofence_ids ?? []);
  const fences = useLoad((s) => getAll<Geofence>('/geofences', s), []);
  const { error, run } = useAction(() => onSubmit({ url, description, event_types: types, filters: { building_ids: buildingIds, geofence_ids: fenceIds } }));
  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));
  const shownFences = (fences.data ?? []).filter((f) => buildingIds.length === 0 || buildingIds.includes(String(f.building_id)));
  return (
    <form onSubmit={submitWith(run)} aria-label="Webhook settings">
      <Field
        label="URL"
        name="url"
        type="url"
        placeholder="https://example.com/hooks/cartograph"
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
        error={error as ApiError}
      />
      <Field label="Description" name="description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} error={error as ApiError} />
      <fieldset>
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label class="checkbox">
            <input type="checkbox" checked={types.includes(type)} onChange={(e) => setTypes(toggle(types, type, e.currentTarget.checked))} /> {type}
          </label>
        ))}
      </fieldset>
      <fieldset class="filter-list">
        <legend>Only these buildings (none checked: every building)</legend>
        {buildings.map((b) => (
          <label class="checkbox">
            <input type="checkbox" checked={buildingIds.includes(String(b.id))} onChange={(e) => setBuildingIds(toggle(buildingIds, String(b.id), e.currentTarget.checked))} />{' '}
            {b.name}
          </label>
        ))}
      </fieldset>
      <fieldset class="filter-list">
        <legend>Only these geofences (none checked: every geofence)</legend>
        <ErrorBox error={fences.error} onRetry={fences.reload} />
        {shownFences.length === 0 && fences.data && <p class="muted">No geofence{buildingIds.length ? ' in these buildings' : ''}.</p>}
        {shownFences.map((f) => (
          <label class="checkbox">
            <input type="checkbox" checked={fenceIds.includes(f.id)} onChange={(e) => setFenceIds(toggle(fenceIds, f.id, e.currentTarget.checked))} /> {f.name}
          </label>
        ))}
      </fieldset>
      <ErrorBox error={error} fields={['url', 'description', 'event_types']} />
      <ActionButton kind="primary" onAction={run}>
        {submitLabel}
      </ActionButton>
    </form>
  );
}
