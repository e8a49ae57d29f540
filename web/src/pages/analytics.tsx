import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import {
  analyticsQuery,
  AnalyticsParams,
  AnalyticsRow,
  bucketLabel,
  ChartData,
  defaultRange,
  formatDuration,
  GROUPINGS,
  Grouping,
  hasData,
  occupancyChart,
  occupancyCsv,
  OccupancyHistory,
  occupancyQuery,
  paramsFromSearch,
  searchOf,
  stayByFence,
  stayChart,
  stayTimeReportQuery,
  timeZones,
  visitorsChart,
  visitorsQuery,
  VisitorsRow,
} from '../analytics-data';
import { api, ApiError, getAll } from '../api';
import { Chart } from '../components/chart';
import { coloursByKey } from '../components/series-style';
import { ErrorBox, Field, Loading, useLoad } from '../components/ui';
import type { Building } from '../model';

/** Fences drawn in the stay and occupancy charts (the busiest first); the tables list every one. */
const MAX_FENCES_CHARTED = 10;

interface ReportEnvelope<T> {
  data: T[];
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const supportedZones = () => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []);

/**
 * Analytics of one building: visitors per bucket, stay time per fence and occupancy over time,
 * for a range of local dates in a chosen IANA zone. The parameters live in the URL, so a reload
 * or a shared link shows the same charts.
 */
export function AnalyticsPage({ search }: { search: string }) {
  const buildings = useLoad((signal) => getAll<Building>('/buildings', signal), []);
  const [params, setParams] = useState(() => paramsFromSearch(search, { ...defaultRange(new Date()), timeZone: browserZone(), grouping: 'day' }));
  const zones = useMemo(() => timeZones(supportedZones(), params.timeZone), []);

  // Without a building in the URL, the first one (by name) is shown.
  const buildingId = params.buildingId ?? buildings.data?.slice().sort((a, b) => a.name.localeCompare(b.name))[0]?.id;
  const full: AnalyticsParams | undefined = buildingId === undefined ? undefined : { ...params, buildingId };
  useEffect(() => {
    if (full) history.replaceState(null, '', `/analytics${searchOf(full)}`);
  }, [full && searchOf(full)]);

  const set = (patch: Partial<AnalyticsParams>) => setParams({ ...params, ...patch });
  const building = buildings.data?.find((b) => b.id === buildingId);
  // Said next to the field before anything is asked (the server would answer the same 400).
  const rangeError =
    full && full.from > full.to
      ? new ApiError(400, 'bad_request', 'The range ends before it starts.', [{ fields: 'to_date', message: 'Must be on or after the start date.' }])
      : null;

  return (
    <section class="analytics">
      <h1>Analytics{building ? `: ${building.name}` : ''}</h1>
      <ErrorBox error={buildings.error} />
      {!buildings.data && !buildings.error && <Loading what="buildings" />}
      {buildings.data?.length === 0 && <p>No buildings yet: create one to see its analytics.</p>}
      {buildings.data && buildings.data.length > 0 && full && (
        <>
          <form class="analytics-controls card" onSubmit={(e) => e.preventDefault()} aria-label="Analytics parameters">
            <Select
              label="Building"
              value={String(full.buildingId)}
              options={buildings.data
                .slice()
                .sort((a, b) => a.name.localeCompare(b.name))
                .map((b) => ({ value: String(b.id), label: b.name }))}
              onChange={(v) => set({ buildingId: Number(v) })}
            />
            <Field label="From" name="from_date" type="date" required value={full.from} onChange={(e) => e.currentTarget.value && set({ from: e.currentTarget.value })} />
            <Field
              label="To (inclusive)"
              name="to_date"
              type="date"
              required
              value={full.to}
              error={rangeError}
              onChange={(e) => e.currentTarget.value && set({ to: e.currentTarget.value })}
            />
            <Select label="Time zone" value={full.timeZone} options={zones.map((z) => ({ value: z, label: z }))} onChange={(v) => set({ timeZone: v })} />
            <Select
              label="Grouping"
              value={full.grouping}
              options={GROUPINGS.map((g) => ({ value: g.value, label: g.label }))}
              onChange={(v) => set({ grouping: v as Grouping })}
            />
          </form>
          {!rangeError && (
            <>
              <VisitorsSection params={full} />
              <FencesSections params={full} />
            </>
          )}
        </>
      )}
    </section>
  );
}

