import * as L from 'leaflet';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, query, request } from '../api';
import { ActionButton, ConfirmDialog, ErrorBox, Field, Loading, submitWith, useAction, useLoad } from '../components/ui';
import { readNumber } from '../building-setup/building-input';
import { toFloorMetres } from '../geo';
import { type FloorContext, useFloorLayerGroup } from './floor-context';
import { GatewaysSection } from './gateways-section';
import { useMapPick } from './use-map-pick';

interface Transmitter {
  id: number;
  floor_id: number;
  lat: number;
  lng: number;
  x: number;
  y: number;
  bssid?: string;
  ssid?: string | null;
  frequency?: number | null;
  uuid?: string;
  major?: number;
  minor?: number;
  tx_power?: number | null;
}
interface Infrastructure {
  wifi: Transmitter[];
  ble: Transmitter[];
}
type Kind = 'wifi' | 'ble';
interface Draft {
  kind: Kind;
  id?: number;
  lngLat?: [number, number];
  fields: Record<string, string>;
}

const WORDS: Record<Kind, string> = { wifi: 'Access point', ble: 'Beacon' };

/**
 * Wifi access points and BLE beacons of the floor: placed by a click, edited, removed; and the
 * building's whole set as a CSV file out and in (an import that the API refuses names each line).
 */
