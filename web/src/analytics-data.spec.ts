import { describe, expect, it } from 'vitest';
import {
  AnalyticsParams,
  AnalyticsRow,
  analyticsQuery,
  bucketLabel,
  defaultRange,
  formatDuration,
  hasData,
  axisTicks,
  occupancyChart,
  occupancyCsv,
  occupancyQuery,
  paramsFromSearch,
  searchOf,
  stayByFence,
  stayChart,
  stayTimeReportQuery,
  timeZones,
  toCsv,
  visitorsChart,
  visitorsQuery,
} from './analytics-data';
import { CHART_COLOURS, coloursByKey } from './components/series-style';

const P: AnalyticsParams = { buildingId: 7, from: '2026-11-01', to: '2026-11-07', timeZone: 'Asia/Tokyo', grouping: 'day' };

const row = (geofence_id: string, geofence_name: string, bucket: string, total: number, avg: number | null, entries = 1): AnalyticsRow => ({
  geofence_id,
  geofence_name,
  bucket,
  entries,
  total_stay_seconds: total,
  avg_stay_seconds: avg,
  max_occupancy: total > 0 ? 1 : 0,
});

describe('analytics data shaping', () => {
  it('asks each endpoint with its own parameter names, the CSV report with the same as its JSON', () => {
    expect(visitorsQuery(P)).toBe('?building_id=7&from_date=2026-11-01&to_date=2026-11-07&time_zone=Asia%2FTokyo&grouping=day');
    expect(stayTimeReportQuery(P)).toBe('?building_ids=7&from_date=2026-11-01&to_date=2026-11-07&time_zone=Asia%2FTokyo&grouping=day');
    expect(analyticsQuery(P)).toBe('?building_ids=7&from=2026-11-01&to=2026-11-07&time_zone=Asia%2FTokyo&grouping=day');
    expect(occupancyQuery(P, ['a', 'b'])).toBe('?geofence_ids=a%2Cb&from=2026-11-01&to=2026-11-07&time_zone=Asia%2FTokyo&grouping=day');
  });

  it('reads its parameters back from its own URL, and falls back to defaults for what is missing or malformed', () => {
    const defaults = { from: '2026-01-01', to: '2026-01-07', timeZone: 'UTC', grouping: 'day' as const };
    expect(paramsFromSearch(searchOf(P), defaults)).toEqual(P);
    expect(paramsFromSearch('?building_id=x&from=yesterday&to=2026-02-30x&grouping=year&time_zone=', defaults)).toEqual({ buildingId: undefined, ...defaults });
    expect(paramsFromSearch('', { ...defaults, buildingId: 3 }).buildingId).toBe(3);
  });

  it('defaults to the last seven days, today included, across a month end', () => {
    expect(defaultRange(new Date(2026, 2, 3, 23, 59))).toEqual({ from: '2026-02-25', to: '2026-03-03' });
  });

  it('labels buckets by what the grouping means, local or UTC alike', () => {
    expect(bucketLabel('2026-11-20T14:00:00.000', 'hour')).toBe('2026-11-20 14:00');
    expect(bucketLabel('2026-11-20T00:00:00.000Z', 'day')).toBe('2026-11-20');
    expect(bucketLabel('2026-11-16T00:00:00.000', 'week')).toBe('Week of 2026-11-16');
    expect(bucketLabel('2026-11-01T00:00:00.000', 'month')).toBe('2026-11');
    expect(bucketLabel('not a time', 'day')).toBe('not a time');
  });

  it('writes durations as the stay-time report does, hours past 24 kept', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(5400.4)).toBe('01:30:00');
    expect(formatDuration(90_061)).toBe('25:01:01');
    expect(formatDuration(null)).toBe('—');
  });

  it('charts visitors per bucket, and tells an all-zero answer from one with data', () => {
    const chart = visitorsChart(
      [
        { date: '2026-11-01T00:00:00.000', visitors: 0 },
        { date: '2026-11-02T00:00:00.000', visitors: 3 },
      ],
      'day',
    );
    expect(chart).toEqual({ labels: ['2026-11-01', '2026-11-02'], ticks: ['Nov 1\n2026', 'Nov 2'], series: [{ label: 'Visitors', values: [0, 3] }] });
    expect(hasData(chart)).toBe(true);
    expect(hasData({ ...chart, series: [{ label: 'Visitors', values: [0, null] }] })).toBe(false);
  });

  it('regroups the analytics per fence, busiest first, buckets in time order, and charts minutes', () => {
    const rows = [
      row('b', 'Cafe', '2026-11-02T00:00:00.000', 600, 600),
      row('a', 'Lobby', '2026-11-02T00:00:00.000', 3600, 1800, 2),
      row('a', 'Lobby', '2026-11-01T00:00:00.000', 0, null, 0),
      row('b', 'Cafe', '2026-11-01T00:00:00.000', 90, 90),
      row('c', 'Attic', '2026-11-01T00:00:00.000', 0, null, 0),
      row('c', 'Attic', '2026-11-02T00:00:00.000', 0, null, 0),
    ];
    const stay = stayByFence(rows);
    expect(stay.buckets).toEqual(['2026-11-01T00:00:00.000', '2026-11-02T00:00:00.000']);
    expect(stay.fences.map((f) => [f.name, f.total, f.average, f.entries, f.overallTotal])).toEqual([
      ['Lobby', [0, 3600], [null, 1800], [0, 2], 3600],
      ['Cafe', [90, 600], [90, 600], [1, 1], 690],
      ['Attic', [0, 0], [null, null], [0, 0], 0],
    ]);
    const colours = coloursByKey(['c', 'b', 'a']);
    expect(stayChart(stay, 'day', 2, colours)).toEqual({
      labels: ['2026-11-01', '2026-11-02'],
      ticks: ['Nov 1\n2026', 'Nov 2'],
      series: [
        { label: 'Lobby', values: [0, 60], colour: CHART_COLOURS[0] },
        { label: 'Cafe', values: [1.5, 10], colour: CHART_COLOURS[1] },
      ],
    });
    expect(stayByFence([])).toEqual({ buckets: [], fences: [] });
  });

  const history = {
    data: [
      {
        geofence_id: 'a',
        geofence_name: 'Lobby',
        series: [
          { bucket: '2026-11-01T00:00:00.000', max_occupancy: 2, avg_occupancy: 0.021, end_occupancy: 0 },
          { bucket: '2026-11-02T00:00:00.000', max_occupancy: 0, avg_occupancy: 0, end_occupancy: 0 },
        ],
      },
      {
        geofence_id: 'b',
        geofence_name: '=HYPERLINK("x"), "Cafe"',
        series: [
          { bucket: '2026-11-01T00:00:00.000', max_occupancy: 1, avg_occupancy: 0.5, end_occupancy: 1 },
          { bucket: '2026-11-02T00:00:00.000', max_occupancy: 1, avg_occupancy: 1, end_occupancy: 1 },
        ],
      },
    ],
  };

  it('charts the peak occupancy per fence, each in its colour of the page', () => {
    // The page's fences in another order, and one more: the colours follow the fences, not the chart.
    const colours = coloursByKey(['b', 'z', 'a']);
    expect(occupancyChart(history, 'day', colours)).toEqual({
      labels: ['2026-11-01', '2026-11-02'],
      ticks: ['Nov 1\n2026', 'Nov 2'],
      series: [
        { label: 'Lobby', values: [2, 0], colour: CHART_COLOURS[0] },
        { label: '=HYPERLINK("x"), "Cafe"', values: [1, 1], colour: CHART_COLOURS[1] },
      ],
    });
    expect(occupancyChart({ data: [] }, 'day', colours)).toEqual({ labels: [], ticks: [], series: [] });
  });

  it('gives each fence one colour whatever order its ids come in, repeating the palette only past its end', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `f${String(i).padStart(2, '0')}`);
    const colours = coloursByKey([...ids].reverse().concat(ids));
    expect(colours).toEqual(coloursByKey(ids));
    expect(ids.map((id) => colours.get(id))).toEqual([...CHART_COLOURS, CHART_COLOURS[0], CHART_COLOURS[1]]);
  });

  it('writes the occupancy as RFC 4180 CSV, quoting what needs it and defusing formulas', () => {
    expect(occupancyCsv(history).split('\r\n')).toEqual([
      'bucket,geofence_id,geofence_name,max_occupancy,avg_occupancy,end_occupancy',
      '2026-11-01T00:00:00.000,a,Lobby,2,0.021,0',
      '2026-11-02T00:00:00.000,a,Lobby,0,0,0',
      `2026-11-01T00:00:00.000,b,"'=HYPERLINK(""x""), ""Cafe""",1,0.5,1`,
      `2026-11-02T00:00:00.000,b,"'=HYPERLINK(""x""), ""Cafe""",1,1,1`,
      '',
    ]);
    expect(
      toCsv(
        ['n', 'v'],
        [
          ['-1', -1],
          ['a\nb', null],
        ],
      ),
    ).toBe(`n,v\r\n'-1,-1\r\n"a\nb",\r\n`);
  });

  it('offers every zone the browser knows, UTC first, and the current zone even when unlisted', () => {
    expect(timeZones(['Europe/Madrid', 'Asia/Tokyo'], 'Etc/GMT+3')).toEqual(['UTC', 'Asia/Tokyo', 'Etc/GMT+3', 'Europe/Madrid']);
    expect(timeZones(['UTC', 'Europe/Madrid'], 'UTC')).toEqual(['UTC', 'Europe/Madrid']);
  });

  it('writes short axis labels: hours with the day under the first of each day, days and months with the year under the first of each year', () => {
    const hours = Array.from({ length: 26 }, (_, h) => `2026-11-${h < 24 ? '23' : '24'}T${String(h % 24).padStart(2, '0')}:00:00.000`);
    const ticks = axisTicks(hours, 'hour');
    expect(ticks.slice(0, 3)).toEqual(['00:00\nNov 23', '01:00', '02:00']);
    expect(ticks[24]).toBe('00:00\nNov 24');
    expect(axisTicks(['2026-12-31T00:00:00.000', '2027-01-01T00:00:00.000'], 'day')).toEqual(['Dec 31\n2026', 'Jan 1\n2027']);
    expect(axisTicks(['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'], 'month')).toEqual(['Nov\n2026', 'Dec', 'Jan\n2027']);
  });
});
