import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';
import type { ChartData } from '../analytics-data';

import { CHART_COLOURS, CHART_DASHES } from './series-style';

/** A series' colour: the page's (a fence's colour in every chart), else the palette's in turn. */
const colourOf = (data: ChartData, i: number) => data.series[i].colour ?? CHART_COLOURS[i % CHART_COLOURS.length];
/** A line's pattern by drawing order (see CHART_DASHES), and its legend marker's border style to match. */
const dashOf = (i: number) => CHART_DASHES[i % CHART_DASHES.length];
const markerStyle = (dash: number[] | null) => (dash === null ? 'solid' : dash[0] <= 3 ? 'dotted' : 'dashed');

/**
 * A uPlot chart over ordinal buckets: x is the bucket's index and the axis prints the bucket's
 * label, so the server's local bucket times are shown as they are (uPlot's own time axis would
 * re-read them in the browser's zone). Rebuilt when the data changes, resized with its box.
 * uPlot sets element styles through the DOM, which the page's CSP (no inline styles) allows.
 */
export function Chart({ data, kind, yLabel, title, counts = false }: { data: ChartData; kind: 'bars' | 'lines'; yLabel: string; title: string; counts?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The chart library (the heaviest part of the page) is loaded when a chart is first shown.
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let gone = false;
    void import('./uplot').then(({ default: UPlot }) => {
      if (gone) return;
      ({ plot, observer } = draw(UPlot, el));
    });
    return () => {
      gone = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [data, kind, yLabel, counts]);
  // The chart is a picture of the table that follows it: screen readers get the table.
  return <div class="chart" ref={box} role="img" aria-label={title} data-testid="chart" />;

  function draw(uPlot: typeof import('./uplot').default, el: HTMLDivElement): { plot: uPlot; observer: ResizeObserver } {
    const xs = data.labels.map((_, i) => i);
    // Bars for a single series (visitors); lines when several series share the buckets.
    const bars = kind === 'bars' && data.series.length === 1 ? uPlot.paths.bars!({ size: [0.7, 60], gap: 1 }) : undefined;
    const width = () => Math.max(240, el.clientWidth);
    // Room for the longest line of a tick label (about 7 px a character), so labels never overlap.
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = { stroke: dark ? '#e3e8ee' : '#1d2733', grid: { stroke: dark ? '#33404d' : '#e5e9ee' }, ticks: { stroke: dark ? '#33404d' : '#d8dee6' } };
    const longest = Math.max(4, ...data.ticks.map((t) => Math.max(...t.split('\n').map((line) => line.length))));
    const options: uPlot.Options = {
      width: width(),
      height: 260,
      title: undefined,
      scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] } },
      axes: [
        {
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) && v >= 0 && v < data.ticks.length ? data.ticks[v] : '')),
          incrs: [1, 2, 3, 4, 6, 8, 12, 24, 48, 96, 168, 336, 720],
          space: longest * 7 + 16,
          size: 48,
          ...ink,
        },
        // Counts of people have no halves on their axis.
        { label: yLabel, size: 60, ...ink, ...(counts && { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000] }) },
      ],
      // The legend's marker shows the line's pattern as well as its colour (series 0 is the buckets).
      legend: { live: false, markers: { width: 3, dash: (_u, i) => (i === 0 || bars ? 'solid' : markerStyle(dashOf(i - 1))) } },
      cursor: { drag: { x: false, y: false } },
      plugins: [tooltip(data)],
      series: [
        { label: 'Bucket', value: (_u, v) => (v === null ? '' : (data.labels[v] ?? '')) },
        ...data.series.map((s, i) => {
          const colour = colourOf(data, i);
          // Each line after the first has gaps, so one that lies on another leaves both visible;
          // its points are smaller rings drawn over the earlier ones' larger rings.
          const dash = dashOf(i);
          const points = { show: data.labels.length <= 60, size: Math.max(5, 11 - 2 * i), width: 2 };
          if (!bars) return { label: s.label, stroke: colour, width: 2, ...(dash && { dash }), points };
          return { label: s.label, stroke: colour, fill: `${colour}cc`, width: 1, paths: bars, points: { show: false } };
        }),
      ],
    };
    const plot = new uPlot(options, [xs, ...data.series.map((s) => s.values)] as uPlot.AlignedData, el);
    const observer = new ResizeObserver(() => {
      if (plot.width !== width()) plot.setSize({ width: width(), height: 260 });
    });
    observer.observe(el);
    return { plot, observer };
  }
}

/** The bucket under the cursor with the exact value of each series, next to the cursor. */
function tooltip(data: ChartData): uPlot.Plugin {
  let box: HTMLDivElement;
  return {
    hooks: {
      init: (u) => {
        box = document.createElement('div');
        box.className = 'chart-tooltip';
        box.setAttribute('data-testid', 'chart-tooltip');
        box.hidden = true;
        u.over.appendChild(box);
      },
      setCursor: (u) => {
        const index = u.cursor.idx;
        if (index === null || index === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
          box.hidden = true;
          return;
        }
        box.replaceChildren();
        const title = document.createElement('strong');
        title.textContent = data.labels[index] ?? '';
        box.append(title);
        data.series.forEach((series, i) => {
          const line = document.createElement('div');
          const value = series.values[index];
          line.textContent = `${series.label}: ${value === null || value === undefined ? '—' : value.toLocaleString()}`;
          line.style.setProperty('color', colourOf(data, i));
          box.append(line);
        });
        box.hidden = false;
        const left = Math.min(u.cursor.left + 12, u.over.clientWidth - box.offsetWidth - 4);
        box.style.setProperty('left', `${Math.max(0, left)}px`);
        box.style.setProperty('top', `${Math.max(0, (u.cursor.top ?? 0) - box.offsetHeight - 8)}px`);
      },
    },
  };
}
