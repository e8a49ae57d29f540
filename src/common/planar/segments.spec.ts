import { describe, expect, it } from 'vitest';
import { segmentDistance, segmentDistance2 } from './segments';

describe('segment distances', () => {
  it('measures to the nearest point of the segment: inside it, past either end, and to a segment of one point', () => {
    expect(segmentDistance(5, 3, 0, 0, 10, 0)).toBeCloseTo(3, 12);
    expect(segmentDistance(-3, 4, 0, 0, 10, 0)).toBeCloseTo(5, 12);
    expect(segmentDistance(13, -4, 0, 0, 10, 0)).toBeCloseTo(5, 12);
    expect(segmentDistance2(1, 1, 2, 2, 2, 2)).toBeCloseTo(2, 12);
    // Either direction of the segment gives the same distance.
    expect(segmentDistance(3, 7, 10, 2, -1, 5)).toBeCloseTo(segmentDistance(3, 7, -1, 5, 10, 2), 12);
  });
});
