import { describe, expect, it } from 'vitest';
import { SESSION_GAP_MS, sessionMarks } from './session-mark';

const at = (seconds: number) => Date.UTC(2026, 0, 1) + seconds * 1000;

describe('sessionMarks', () => {
  it('numbers one steady track as session 1', () => {
    const rows = [0, 5, 10, 70].map((s) => ({ deviceId: 'a', time: at(s), buildingId: 1 }));
    expect(sessionMarks(rows)).toEqual([1, 1, 1, 1]);
  });

  it('starts a new session after more than 60 s without fixes, not at exactly 60 s', () => {
    const rows = [0, 60, 121, 130, 300].map((s) => ({ deviceId: 'a', time: at(s), buildingId: 1 }));
    expect(sessionMarks(rows)).toEqual([1, 1, 2, 2, 3]);
  });

  it('starts a new session when the building changes, even without a gap', () => {
    const rows = [
      { deviceId: 'a', time: at(0), buildingId: 1 },
      { deviceId: 'a', time: at(1), buildingId: 2 },
      { deviceId: 'a', time: at(2), buildingId: 2 },
      { deviceId: 'a', time: at(3), buildingId: null },
      { deviceId: 'a', time: at(4), buildingId: 1 },
    ];
    expect(sessionMarks(rows)).toEqual([1, 2, 2, 3, 4]);
  });

  it('numbers each device on its own from 1', () => {
    const rows = [
      { deviceId: 'a', time: at(0), buildingId: 1 },
      { deviceId: 'a', time: at(500), buildingId: 1 },
      { deviceId: 'b', time: at(0), buildingId: 1 },
      { deviceId: 'b', time: at(10), buildingId: 1 },
    ];
    expect(sessionMarks(rows)).toEqual([1, 2, 1, 1]);
  });

  it('takes another gap and handles no rows', () => {
    expect(sessionMarks([])).toEqual([]);
    const rows = [0, 20].map((s) => ({ deviceId: 'a', time: at(s), buildingId: 1 }));
    expect(sessionMarks(rows, 10_000)).toEqual([1, 2]);
    expect(SESSION_GAP_MS).toBe(60_000);
  });
});
