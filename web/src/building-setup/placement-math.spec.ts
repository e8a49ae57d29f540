import { describe, expect, it } from 'vitest';
import { corners, dragCorner, dragRotation, fitAnchors, Placement, planPoint, rotationHandle, toLocal } from './placement-math';

const place: Placement = { lat: 42.88, lng: -8.54, width: 40, length: 20, rotation: 0 };
const close = (a: number[], b: number[], digits = 7) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i], digits));

describe('placing a building on the map', () => {
  it('drags a corner with the opposite one fixed', () => {
    const [, , ne] = corners(place);
    const sw = corners(place)[0];
    const farther = planPoint({ ...place, width: 50, length: 30 }, 0, 0);
    // Drag the north-east corner 10 m east and 10 m north: 50 × 30 around the same south-west corner.
    const moved = dragCorner(place, 2, [ne[0] + (10 / 40) * (ne[0] - sw[0]), ne[1] + (10 / 20) * (ne[1] - sw[1])]);
    expect([moved.width, moved.length]).toEqual([50, 30]);
    close(corners(moved)[0], sw);
    expect(farther).toBeDefined();
  });

  it('turns the plan so its top points at the handle', () => {
    const east = planPoint(place, 60, 10);
    const turned = dragRotation(place, east);
    expect(turned.rotation).toBeCloseTo(-Math.PI / 2, 6);
    expect(rotationHandle(place)[1]).toBeGreaterThan(place.lat);
  });

  it('fits two anchor points of the image to two points of the map', () => {
    const target: Placement = { lat: 42.88, lng: -8.54, width: 40, length: 20, rotation: 0.4 };
    const image = { width: 800, height: 400 };
    // The image's top-left and bottom-right corners, where the target places them.
    const fitted = fitAnchors(image, [0, 0], [1, 1], planPoint(target, 0, 20), planPoint(target, 40, 0))!;
    expect(fitted.width).toBeCloseTo(40, 1);
    expect(fitted.length).toBeCloseTo(20, 1);
    expect(fitted.rotation).toBeCloseTo(0.4, 6);
    close(toLocal(target, [fitted.lng, fitted.lat]), [0, 0], 3);
    expect(fitAnchors(image, [0.5, 0.5], [0.5, 0.5], [0, 0], [1, 1])).toBeNull();
  });

  it('places a building across the antimeridian with longitudes kept in -180 to 180, as the server does', () => {
    const across: Placement = { lat: -16.5, lng: 179.9999, width: 40, length: 20, rotation: 0 };
    const [sw, se, ne, nw] = corners(across);
    for (const [lng] of [sw, se, ne, nw]) {
      expect(lng).toBeGreaterThanOrEqual(-180);
      expect(lng).toBeLessThan(180);
    }
    expect(se[0]).toBeLessThan(-179.99);
    expect(sw[0]).toBeGreaterThan(179.99);
    // Dragging the eastern corner a little further east (past the antimeridian) widens the plan by metres, not by the globe.
    const moved = dragCorner(across, 1, [se[0] + (10 / 40) * (se[0] + 360 - sw[0]), se[1]]);
    expect(moved.width).toBeCloseTo(50, 1);
    expect(moved.length).toBeCloseTo(20, 1);
  });
});
