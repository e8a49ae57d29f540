import { setImmediate as nextTurn } from 'node:timers/promises';
import { ReportDb } from '../worker/report-db';
import { ReportWindow } from '../report-window';
import { VisitSpan } from './visit-aggregates';
import { firstVisitsPage, nextVisitsPage, VisitArray, visitsUnderWayAtStart } from './report-visits-store';

/*
 * Visits as the reports read them, in plain code (no Nest, no TypeORM): the report worker
 * reads them here, through its own connection.
 */

/** A fence a report covers, with what its rows show. */
export interface ReportFence {
  id: string;
  name: string;
  code: string;
  buildingId: number;
  floorId: number;
  deleted: boolean;
}

/** Visits per keyset page: a few ms of work each. */
export const VISITS_PER_PAGE = 5000;
/** Fences read at once on PostgreSQL (the worker's pool has two connections); SQLite answers at once. */
const FENCES_IN_FLIGHT = 2;

/** A visit row as read (report-visits-store.ts). */
export function visitFromArray(row: unknown[]): VisitSpan {
  const [id, fenceId, deviceId, userId, enteredMs, exitedMs, exitReason] = row as VisitArray;
  return {
    id: String(id),
    fenceId: String(fenceId).toLowerCase(),
    deviceId: String(deviceId),
    userId: userId === null ? null : String(userId).toLowerCase(),
    enteredAt: Number(enteredMs),
    exitedAt: exitedMs === null ? null : Number(exitedMs),
    exitReason,
  };
}

/**
 * The visits of `fenceIds` under way at some time of the window (entered before its end, not
 * exited before its start, open ones included), per fence, each list ordered by
 * `entered_at`, id: per fence two index ranges, the visits begun in the window in keyset
 * pages on (geofence_id, entered_at) and the older ones still under way at its start on
 * (geofence_id, exited_at).
 */
export async function visitsByFence(
  db: ReportDb,
  organizationId: string,
  fenceIds: readonly string[],
  window: ReportWindow,
  pageSize = VISITS_PER_PAGE,
): Promise<Map<string, VisitSpan[]>> {
  const byFence = new Map<string, VisitSpan[]>(fenceIds.map((id) => [id, []]));
  const from = db.dialect.timestamp(window.fromMs);
  const to = db.dialect.timestamp(window.toMs);
  const readFence = async (fenceId: string) => {
    const visits = byFence.get(fenceId)!;
    const [before, first] = await Promise.all([
      visitsUnderWayAtStart(db, { fenceId, organizationId, from }),
      firstVisitsPage(db, { fenceId, organizationId, from, to, limit: pageSize }),
    ]);
    for (const row of before) visits.push(visitFromArray(row));
    visits.sort(byEnteredAt);
    let page = first;
    for (;;) {
      let last: VisitSpan | undefined;
      for (const row of page) visits.push((last = visitFromArray(row)));
      if (page.length < pageSize || !last) break;
      page = await nextVisitsPage(db, { fenceId, organizationId, to, limit: pageSize, afterAt: db.dialect.timestamp(last.enteredAt), afterId: last.id });
    }
  };
  let next = 0;
  let sliceStart = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(FENCES_IN_FLIGHT, fenceIds.length) }, async () => {
      while (next < fenceIds.length) {
        await readFence(fenceIds[next++]);
        // Where this runs on the main connection (in-memory SQLite), what waits is served between fences.
        if (performance.now() - sliceStart > 8) {
          await nextTurn();
          sliceStart = performance.now();
        }
      }
    }),
  );
  return byFence;
}

/** Visits in report order: `entered_at`, then id. */
export const byEnteredAt = (a: VisitSpan, b: VisitSpan): number => a.enteredAt - b.enteredAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Lists each in report order, merged into one in report order as it is consumed (a heap of
 * the lists' heads): a report streams its rows without sorting all the visits at once.
 */
export function* mergeVisits(lists: ReadonlyArray<readonly VisitSpan[]>): Generator<VisitSpan> {
  const heads = lists.filter((list) => list.length > 0).map((list) => ({ list, next: 0 }));
  const before = (a: (typeof heads)[number], b: (typeof heads)[number]) => byEnteredAt(a.list[a.next], b.list[b.next]) < 0;
  const down = (index: number) => {
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heads.length && before(heads[left], heads[smallest])) smallest = left;
      if (right < heads.length && before(heads[right], heads[smallest])) smallest = right;
      if (smallest === index) return;
      [heads[index], heads[smallest]] = [heads[smallest], heads[index]];
      index = smallest;
    }
  };
  for (let index = (heads.length >> 1) - 1; index >= 0; index--) down(index);
  while (heads.length > 0) {
    const head = heads[0];
    yield head.list[head.next++];
    if (head.next === head.list.length) {
      const last = heads.pop()!;
      if (heads.length === 0) break;
      heads[0] = last;
    }
    down(0);
  }
}
