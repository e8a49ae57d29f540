/** A gap longer than this without fixes starts a new positioning session (contract 6.3). */
export const SESSION_GAP_MS = 60_000;

export interface SessionInput {
  deviceId: string;
  time: number;
  buildingId: number | null;
}

/** Where a device's track stands: its last fix and the session mark it carries. */
export interface SessionTrack {
  time: number;
  buildingId: number | null;
  mark: number;
}

/**
 * The device's next fix, in time order: its first fix starts session 1 (a new track), a gap
 * of more than `gapMs` or a change of building starts the next session. `track` is moved on
 * in place (this runs once per row of a trajectory download) and returned.
 */
export function nextSessionFix(track: SessionTrack | undefined, time: number, buildingId: number | null, gapMs = SESSION_GAP_MS): SessionTrack {
  if (!track) return { time, buildingId, mark: 1 };
  if (time - track.time > gapMs || buildingId !== track.buildingId) track.mark++;
  track.time = time;
  track.buildingId = buildingId;
  return track;
}

/**
 * `session_mark` of the trajectory report: each device's sessions numbered from 1, a new
 * one after more than 60 s without fixes or when the building changes. `rows` must be
 * ordered by device, then time; the marks come back in the same order.
 */
export function sessionMarks(rows: ReadonlyArray<SessionInput>, gapMs = SESSION_GAP_MS): number[] {
  let track: SessionTrack | undefined;
  return rows.map((row, i) => {
    if (i > 0 && rows[i - 1].deviceId !== row.deviceId) track = undefined;
    track = nextSessionFix(track, row.time, row.buildingId, gapMs);
    return track.mark;
  });
}
