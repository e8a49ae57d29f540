import { describe, expect, it } from 'vitest';
import { placeLabels } from './label-placement';

describe('placeLabels', () => {
  it('puts a label right of its dot, left of it near the right edge, and hides one with no room', () => {
    const size = { width: 50, height: 14 };
    const sides = placeLabels(
      [
        { id: 'a', x: 10, y: 20, ...size },
        { id: 'b', x: 12, y: 22, ...size },
        { id: 'c', x: 190, y: 60, ...size },
        { id: 'd', x: 100, y: 3, ...size },
      ],
      200,
      100,
    );
    expect(Object.fromEntries(sides)).toEqual({ a: 'right', b: null, c: 'left', d: null });
  });

  it('keeps a pixel between labels whose fractional boxes would touch or cover a sub-pixel', () => {
    const size = { width: 50.4, height: 14.6 };
    // b's box starts 0.5 px below a's: hidden on both sides; c's starts 1.2 px below: placed.
    const sides = placeLabels(
      [
        { id: 'a', x: 10, y: 20, ...size },
        { id: 'b', x: 10, y: 20 + 14.6 + 0.5, ...size },
        { id: 'c', x: 100, y: 20, ...size },
        { id: 'd', x: 100, y: 20 + 14.6 + 1.2, ...size },
      ],
      300,
      100,
    );
    expect(Object.fromEntries(sides)).toEqual({ a: 'right', b: null, c: 'right', d: 'right' });
  });
});
