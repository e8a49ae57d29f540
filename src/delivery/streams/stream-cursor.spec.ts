import { describe, expect, it } from 'vitest';
import { ChangeTracker, parseWatermark } from './stream-cursor';

const row = (id: string, changedAt: number) => ({ id, changedAt });

describe('parseWatermark', () => {
  it('takes the ids the stream sends and nothing else', () => {
    expect(parseWatermark('1795400012005')).toBe(1795400012005);
    expect(parseWatermark('0')).toBe(0);
    for (const bad of ['', '-1', '1.5', 'evt_1', '12 ', '9'.repeat(16)]) expect(parseWatermark(bad)).toBeNull();
  });
});

describe('ChangeTracker', () => {
  it('first read: rows at or before the watermark are known already; later ones are sent and move it', () => {
    const tracker = new ChangeTracker(1000, 500);
    expect(tracker.readFrom).toBe(500);
    expect(tracker.select([row('a', 900), row('b', 1000), row('c', 1001), row('d', 1200)]).map((r) => r.id)).toEqual(['c', 'd']);
    expect(tracker.current).toBe(1200);
    expect(tracker.readFrom).toBe(700);
  });

  it('a read overlapping the last sends nothing twice, but a row committed late inside the window is sent', () => {
    const tracker = new ChangeTracker(1000, 500);
    tracker.select([row('c', 1100)]);
    // 'late' was stamped at 1050 but became visible only now; 'c' again is the same change.
    expect(tracker.select([row('late', 1050), row('c', 1100), row('e', 1300)]).map((r) => r.id)).toEqual(['late', 'e']);
    expect(tracker.current).toBe(1300);
    // A new change of an already-sent device is sent again.
    expect(tracker.select([row('c', 1100), row('e', 1300), row('c', 1400)]).map((r) => `${r.id}@${r.changedAt}`)).toEqual(['c@1400']);
  });

  it('forgets what falls out of the window, so memory stays bounded by it', () => {
    const tracker = new ChangeTracker(0, 100);
    tracker.select([row('a', 10)]);
    tracker.select([row('b', 1000)]);
    // 'a' at 10 is far outside the window now: a read from before it would send it again, but reads never start there.
    expect(tracker.readFrom).toBe(900);
    expect(tracker.select([row('b', 1000)])).toEqual([]);
  });

  it('a read that saw later changes, none of them its own, moves the watermark on; what is older than the window is never sent again', () => {
    const tracker = new ChangeTracker(1000, 500);
    tracker.select([]);
    tracker.seen(5000);
    expect(tracker.current).toBe(5000);
    expect(tracker.readFrom).toBe(4500);
    // A shared read from further back (another stream's window) holds rows before this one's window.
    expect(tracker.select([row('old', 2000), row('new', 5100)]).map((r) => r.id)).toEqual(['new']);
    tracker.seen(100);
    expect(tracker.current).toBe(5100);
  });
});