export function InfrastructureEditor({ context }: { context: FloorContext }) {
  const { building, floor } = context;
  const list = useLoad((signal) => api.get<Infrastructure>(`/infrastructure${query({ building_id: building.id, floor_id: floor.id })}`, signal), [building.id, floor.id]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [placing, setPlacing] = useState(false);
  const [removing, setRemoving] = useState<{ kind: Kind; item: Transmitter } | null>(null);

  const drawn = useFloorLayerGroup(context);
  useEffect(() => {
    if (!drawn) return;
    drawn.clearLayers();
    const all = list.data ? [...list.data.wifi.map((t) => ({ kind: 'wifi', t })), ...list.data.ble.map((t) => ({ kind: 'ble', t }))] : [];
    for (const { kind, t } of all) {
      drawn.addLayer(
        L.circleMarker([t.lat, t.lng], {
          pane: 'floor',
          radius: 6,
          color: '#fff',
          weight: 2,
          fillColor: kind === 'wifi' ? '#8e44ad' : '#16a085',
          fillOpacity: 1,
          interactive: false,
        }),
      );
    }
  }, [list.data, drawn]);

  const pick = useCallback(
    (lngLat: [number, number]) => {
      const { x, y } = toFloorMetres(building, lngLat);
      setDraft((d) => d && { ...d, lngLat, fields: { ...d.fields, x: String(x), y: String(y) } });
      setPlacing(false);
    },
    [building],
  );
  useMapPick(context, placing, pick);

  const save = useAction(async () => {
    if (!draft) return;
    const f = draft.fields;
    const num = (key: string) => (f[key]?.trim() ? readNumber(f[key]) : null);
    // Where it is, in floor metres: from a click on the map, or typed (the keyboard's way).
    const x = num('x');
    const y = num('y');
    const body: Record<string, unknown> = { floor_id: floor.id, ...(x !== null && y !== null && { x, y }) };
    if (!draft.id && (x === null || y === null)) {
      throw new ApiError(422, 'validation_failed', 'Click on the map where it is, or type x and y.', [
        { fields: 'x', message: 'Click on the map where it is, or type x and y in metres.' },
      ]);
    }
    if (draft.kind === 'wifi') Object.assign(body, { bssid: f.bssid ?? '', ssid: f.ssid || null, frequency: num('frequency') });
    else Object.assign(body, { uuid: f.uuid ?? '', major: num('major'), minor: num('minor'), tx_power: num('tx_power') });
    if (draft.id) await request(`/infrastructure/${draft.kind}/${draft.id}`, { method: 'PUT', body });
    else await api.post(`/infrastructure/${draft.kind}`, body);
    setDraft(null);
    list.reload();
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const set = (key: string) => (e: { currentTarget: HTMLInputElement }) => setDraft(draft && { ...draft, fields: { ...draft.fields, [key]: e.currentTarget.value } });

  return (
    <div class="infrastructure-editor">
      <h2>Beacons and access points</h2>
      <ErrorBox error={list.error} onRetry={list.reload} />
      {!list.data && !list.error && <Loading what="beacons and access points" />}
      {!draft && (
        <div class="row">
          {(['wifi', 'ble'] as const).map((kind) => (
            <button
              type="button"
              class="btn primary"
              onClick={() => {
                setDraft({ kind, fields: {} });
                setPlacing(true);
              }}
            >
              Add {WORDS[kind].toLowerCase()}
            </button>
          ))}
        </div>
      )}
      {draft && (
        <form class="transmitter-form" aria-label={`${WORDS[draft.kind]} details`} onSubmit={submitWith(save.run)} noValidate>
          <h3>
            {draft.id ? 'Edit' : 'New'} {WORDS[draft.kind].toLowerCase()}
          </h3>
          <p class={placing ? 'notice' : 'muted'} role="status">
            {placing ? 'Click on the map where it is.' : draft.lngLat ? 'Placed. Click “Place again” to move it.' : 'It stays where it is.'}
          </p>
          <div class="row">
            <Field label="x (m)" name="x" inputMode="decimal" value={draft.fields.x ?? ''} onInput={set('x')} error={err} />
            <Field label="y (m)" name="y" inputMode="decimal" value={draft.fields.y ?? ''} onInput={set('y')} error={err} />
          </div>
          {draft.kind === 'wifi' ? (
            <>
              <Field label="BSSID" name="bssid" value={draft.fields.bssid ?? ''} placeholder="aa:bb:cc:dd:ee:ff" onInput={set('bssid')} error={err} />
              <Field label="SSID" name="ssid" value={draft.fields.ssid ?? ''} onInput={set('ssid')} error={err} />
              <Field label="Frequency (MHz)" name="frequency" inputMode="numeric" value={draft.fields.frequency ?? ''} onInput={set('frequency')} error={err} />
            </>
          ) : (
            <>
              <Field label="UUID" name="uuid" value={draft.fields.uuid ?? ''} onInput={set('uuid')} error={err} />
              <div class="row">
                <Field label="Major" name="major" inputMode="numeric" value={draft.fields.major ?? ''} onInput={set('major')} error={err} />
                <Field label="Minor" name="minor" inputMode="numeric" value={draft.fields.minor ?? ''} onInput={set('minor')} error={err} />
                <Field label="TX power (dBm)" name="tx_power" inputMode="numeric" value={draft.fields.tx_power ?? ''} onInput={set('tx_power')} error={err} />
              </div>
            </>
          )}
          <ErrorBox error={save.error} fields={['x', 'y', 'bssid', 'ssid', 'frequency', 'uuid', 'major', 'minor', 'tx_power']} />
          <div class="row">
            <ActionButton kind="primary" onAction={save.run}>
              Save
            </ActionButton>
            <button type="button" class="btn plain" onClick={() => setPlacing(true)}>
              Place again
            </button>
            <button
              type="button"
              class="btn plain"
              onClick={() => {
                setDraft(null);
                setPlacing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      {list.data && (
        <ul class="plain-list transmitters">
          {(['wifi', 'ble'] as const).flatMap((kind) =>
            list.data![kind].map((t) => (
              <li data-transmitter={`${kind}-${t.id}`}>
                <span class={`kind ${kind}`}>{WORDS[kind]}</span> {kind === 'wifi' ? `${t.bssid}${t.ssid ? ` (${t.ssid})` : ''}` : `${t.uuid} ${t.major}/${t.minor}`}
                <button
                  type="button"
                  class="btn plain"
                  onClick={() =>
                    setDraft({
                      kind,
                      id: t.id,
                      fields: Object.fromEntries(
                        ['bssid', 'ssid', 'frequency', 'uuid', 'major', 'minor', 'tx_power', 'x', 'y'].map((k) => [k, String((t as unknown as Record<string, unknown>)[k] ?? '')]),
                      ),
                    })
                  }
                >
                  Edit
                </button>
                <button type="button" class="btn plain" onClick={() => setRemoving({ kind, item: t })}>
                  Remove
                </button>
              </li>
            )),
          )}
        </ul>
      )}
      <CsvTransfer buildingId={building.id} onImported={list.reload} />
      <GatewaysSection context={context} />
      <ConfirmDialog
        title="Remove"
        open={removing !== null}
        confirmLabel="Remove"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          await api.del(`/infrastructure/${removing!.kind}/${removing!.item.id}`);
          setRemoving(null);
          list.reload();
        }}
      >
        <p>Remove this {removing && WORDS[removing.kind].toLowerCase()}? Positioning by scans stops using it.</p>
      </ConfirmDialog>
    </div>
  );
}

/** The building's transmitters as a CSV file (the API's own format) and back; a refused import lists the API's reason for each line. */
function CsvTransfer({ buildingId, onImported }: { buildingId: number; onImported: () => void }) {
  const [result, setResult] = useState<string | null>(null);
  const download = useAction(async () => {
    const r = await request<string>(`/infrastructure${query({ building_id: buildingId })}`, { headers: { Accept: 'text/csv' } });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([r.body], { type: 'text/csv' }));
    link.download = `infrastructure-${buildingId}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  });
  const upload = useAction(async (file: File) => {
    setResult(null);
    const r = await request<{ wifi: unknown[]; ble: unknown[] }>(`/infrastructure${query({ building_id: buildingId })}`, {
      method: 'PUT',
      rawBody: await file.text(),
      headers: { 'Content-Type': 'text/csv' },
    });
    setResult(`Imported: ${r.body.wifi.length} access points and ${r.body.ble.length} beacons in the building now.`);
    onImported();
  });
  const refused = upload.error instanceof ApiError ? upload.error : null;
  return (
    <div class="csv-transfer">
      <h3>CSV</h3>
      <ActionButton onAction={download.run}>Export the building as CSV</ActionButton>
      <ErrorBox error={download.error} />
      <label class="upload">
        Import a CSV (replaces every access point and beacon of the building)
        <input type="file" accept=".csv,text/csv" onChange={(e) => e.currentTarget.files?.[0] && upload.run(e.currentTarget.files[0])} />
      </label>
      {result && (
        <p class="notice" role="status">
          {result}
        </p>
      )}
      {refused && refused.errors.length > 0 ? (
        <div class="error-box" role="alert" data-testid="csv-errors">
          <strong>{refused.message}</strong>
          <ul>
            {refused.errors.map((e) => (
              <li>
                <strong>{(e.fields ?? '').replace(/^line (\d+)\.?/, 'Line $1 ')}</strong>: {e.message}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <ErrorBox error={upload.error} />
      )}
    </div>
  );
}
