import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { canSeeBuilding } from '../../auth/building-scope';
import { Principal } from '../../auth/principal';
import { ApiError } from '../../common/errors/api-error';
import { ReportQueries } from '../../database/report-queries';
import { TransactionRunner } from '../../database/transactions';
import { Dialect, epochMsColumn, timestampParameter } from '../../positions/position-sql';
import { ReportWindow } from '../../reports/report-window';
import { VisitSpan } from './visit-aggregates';

export interface ReportFence {
  id: string;
  name: string;
  code: string;
  buildingId: number;
  floorId: number;
  deleted: boolean;
}

/**
 * Reads what the visit-based reports and analytics count: the caller's fences (buildings
 * and fences of another organization or outside the caller's building scope are 404) and
 * their visits, exactly as the evaluator wrote them with their events.
 */
@Injectable()
export class VisitReader {
  private readonly dialect: Dialect;
  /** The visit columns, times as epoch milliseconds computed by the database (no date parsing per row here). */
  private readonly columns: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly reports: ReportQueries,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.columns = visitColumns(this.dialect);
  }

  private query<T>(sql: string, parameters: Record<string, unknown>): Promise<T[]> {
    return this.dataSource.query(...this.transactions.escape(sql, parameters)) as Promise<T[]>;
  }

  /**
   * The fences a request covers: those of `buildingIds`, or those named by `geofenceIds`
   * (within the buildings when both are given), or every visible one. Deleted fences are
   * kept (their visits happened) and marked; a named one that is deleted is 404.
   */
  async fences(principal: Principal, selection: { buildingIds: number[]; geofenceIds: string[] }): Promise<ReportFence[]> {
    const organizationId = principal.organizationId;
    if (selection.buildingIds.length > 0) {
      const found = await this.query<{ id: number }>(
        'SELECT id FROM buildings WHERE organization_id = :organizationId AND deleted_at IS NULL AND id IN (:...ids)',
        { organizationId, ids: selection.buildingIds },
      );
      const owned = new Set(found.map((row) => Number(row.id)));
      const missing = selection.buildingIds.find((id) => !owned.has(id) || !canSeeBuilding(principal, id));
      if (missing !== undefined) throw ApiError.notFound('Building', missing);
    }
    const conditions = ['organization_id = :organizationId'];
    const parameters: Record<string, unknown> = { organizationId };
    if (selection.buildingIds.length > 0) {
      conditions.push('building_id IN (:...buildingIds)');
      parameters.buildingIds = selection.buildingIds;
    }
    if (selection.geofenceIds.length > 0) {
      conditions.push('id IN (:...geofenceIds)');
      parameters.geofenceIds = selection.geofenceIds;
    }
    const rows = await this.query<{ id: string; name: string; code: string; building_id: number; floor_id: number; deleted: boolean | number }>(
      `SELECT id, name, code, building_id, floor_id, deleted FROM geofences WHERE ${conditions.join(' AND ')} ORDER BY id`,
      parameters,
    );
    const fences = rows
      .map((row) => ({ id: String(row.id).toLowerCase(), name: row.name, code: row.code, buildingId: Number(row.building_id), floorId: Number(row.floor_id), deleted: Boolean(row.deleted) }))
      .filter((fence) => canSeeBuilding(principal, fence.buildingId));
    if (selection.geofenceIds.length > 0) {
      const live = new Set(fences.filter((fence) => !fence.deleted).map((fence) => fence.id));
      // A fence named but not found: 404 unless it exists and merely lies outside the buildings asked for.
      const missing = selection.geofenceIds.find((id) => !live.has(id));
      if (missing !== undefined && selection.buildingIds.length === 0) throw ApiError.notFound('Geofence', missing);
      if (missing !== undefined) {
        const [elsewhere] = await this.query<{ building_id: number }>(
          'SELECT building_id FROM geofences WHERE organization_id = :organizationId AND id = :id AND deleted = :deleted',
          { organizationId, id: missing, deleted: this.dialect === 'postgres' ? false : 0 },
        );
        if (!elsewhere || !canSeeBuilding(principal, Number(elsewhere.building_id))) throw ApiError.notFound('Geofence', missing);
      }
      return fences.filter((fence) => !fence.deleted);
    }
    return fences;
  }

  /**
   * The visits of `fenceIds` under way at some time of the window: entered before its end
   * and not exited before its start (open ones included), ordered by `entered_at`, id. Per
   * fence, two index ranges: the visits begun in the window in keyset pages on
   * (geofence_id, entered_at), and the older ones still under way at its start on
   * (geofence_id, exited_at). The reads go through ReportQueries (off the event loop on
   * SQLite), the first ones of FENCES_PER_READ fences in one call.
   */
  async visits(organizationId: string, fenceIds: readonly string[], window: ReportWindow, pageSize = VISITS_PER_PAGE): Promise<VisitSpan[]> {
    const byFence = await this.visitsByFence(organizationId, fenceIds, window, pageSize);
    return [...mergeVisits([...byFence.values()])];
  }

  /** The same visits per fence (each list ordered by `entered_at`, id; a fence without visits has an empty list). */
  async visitsByFence(organizationId: string, fenceIds: readonly string[], window: ReportWindow, pageSize = VISITS_PER_PAGE): Promise<Map<string, VisitSpan[]>> {
    const byFence = new Map<string, VisitSpan[]>(fenceIds.map((id) => [id, []]));
    const from = timestampParameter(this.dialect, window.fromMs);
    const to = timestampParameter(this.dialect, window.toMs);
    const older = `SELECT ${this.columns} FROM geofence_visits
      WHERE geofence_id = :fenceId AND organization_id = :organizationId AND entered_at < :from AND (exited_at >= :from OR exited_at IS NULL)`;
    const firstPage = `SELECT ${this.columns} FROM geofence_visits
      WHERE geofence_id = :fenceId AND organization_id = :organizationId AND entered_at >= :from AND entered_at < :to
      ORDER BY entered_at, id LIMIT :limit`;
    const nextPage = `SELECT ${this.columns} FROM geofence_visits
      WHERE geofence_id = :fenceId AND organization_id = :organizationId AND entered_at >= :afterAt AND entered_at < :to
        AND (entered_at > :afterAt OR id > :afterId)
      ORDER BY entered_at, id LIMIT :limit`;
    // Per group of fences, their older visits and first pages in one call; a fence with more goes on page by page.
    const readGroup = async (group: readonly string[]) => {
      const results = (await this.reports.many([
        ...group.map((fenceId) => ({ sql: older, parameters: { fenceId, organizationId, from } })),
        ...group.map((fenceId) => ({ sql: firstPage, parameters: { fenceId, organizationId, from, to, limit: pageSize } })),
      ])) as VisitRow[][];
      for (let index = 0; index < group.length; index++) {
        const fenceId = group[index];
        const visits = byFence.get(fenceId)!;
        for (const row of results[index]) visits.push(toVisitSpan(row));
        visits.sort(byEnteredAt);
        let page = results[group.length + index];
        for (;;) {
          let last: VisitSpan | undefined;
          for (const row of page) visits.push((last = toVisitSpan(row)));
          if (page.length < pageSize || !last) break;
          // Reads on the main connection (in-memory SQLite) answer synchronously: give the event loop a turn.
          if (!this.reports.offThread) await new Promise((resolve) => setImmediate(resolve));
          const afterAt = timestampParameter(this.dialect, last.enteredAt);
          page = await this.reports.rows<VisitRow>(nextPage, { fenceId, organizationId, to, limit: pageSize, afterAt, afterId: last.id });
        }
      }
    };
    const groups: string[][] = [];
    for (let offset = 0; offset < fenceIds.length; offset += FENCES_PER_READ) groups.push(fenceIds.slice(offset, offset + FENCES_PER_READ));
    let next = 0;
    // Two groups at once: one is read while the other's rows are taken in.
    await Promise.all(
      Array.from({ length: Math.min(2, groups.length) }, async () => {
        while (next < groups.length) await readGroup(groups[next++]);
      }),
    );
    return byFence;
  }
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

interface VisitRow {
  id: string;
  geofence_id: string;
  device_id: string;
  user_id: string | null;
  entered_ms: number;
  exited_ms: number | null;
  exit_reason: string | null;
}

const visitColumns = (dialect: Dialect): string =>
  `id, geofence_id, device_id, user_id, ${epochMsColumn(dialect, 'entered_at')} AS entered_ms, ${epochMsColumn(dialect, 'exited_at')} AS exited_ms, exit_reason`;
/** Visits per keyset page: a few ms of work each, so ingest waits at most that long. */
const VISITS_PER_PAGE = 5000;
/** Fences whose first reads go in one ReportQueries call (one worker round trip on SQLite): about 5,000 visits in the benchmark's month. */
const FENCES_PER_READ = 20;

function toVisitSpan(row: VisitRow): VisitSpan {
  return {
    id: row.id,
    fenceId: String(row.geofence_id).toLowerCase(),
    deviceId: String(row.device_id),
    userId: row.user_id === null ? null : String(row.user_id).toLowerCase(),
    enteredAt: Number(row.entered_ms),
    exitedAt: row.exited_ms === null ? null : Number(row.exited_ms),
    exitReason: row.exit_reason,
  };
}