function VisitorsSection({ params }: { params: AnalyticsParams }) {
  const q = visitorsQuery(params);
  const load = useRead<ReportEnvelope<VisitorsRow>>(`/reports/visitors.json${q}`);
  const rows = load.data?.data;
  const chart = useMemo(() => rows && visitorsChart(rows, params.grouping), [rows]);
  return (
    <ChartSection
      id="visitors"
      title="Visitors"
      description="Distinct devices positioned in the building in each bucket."
      download={{ href: `/api/v1/reports/visitors.csv${q}`, name: 'visitors.csv' }}
      loading={!load.data && !load.error}
      updating={load.updating}
      error={load.error}
      empty={chart && !hasData(chart) ? 'No device was positioned in this building in this range.' : undefined}
      chart={chart}
      kind="bars"
      yLabel="Visitors"
      counts
      table={rows && { header: ['Bucket', 'Visitors'], rows: rows.map((r) => [bucketLabel(r.date, params.grouping), String(r.visitors)]) }}
    />
  );
}

/** Stay time (from the analytics) and occupancy (from the history of the building's live fences). */
function FencesSections({ params }: { params: AnalyticsParams }) {
  const q = analyticsQuery(params);
  const analytics = useRead<{ data: AnalyticsRow[] }>(`/geofencing/analytics${q}`);
  const stay = useMemo(() => analytics.data && stayByFence(analytics.data.data), [analytics.data]);

  // The occupancy history names its fences, and a deleted one (still in the analytics with its
  // visits) is a 404 there: only live fences are asked for, the busiest first.
  const fences = useLoad((signal) => getAll<{ id: string; name: string }>(`/geofences?building_ids=${params.buildingId}`, signal), [params.buildingId]);
  // One colour per fence in every chart: from the building's fences (and the deleted ones the
  // analytics still has), in one order that does not depend on what a chart draws.
  const colours = useMemo(
    () => (stay && (fences.data || fences.error) ? coloursByKey([...(fences.data ?? []).map((f) => f.id), ...stay.fences.map((f) => f.id)]) : undefined),
    [stay, fences.data, fences.error],
  );
  const chart = useMemo(() => stay && colours && stayChart(stay, params.grouping, MAX_FENCES_CHARTED, colours), [stay, colours]);
  const charted = useMemo(() => {
    if (!fences.data || !stay) return undefined;
    const rank = new Map(stay.fences.map((f, i) => [f.id, i]));
    return fences.data
      .slice()
      .sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity) || a.name.localeCompare(b.name))
      .slice(0, MAX_FENCES_CHARTED)
      .map((f) => f.id);
  }, [fences.data, stay]);
  const oq = charted && charted.length > 0 ? occupancyQuery(params, charted) : undefined;
  const occupancy = useRead<OccupancyHistory>(oq && `/geofencing/occupancy/history${oq}`);
  const occupancyData = oq ? occupancy.data : undefined;
  const occChart = useMemo(() => occupancyData && colours && occupancyChart(occupancyData, params.grouping, colours), [occupancyData, colours]);
  const csv = useObjectUrl(occupancyData ? occupancyCsv(occupancyData) : undefined, 'text/csv');

  const noFences = fences.data?.length === 0 && stay?.fences.length === 0;
  return (
    <>
      <ChartSection
        id="stay"
        title="Stay time per geofence"
        description={`Total time spent in each geofence per bucket, in minutes${stay && stay.fences.length > MAX_FENCES_CHARTED ? ` (the ${MAX_FENCES_CHARTED} busiest charted; the table lists all ${stay.fences.length})` : ''}.`}
        download={{
          href: `/api/v1/reports/geofencing_stay_time.csv${stayTimeReportQuery(params)}`,
          name: 'geofencing_stay_time.csv',
          note: 'one line per bucket, fence and device',
        }}
        loading={!analytics.data && !analytics.error}
        updating={analytics.updating}
        error={analytics.error}
        empty={noFences ? 'This building has no geofences.' : chart && !hasData(chart) ? 'Nobody stayed in a geofence of this building in this range.' : undefined}
        chart={chart}
        kind="lines"
        yLabel="Minutes"
        table={
          stay && {
            header: ['Bucket', 'Geofence', 'Entries', 'Total stay', 'Average stay'],
            rows: stay.buckets.flatMap((b, i) =>
              stay.fences.map((f) => [bucketLabel(b, params.grouping), f.name, String(f.entries[i]), formatDuration(f.total[i]), formatDuration(f.average[i])]),
            ),
          }
        }
      />
      <ChartSection
        id="occupancy"
        title="Occupancy over time"
        description="The most people inside each geofence at once, per bucket."
        download={csv ? { href: csv, name: 'occupancy.csv' } : undefined}
        loading={!noFences && !analytics.error && !fences.error && !occupancy.error && !occupancyData}
        updating={occupancy.updating || analytics.updating}
        error={fences.error ?? occupancy.error}
        empty={
          noFences || (fences.data?.length === 0 && stay)
            ? 'This building has no geofences.'
            : occChart && !hasData(occChart)
              ? 'No geofence had anyone inside in this range.'
              : undefined
        }
        chart={occChart}
        kind="lines"
        yLabel="People"
        counts
        table={
          occupancyData && {
            header: ['Bucket', 'Geofence', 'Peak', 'Average', 'At the end'],
            rows: (occupancyData.data[0]?.series ?? []).flatMap((_, i) =>
              occupancyData.data.map((f) => [
                bucketLabel(f.series[i].bucket, params.grouping),
                f.geofence_name,
                String(f.series[i].max_occupancy),
                String(f.series[i].avg_occupancy),
                String(f.series[i].end_occupancy),
              ]),
            ),
          }
        }
      />
    </>
  );
}

