import { deviceName } from '../devices/device-names';
import * as L from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError, query } from '../api';
import { ActionButton, ErrorBox, Field, formatTime, submitWith, useAction } from '../components/ui';
import { type FloorContext, useLoadedEffect } from './floor-context';
import { canvasFor, latLng } from './map-setup';
import { historyPeriod, localInput, positionsAt, tracksOf, trailsGeoJson, TrackPoint, TrajectoryRow } from './playback';

const SPEEDS = [1, 10, 60, 600];

/**
 * Where one device, or every device on the floor, went over a period (the trajectory report):
 * the trails, and a time slider (or play) that puts each device where it was at that moment.
 */
export function HistoryPanel({ context, initialDevice }: { context: FloorContext; initialDevice?: string }) {
  const { map, building, floor } = context;
  const now = Date.now();
  const [device, setDevice] = useState(initialDevice ?? '');
  const [from, setFrom] = useState(localInput(now - 3600_000));
  // "To" is now by default: the moment "Show history" is pressed, so the newest fixes are in.
  const [toNow, setToNow] = useState(true);
  const [to, setTo] = useState(localInput(now));
  const [period, setPeriod] = useState<{ from: number; to: number; toNow: boolean } | null>(null);
  const [tracks, setTracks] = useState<Map<string, TrackPoint[]> | null>(null);
  const [range, setRange] = useState<[number, number]>([0, 0]);
  const [at, setAt] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(60);

  const [drawn, setDrawn] = useState<{ group: L.LayerGroup; renderer: L.Canvas } | null>(null);
  useLoadedEffect(context, () => {
    const renderer = canvasFor('history').addTo(map);
    const group = L.layerGroup().addTo(map);
    setDrawn({ group, renderer });
    return () => {
      setDrawn(null);
      group.remove();
      renderer.remove();
    };
  }, [map]);

  const load = useAction(async () => {
    setPlaying(false);
    await context.loaded;
    const asked = historyPeriod(from, toNow ? 'now' : to, Date.now());
    if ('error' in asked) {
      const message =
        asked.error === 'from'
          ? 'Choose when the period starts.'
          : asked.error === 'to'
            ? 'Choose when the period ends, or tick "Up to now".'
            : 'The period ends before it starts.';
      throw new ApiError(422, 'validation_failed', message, [{ fields: asked.error === 'to' || (asked.error === 'order' && !toNow) ? 'to' : 'from', message }]);
    }
    const { from: fromMs, to: toMs } = asked;
    const q = query({ building_id: building.id, floor_id: floor.id, device_id: device.trim() || undefined, ...asked.query });
    const report = await api.get<{ data: TrajectoryRow[] }>(`/reports/user_positions.json${q}`);
    const loaded = tracksOf(report.data, floor.id);
    setTracks(loaded);
    setPeriod({ from: fromMs, to: toMs, toNow: asked.toNow });
    let first = Infinity;
    let last = -Infinity;
    for (const track of loaded.values()) {
      first = Math.min(first, track[0].time);
      last = Math.max(last, track[track.length - 1].time);
    }
    const span: [number, number] = Number.isFinite(first) ? [first, last] : [fromMs, toMs];
    setRange(span);
    setAt(span[0]);
  });

  // Play: the slider moves `speed` seconds of history per second.
  const clock = useRef(0);
  useEffect(() => {
    if (!playing) return;
    clock.current = performance.now();
    let frame = requestAnimationFrame(function step(t) {
      const elapsed = t - clock.current;
      clock.current = t;
      setAt((current) => {
        const next = Math.min(range[1], current + elapsed * speed);
        if (next >= range[1]) setPlaying(false);
        return next;
      });
      frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, range[0], range[1]]);

  const here = useMemo(() => (tracks ? positionsAt(tracks, at) : []), [tracks, at]);
  useEffect(() => {
    if (!tracks || !drawn) return;
    const { group, renderer } = drawn;
    group.clearLayers();
    for (const trail of trailsGeoJson(tracks, at).features) {
      const line = (trail.geometry as GeoJSON.LineString).coordinates.map((p) => latLng(p as [number, number]));
      group.addLayer(L.polyline(line, { renderer, color: '#6a3fb5', weight: 2, opacity: 0.7, interactive: false }));
    }
    for (const { point } of here)
      group.addLayer(L.circleMarker(latLng(point.lngLat), { renderer, radius: 6, color: '#fff', weight: 2, fillColor: '#6a3fb5', fillOpacity: 1, interactive: false }));
  }, [tracks, at, here, drawn]);

  const fieldError = load.error instanceof ApiError ? load.error : null;
  const fixes = tracks ? [...tracks.values()].reduce((n, t) => n + t.length, 0) : 0;
  return (
    <div class="history-panel">
      <h2>History</h2>
      <form class="history-form" aria-label="History period" onSubmit={submitWith(load.run)}>
        <Field
          label="Device"
          name="device_id"
          value={device}
          placeholder="All devices on this floor"
          onInput={(e) => setDevice(e.currentTarget.value)}
          hint="A device id, or empty for every device"
        />
        <Field label="From" name="from" type="datetime-local" step={1} value={from} onInput={(e) => setFrom(e.currentTarget.value)} error={fieldError} />
        <label class="checkbox">
          <input
            type="checkbox"
            checked={toNow}
            onChange={(e) => {
              setToNow(e.currentTarget.checked);
              // A chosen end starts from this second, not from when the panel opened.
              if (!e.currentTarget.checked) setTo(localInput(Date.now(), true));
            }}
          />{' '}
          Up to now
        </label>
        {!toNow && <Field label="To" name="to" type="datetime-local" step={1} value={to} onInput={(e) => setTo(e.currentTarget.value)} error={fieldError} />}
        <ErrorBox error={load.error} onRetry={load.run} fields={toNow ? ['from'] : ['from', 'to']} />
        <ActionButton kind="primary" onAction={load.run}>
          Show history
        </ActionButton>
      </form>
      {tracks && (
        <div class="playback" data-testid="playback">
          <p role="status" data-testid="history-summary">
            {tracks.size === 0 ? 'No position on this floor in this period.' : `${fixes} positions of ${tracks.size} ${tracks.size === 1 ? 'device' : 'devices'}.`}
          </p>
          {period && <PeriodShown period={period} />}
          {tracks.size > 0 && (
            <>
              <label class="slider">
                <span>Time</span>
                <input
                  type="range"
                  min={range[0]}
                  max={range[1]}
                  step={1000}
                  value={at}
                  aria-valuetext={formatTime(new Date(at).toISOString())}
                  onInput={(e) => {
                    setPlaying(false);
                    setAt(Number(e.currentTarget.value));
                  }}
                />
              </label>
              <p class="playback-time" data-testid="playback-time">
                {formatTime(new Date(at).toISOString())} · {here.length} {here.length === 1 ? 'device' : 'devices'} here
              </p>
              <div class="row">
                <button type="button" class="btn plain" onClick={() => (at >= range[1] ? (setAt(range[0]), setPlaying(true)) : setPlaying(!playing))}>
                  {playing ? 'Pause' : 'Play'}
                </button>
                <label class="inline">
                  Speed{' '}
                  <select value={speed} onChange={(e) => setSpeed(Number(e.currentTarget.value))}>
                    {SPEEDS.map((s) => (
                      <option value={s}>×{s}</option>
                    ))}
                  </select>
                </label>
              </div>
              <ul class="plain-list" data-testid="history-devices">
                {here.slice(0, 50).map(({ id, point }) => (
                  <li data-device-id={id}>
                    {deviceName(id)} <span class="muted">at {formatTime(new Date(point.time).toISOString())}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** The period of the positions shown, in words: both ends are in it. */
function PeriodShown({ period }: { period: { from: number; to: number; toNow: boolean } }) {
  const at = (ms: number) => <time dateTime={new Date(ms).toISOString()}>{formatTime(new Date(ms).toISOString())}</time>;
  return (
    <p class="muted" data-testid="history-period">
      From {at(period.from)} to {period.toNow ? <>now ({at(period.to)})</> : at(period.to)}, both included.
    </p>
  );
}
