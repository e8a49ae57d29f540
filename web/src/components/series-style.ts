/** Distinct on white and for the common colour-vision deficiencies (Okabe–Ito, then a few more). */
export const CHART_COLOURS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#000000', '#8c564b', '#7f7f7f'];

/**
 * Line patterns by drawing order within a chart: the first line solid, each next one drawn over
 * it with gaps (long dashes, dots, dash-dot), so a line that lies exactly on another leaves the
 * other's colour showing in its gaps. The legend's marker shows the pattern. `null` is solid.
 */
export const CHART_DASHES: ReadonlyArray<number[] | null> = [null, [10, 6], [2, 5], [12, 4, 2, 4]];

/**
 * One colour per key (a fence id) for every chart of a page: the keys in one stable order (sorted,
 * so the same set gives the same colours whatever a chart draws and in which order), a colour
 * each in turn.
 */
export function coloursByKey(keys: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(keys)].sort();
  return new Map(sorted.map((key, i) => [key, CHART_COLOURS[i % CHART_COLOURS.length]]));
}
