import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../common/time/durations';
import { addCells, planRange, toCells } from './heatmap-grid';

const day = (n: number) => n * DAY_MS;
const hour = 3_600_000;

describe('planRange', () => {
  it('takes the whole ended days from the cache and reads the ends and today from the history', () => {
    const now = day(10) + 5 * hour;
    expect(planRange(day(3) + 2 * hour, now, now)).toEqual({
      days: [day(4), day(5), day(6), day(7), day(8), day(9)],
      pieces: [
        [day(3) + 2 * hour, day(4)],
        [day(10), now],
      ],
    });
    expect(planRange(day(3), day(5), now)).toEqual({ days: [day(3), day(4)], pieces: [] });
  });

  it('reads a range without a whole ended day straight from the history', () => {
    const now = day(10) + 5 * hour;
    expect(planRange(day(9) + hour, day(10) + hour, now)).toEqual({ days: [], pieces: [[day(9) + hour, day(10) + hour]] });
    expect(planRange(day(10), now, now)).toEqual({ days: [], pieces: [[day(10), now]] });
    expect(planRange(day(5), day(5), now)).toEqual({ days: [], pieces: [] });
  });
});

describe('addCells and toCells', () => {
  it('adds the pieces cell by cell and answers the cells row by row with their centres', () => {
    const grid = addCells([
      [
        [0, 0, 2],
        [3, 1, 1],
      ],
      [[0, 0, 5]],
      [[-1, 0, 1]],
    ]);
    const frame = { latitude: 0, longitude: 0, width: 10, length: 10, rotation: 0 };
    const { cells, total, max } = toCells(grid, 2, frame);
    expect(cells.map((c) => [c.x, c.y, c.count])).toEqual([
      [-1, 1, 1],
      [1, 1, 7],
      [7, 3, 1],
    ]);
    expect(total).toBe(9);
    expect(max).toBe(7);
    // The centre (5, 5) is the building's location: (1, 1) is south-west of it.
    expect(cells[1].lat).toBeLessThan(0);
    expect(cells[1].lng).toBeLessThan(0);
  });
});
