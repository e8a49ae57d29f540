/** A gap longer than this without fixes starts a new positioning session (contract 6.3). */
export const SESSION_GAP_MS = 60_000;

export interface SessionInput {
  deviceId: string;
  time: number;
  buildingId: number | null;
}

/**
 * `session_mark` of the trajectory report: each device's sessions numbered from 1, a new
 * one after more than 60 s without fixes or when the building changes. `rows` must be
 * ordered by device, then time; the marks come back in the same order.
 */
export function sessionMarks(rows: ReadonlyArray<SessionInput>, gapMs = SESSION_GAP_MS): number[] {
  const marks: number[] = new Array(rows.length);
  let mark = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const previous = i > 0 ? rows[i - 1] : undefined;
    if (!previous || previous.deviceId !== row.deviceId) mark = 1;
    else if (row.time - previous.time > gapMs || row.buildingId !== previous.buildingId) mark++;
    marks[i] = mark;
  }
  return marks;
}