/** A labelled choice of the filter bar (no API field behind it, so never an error under it). */
function Select({ label, value, options, onChange }: { label: string; value: string; options: Array<{ value: string; label: string }>; onChange: (value: string) => void }) {
  return (
    <Field label={label} name={label}>
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option value={o.value}>{o.label}</option>
        ))}
      </select>
    </Field>
  );
}

/**
 * One GET of the API, re-read when its path changes. The last answer stays shown while the
 * next is read (a chart does not blink at every change), flagged `updating` until it arrives.
 */
function useRead<T>(path: string | undefined): { data: T | undefined; error: unknown; updating: boolean } {
  const load = useLoad(async (signal) => (path === undefined ? undefined : { path, body: await api.get<T>(path, signal) }), [path]);
  return { data: load.data?.body, error: load.error, updating: path !== undefined && load.data !== undefined && load.data.path !== path && !load.error };
}

/** An object URL for text made in the browser (a CSV download), revoked when the text changes. */
function useObjectUrl(text: string | undefined, type: string): string | undefined {
  const url = useMemo(() => (text === undefined ? undefined : URL.createObjectURL(new Blob([text], { type }))), [text]);
  useEffect(() => () => url && URL.revokeObjectURL(url), [url]);
  return url;
}

function ChartSection(props: {
  id: string;
  title: string;
  description: string;
  download?: { href: string; name: string; note?: string };
  loading: boolean;
  error: unknown;
  empty?: string;
  chart?: ChartData;
  kind: 'bars' | 'lines';
  yLabel: string;
  counts?: boolean;
  /** A newer read is under way: what is shown is for the previous parameters. */
  updating?: boolean;
  table?: { header: string[]; rows: string[][] };
}) {
  const headingId = `${props.id}-heading`;
  let body: ComponentChildren;
  if (props.error) body = <ErrorBox error={props.error} />;
  else if (props.empty) body = <p class="empty muted">{props.empty}</p>;
  else if (props.loading || !props.chart) body = <Loading what={props.title.toLowerCase()} />;
  else body = <Chart data={props.chart} kind={props.kind} yLabel={props.yLabel} counts={props.counts} title={`${props.title}: chart of the table below`} />;
  return (
    <section class="chart-section card" aria-labelledby={headingId} data-testid={`${props.id}-section`}>
      <div class="section-head">
        <h2 id={headingId}>{props.title}</h2>
        {props.updating && (
          <span class="updating muted" role="status">
            <span class="spinner" aria-hidden="true" /> Updating…
          </span>
        )}
        {props.download && !props.error && (
          <a class="btn plain" href={props.download.href} download={props.download.name}>
            Download CSV{props.download.note ? ` (${props.download.note})` : ''}
          </a>
        )}
      </div>
      <p class="muted">{props.description}</p>
      {body}
      {props.table && !props.error && !props.empty && (
        <details>
          <summary>{props.title} as a table</summary>
          <table>
            <caption class="sr-only">{props.title}</caption>
            <thead>
              <tr>
                {props.table.header.map((h) => (
                  <th scope="col">{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.table.rows.map((r) => (
                <tr>
                  {r.map((c) => (
                    <td>{c}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}
