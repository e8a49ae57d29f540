import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { ActionButton, ErrorBox, Field, submitWith } from '../components/ui';
import type { Building } from '../model';
import { BuildingBody, BuildingDraft, degrees, readBuilding } from './building-input';

const FIELDS = ['name', 'description', 'location.lat', 'location.lng', 'dimensions.width', 'dimensions.length', 'rotation', 'location', 'dimensions'];

/**
 * A building's name, place, size and rotation, typed. Each field is checked here first, in
 * plain words under it; what the server still refuses is shown the same way.
 */
export function BuildingForm({ initial, submitLabel, onSubmit }: { initial?: Building; submitLabel: string; onSubmit: (body: BuildingBody) => Promise<void> }) {
  const [form, setForm] = useState<BuildingDraft>({
    name: initial?.name ?? '',
    description: initial?.description ?? '',
    lat: String(initial?.location.lat ?? ''),
    lng: String(initial?.location.lng ?? ''),
    width: String(initial?.dimensions.width ?? ''),
    length: String(initial?.dimensions.length ?? ''),
    rotation: String(degrees(initial?.rotation ?? 0)),
  });
  const [error, setError] = useState<unknown>(null);
  const set = (key: keyof BuildingDraft) => (e: { currentTarget: HTMLInputElement }) => setForm({ ...form, [key]: e.currentTarget.value });
  const run = async () => {
    setError(null);
    const body = readBuilding(form);
    if (body instanceof ApiError) {
      setError(body);
      return;
    }
    try {
      await onSubmit(body);
    } catch (e) {
      setError(e);
    }
  };
  const err = error instanceof ApiError ? error : null;
  return (
    <form onSubmit={submitWith(run)} noValidate>
      <Field label="Name" name="name" required value={form.name} onInput={set('name')} error={err} />
      <Field label="Description" name="description" value={form.description} onInput={set('description')} error={err} />
      <div class="row">
        <Field label="Latitude (°)" name="location.lat" inputMode="decimal" value={form.lat} onInput={set('lat')} error={err} hint="The centre of the building" />
        <Field label="Longitude (°)" name="location.lng" inputMode="decimal" value={form.lng} onInput={set('lng')} error={err} />
      </div>
      <div class="row">
        <Field label="Width (m)" name="dimensions.width" inputMode="decimal" value={form.width} onInput={set('width')} error={err} />
        <Field label="Length (m)" name="dimensions.length" inputMode="decimal" value={form.length} onInput={set('length')} error={err} />
        <Field label="Rotation (°)" name="rotation" inputMode="decimal" value={form.rotation} onInput={set('rotation')} error={err} hint="Counter-clockwise from east" />
      </div>
      <ErrorBox error={error} fields={FIELDS} />
      <ActionButton kind="primary" onAction={run}>
        {submitLabel}
      </ActionButton>
    </form>
  );
}
