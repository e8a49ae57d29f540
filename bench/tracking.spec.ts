import { describe, expect, it } from 'vitest';
import { seededRandom, SyntheticBuilding } from '../test/support/synthetic-scans';
import { BASE, oracleFix } from './radio-worlds';
import { DEFAULT_PARTICLES, ParticleOracle } from './tracking-oracle';
import { buildOffice, DEFAULT_WALK, distanceToGraph, floorChangeDelay, roomAt, roomEvents, walk, Walk } from './tracking-office';

describe('the tracking sweep office', () => {
  const office = buildOffice(2);

  it('has rooms off a corridor loop on each floor, and stairs and a lift between them', () => {
    expect(office.rooms).toHaveLength(24);
    const floorLinks = office.links.filter((link) => office.nodes.find((n) => n.id === link.source)!.floorId !== office.nodes.find((n) => n.id === link.target)!.floorId);
    expect(floorLinks.map((link) => link.tags)).toEqual([['stairs'], ['elevator']]);
    // Every room's place is inside it; no corridor node is in a room.
    for (const room of office.rooms) {
      const node = office.nodes.find((n) => n.id === room.centre)!;
      expect(roomAt(office, room.floorId, node.x, node.y)).toBe(room.name);
    }
    const placesInRooms = office.nodes.filter((node) => roomAt(office, node.floorId, node.x, node.y) !== null);
    expect(placesInRooms).toHaveLength(24);
  });

  it('walks keep to the graph, at pedestrian speeds, and change floors only at the stairs and the lift', () => {
    let changes = 0;
    const vias = new Set<string>();
    for (let seed = 1; seed <= 8; seed += 1) {
      const walked = walk(office, seededRandom(seed), { ...DEFAULT_WALK, seconds: 600 });
      expect(walked.samples).toHaveLength(600);
      walked.samples.forEach((sample, i) => {
        expect(distanceToGraph(office, sample.floorId, sample.x, sample.y)).toBeLessThanOrEqual(DEFAULT_WALK.sideM + 1e-9);
        if (i === 0) return;
        const previous = walked.samples[i - 1];
        // At most 1.6 m/s + 10 %, plus a change of side at a node.
        expect(Math.hypot(sample.x - previous.x, sample.y - previous.y)).toBeLessThanOrEqual(1.76 + 2 * DEFAULT_WALK.sideM);
        if (sample.floorId !== previous.floorId) {
          const connector = office.nodes.find(
            (node) => office.connectors.has(node.id) && node.floorId === sample.floorId && Math.hypot(node.x - sample.x, node.y - sample.y) < 1e-9,
          );
          expect(connector).toBeDefined();
        }
      });
      changes += walked.floorChanges.length;
      for (const change of walked.floorChanges) vias.add(change.via);
    }
    expect(changes).toBeGreaterThan(4);
    expect([...vias].sort()).toEqual(['elevator', 'stairs']);
  });

  it('counts an event each time the room changes, two from one room straight into another', () => {
    expect(roomEvents([null, null, 'a', 'a', null, 'b', 'c', 'c', null])).toBe(6);
    expect(roomEvents(['a', 'a', 'a'])).toBe(0);
    expect(roomEvents(['a', null, 'a', null])).toBe(3);
    expect(roomEvents([])).toBe(0);
  });
});

describe('the floor change delay', () => {
  const walked: Walk = {
    samples: [1, 1, 1, 2, 2, 2, 2, 1, 1, 1].map((floorId, t) => ({ t, floorId, x: 5, y: 5 })),
    floorChanges: [
      { t: 3, from: 1, to: 2, via: 'stairs' },
      { t: 7, from: 2, to: 1, via: 'elevator' },
    ],
  };
  const all = walked.samples.map((_, i) => i);

  it('is the longest wait for the first fix on the new floor', () => {
    expect(floorChangeDelay(walked, all, [1, 1, 1, 2, 2, 2, 2, 1, 1, 1])).toBe(0);
    expect(floorChangeDelay(walked, all, [1, 1, 1, 1, 1, 2, 2, 2, 1, 1])).toBe(2);
    // Scans not scored (nothing heard) are skipped: the first scored fix after the change counts.
    expect(floorChangeDelay(walked, [0, 1, 2, 5, 6, 7, 9], [1, 1, 1, 2, 2, 2, 1])).toBe(2);
  });

  it('is Infinity when a change never showed before the next one', () => {
    expect(floorChangeDelay(walked, all, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])).toBe(Infinity);
  });

  it('counts a change the walk ends too soon after to show as the time it had', () => {
    // The return to floor 1 at t = 7 is not shown by the last fix (t = 9): at least 3 s.
    expect(floorChangeDelay(walked, all, [1, 1, 1, 2, 2, 2, 2, 2, 2, 2])).toBe(3);
  });
});

describe('oracle B, the particle filter on the graph', () => {
  it('beats the single-scan oracle on a walker it follows', () => {
    const office = buildOffice(2);
    const building = new SyntheticBuilding({ ...BASE, floors: 2 }, 3);
    const random = seededRandom(11);
    const walked = walk(office, seededRandom(5), { ...DEFAULT_WALK, seconds: 180 });
    const filter = new ParticleOracle(building, office, seededRandom(7), { ...DEFAULT_PARTICLES, particles: 1000 });
    const a: number[] = [];
    const b: number[] = [];
    let floors = 0;
    for (const sample of walked.samples) {
      const readings = building.scanAt({ floor: sample.floorId, x: sample.x, y: sample.y }, random);
      const fix = filter.step(sample.t, readings);
      if (fix.floorId === sample.floorId) floors += 1;
      b.push(Math.hypot(fix.x - sample.x, fix.y - sample.y));
      if (sample.t % 3 === 0) {
        const single = oracleFix(building, readings, sample.floorId);
        a.push(Math.hypot(single.x - sample.x, single.y - sample.y));
      }
    }
    const median = (values: number[]) => [...values].sort((p, q) => p - q)[Math.floor(values.length / 2)];
    expect(median(b)).toBeLessThan(0.7 * median(a));
    expect(floors / walked.samples.length).toBeGreaterThan(0.97);
  });
});
