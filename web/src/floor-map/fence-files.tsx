import { useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorBox, errorWords } from '../components/ui';
import type { FloorContext } from './floor-context';
import { fencesToGeoJson, ImportItem, readFenceFile } from './fence-geojson';

/** The floor's geofences to and from a GeoJSON file; each imported feature is created through the API, its answer shown per feature. */
export function FenceFiles({ context }: { context: FloorContext }) {
  const { fences, floor, building } = context;
  const href = useMemo(() => URL.createObjectURL(new Blob([JSON.stringify(fencesToGeoJson(fences), null, 2)], { type: 'application/geo+json' })), [fences]);
  const [results, setResults] = useState<Array<{ name: string; ok: boolean; message: string }> | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div class="fence-files">
      <h2>Geofences as GeoJSON</h2>
      <p>
        <a class="btn plain" href={href} download={`geofences-floor-${floor.id}.geojson`}>
          Export {fences.length} {fences.length === 1 ? 'geofence' : 'geofences'}
        </a>
      </p>
      <label class="upload">
        Import geofences from a GeoJSON file (polygons, named by their <code>name</code> property)
        <input
          type="file"
          accept=".geojson,.json,application/geo+json,application/json"
          disabled={busy}
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            if (!file) return;
            setProblem(null);
            setResults(null);
            const items = readFenceFile(await file.text());
            if (typeof items === 'string') {
              setProblem(items);
              return;
            }
            setBusy(true);
            const out: Array<{ name: string; ok: boolean; message: string }> = [];
            for (const item of items as ImportItem[]) {
              if ('problem' in item) {
                out.push({ name: item.name, ok: false, message: `Feature ${item.index + 1}: ${item.problem}` });
                continue;
              }
              try {
                await api.post('/geofences', { ...item.body, building_id: building.id, floor_id: floor.id });
                out.push({ name: item.name, ok: true, message: 'created' });
              } catch (error) {
                const details = error instanceof ApiError ? error.errors.map((f) => `${f.fields ?? ''} ${f.message}`.trim()).join('; ') : '';
                out.push({ name: item.name, ok: false, message: `${errorWords(error)}${details ? ` (${details})` : ''}` });
              }
            }
            setResults(out);
            setBusy(false);
            await context.reloadFences();
          }}
        />
      </label>
      {busy && (
        <p role="status">
          <span class="spinner" aria-hidden="true" /> Importing…
        </p>
      )}
      {problem && <ErrorBox error={new Error(problem)} />}
      {results && (
        <ul class="import-results" data-testid="import-results" aria-label="Import results">
          {results.map((r) => (
            <li class={r.ok ? 'ok' : 'error'}>
              <strong>{r.name}</strong>: {r.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
