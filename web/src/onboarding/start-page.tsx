import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, getAll, query } from '../api';
import { BuildingForm } from '../building-setup/building-form';
import { FloorForm, PlanUpload } from '../building-setup/floor-card';
import { ActionButton, CopyButton, ErrorBox, Loading, useAction, useLoad } from '../components/ui';
import { type Building, type Device, type Floor, floorLabel, type Page } from '../model';
import type { ApiKey } from '../pages/api-keys';
import { positionCurl } from './position-curl';

interface Progress {
  building?: Building;
  floor?: Floor;
  fences: number;
  key?: ApiKey;
}

async function progress(signal: AbortSignal): Promise<Progress> {
  const buildings = await getAll<Building>('/buildings', signal);
  const building = buildings[0];
  if (!building) return { fences: 0 };
  const floors = await api.get<Floor[]>(`/buildings/${building.id}/floors`, signal);
  const floor = floors.slice().sort((a, b) => a.level - b.level)[0];
  const fences = await api.get<Page<unknown>>(`/geofences${query({ building_ids: building.id, size: 1 })}`, signal);
  const keys = await api.get<ApiKey[]>('/auth/apikeys?permissions=positioning', signal);
  return { building, floor, fences: fences.metadata.total_elements, key: keys.find((k) => !k.apikey.includes('*')) };
}

/**
 * A short guided start for an empty organization: a building, a floor with its plan (aligned on
 * the map), a geofence, a positioning key, and a command that reports a position so the first
 * dot appears. Each step shows as done once the API has it.
 */
export function StartPage() {
  const state = useLoad(progress, []);
  if (state.error) return <ErrorBox error={state.error} onRetry={state.reload} />;
  if (!state.data) return <Loading what="the guide" />;
  const { building, floor, fences, key } = state.data;
  return (
    <section class="start">
      <h1>Set up your site</h1>
      <ol class="steps">
        <Step n={1} title="Create a building" done={!!building}>
          {building ? (
            <p>
              <a href={`/buildings/${building.id}`}>{building.name}</a> is created. You can place it by dragging on <a href={`/buildings/${building.id}/place`}>its map</a>.
            </p>
          ) : (
            <BuildingForm
              submitLabel="Create the building"
              onSubmit={async (body) => {
                await api.post('/buildings', body);
                state.reload();
              }}
            />
          )}
        </Step>
        <Step n={2} title="Add a floor and its plan" done={!!floor?.maps.map_url} locked={!building}>
          {building && !floor && (
            <FloorForm
              submitLabel="Add the floor"
              onSubmit={async (body) => {
                await api.post('/floors', { building_id: building.id, ...body });
                state.reload();
              }}
            />
          )}
          {building && floor && (
            <>
              <p>
                Floor <strong>{floorLabel(floor)}</strong>. {floor.maps.map_url ? 'Its plan is uploaded.' : 'Upload its plan (an image of the floor).'}
              </p>
              <PlanUpload floor={floor} onUploaded={state.reload} />
              {floor.maps.map_url && (
                <p>
                  <a href={`/buildings/${building.id}/place`}>Align the plan with the building</a> (drag its corners, or two anchor points).
                </p>
              )}
            </>
          )}
        </Step>
        <Step n={3} title="Draw a geofence" done={fences > 0} locked={!floor}>
          {building && floor && (
            <p>
              {fences > 0 ? `${fences === 1 ? 'A geofence is' : `${fences} geofences are`} drawn. ` : ''}
              <a href={`/buildings/${building.id}/floors/${floor.id}/map`}>Open the floor map</a> and press “Draw a geofence”: click its corners, then the first one again.
            </p>
          )}
        </Step>
        <Step n={4} title="Make a positioning key" done={!!key}>
          <PositioningKey apiKey={key} onCreated={state.reload} />
        </Step>
        <Step n={5} title="Report a first position" done={false} locked={!key || !floor}>
          {key && building && floor && <FirstPosition apiKey={key} building={building} floor={floor} />}
        </Step>
      </ol>
    </section>
  );
}

function Step({ n, title, done, locked = false, children }: { n: number; title: string; done: boolean; locked?: boolean; children?: ComponentChildren }) {
  return (
    <li class={`step card${done ? ' done' : ''}`} data-step={n} data-done={done}>
      <h2>
        <span class="step-mark" aria-hidden="true">
          {done ? '✓' : n}
        </span>{' '}
        {title}
        {done && <span class="sr-only"> (done)</span>}
      </h2>
      {locked ? <p class="muted">After the steps above.</p> : children}
    </li>
  );
}

function PositioningKey({ apiKey, onCreated }: { apiKey?: ApiKey; onCreated: () => void }) {
  const create = useAction(async () => {
    await api.post('/auth/apikeys', { permission: 'positioning', description: 'First device' });
    onCreated();
  });
  if (apiKey)
    return (
      <p class="key-line">
        Positioning key <code data-testid="positioning-key">{apiKey.apikey}</code> <CopyButton text={apiKey.apikey} />
      </p>
    );
  return (
    <>
      <p>A positioning key lets a device app read the maps and report positions, and nothing else.</p>
      <ErrorBox error={create.error} />
      <ActionButton kind="primary" onAction={create.run}>
        Make a positioning key
      </ActionButton>
    </>
  );
}

/** The command, and a wait for the device it reports (a dot on the floor map). */
function FirstPosition({ apiKey, building, floor }: { apiKey: ApiKey; building: Building; floor: Floor }) {
  const curl = positionCurl(location.origin, apiKey.apikey, { buildingId: building.id, floorId: floor.id, lat: building.location.lat, lng: building.location.lng });
  const [seen, setSeen] = useState<Device | null>(null);
  useEffect(() => {
    if (seen) return;
    const timer = setInterval(async () => {
      const page = await api.get<Page<Device>>(`/devices${query({ floor_ids: floor.id, size: 1, sort: '-last_seen_at' })}`).catch(() => null);
      if (page?.data[0]) setSeen(page.data[0]);
    }, 2000);
    return () => clearInterval(timer);
  }, [seen]);
  return (
    <>
      <p>Paste this in a terminal: it reports a position in the middle of the building, as a device app would.</p>
      <p class="key-line">
        <code data-testid="first-position-command">{curl}</code> <CopyButton text={curl} label="Copy command" />
      </p>
      {seen ? (
        <p class="notice" role="status" data-testid="first-device">
          Device <strong>{seen.id}</strong> reported.{' '}
          <a href={`/buildings/${building.id}/floors/${floor.id}/map?device=${encodeURIComponent(seen.id)}`}>See its dot on the floor map</a>.
        </p>
      ) : (
        <p class="muted" role="status">
          <span class="spinner" aria-hidden="true" /> Waiting for a position…
        </p>
      )}
    </>
  );
}
