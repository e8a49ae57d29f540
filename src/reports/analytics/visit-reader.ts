import { Injectable } from '@nestjs/common';
import { canSeeBuilding } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ReportQueries } from '../worker/report-queries';
import { ReportWindow } from '../report-window';
import { VisitSpan } from './visit-aggregates';
import { mergeVisits, ReportFence, VISITS_PER_PAGE, visitsByFence } from './visit-rows';
import { ReportFencesRepository } from './report-fences.repository';

export type { ReportFence } from './visit-rows';
export { byEnteredAt, mergeVisits } from './visit-rows';

/**
 * Reads what the visit-based reports and analytics count: the caller's fences (buildings
 * and fences of another organization or outside the caller's building scope are 404) and
 * their visits, exactly as the evaluator wrote them with their events.
 */
@Injectable()
export class VisitReader {
  constructor(
    private readonly reportFences: ReportFencesRepository,
    private readonly reports: ReportQueries,
  ) {}

  /**
   * The fences a request covers: those of `buildingIds`, or those named by `geofenceIds`
   * (within the buildings when both are given), or every visible one. Deleted fences are
   * kept (their visits happened) and marked; a named one that is deleted is 404.
   */
  async fences(principal: Principal, selection: { buildingIds: number[]; geofenceIds: string[] }): Promise<ReportFence[]> {
    const organizationId = principal.organizationId;
    if (selection.buildingIds.length > 0) {
      const owned = new Set(await this.reportFences.liveBuildings(organizationId, selection.buildingIds));
      const missing = selection.buildingIds.find((id) => !owned.has(id) || !canSeeBuilding(principal, id));
      if (missing !== undefined) throw ApiError.notFound('Building', missing);
    }
    const rows = await this.reportFences.fences(organizationId, selection.buildingIds, selection.geofenceIds);
    const fences = rows
      .map((row) => ({
        id: String(row.id).toLowerCase(),
        name: row.name,
        code: row.code,
        buildingId: Number(row.building_id),
        floorId: Number(row.floor_id),
        deleted: Boolean(row.deleted),
      }))
      .filter((fence) => canSeeBuilding(principal, fence.buildingId));
    if (selection.geofenceIds.length > 0) {
      const live = new Set(fences.filter((fence) => !fence.deleted).map((fence) => fence.id));
      // A fence named but not found: 404 unless it exists and merely lies outside the buildings asked for.
      const missing = selection.geofenceIds.find((id) => !live.has(id));
      if (missing !== undefined && selection.buildingIds.length === 0) throw ApiError.notFound('Geofence', missing);
      if (missing !== undefined) {
        const elsewhere = await this.reportFences.buildingOfLiveFence(organizationId, missing);
        if (elsewhere === undefined || !canSeeBuilding(principal, elsewhere)) throw ApiError.notFound('Geofence', missing);
      }
      return fences.filter((fence) => !fence.deleted);
    }
    return fences;
  }

  /**
   * The visits of `fenceIds` under way at some time of the window (entered before its end, not
   * exited before its start, open ones included), ordered by `entered_at`, id: the reads the
   * report jobs make (visit-rows.ts), here through ReportQueries (off the event loop on SQLite).
   */
  async visits(organizationId: string, fenceIds: readonly string[], window: ReportWindow, pageSize = VISITS_PER_PAGE): Promise<VisitSpan[]> {
    const byFence = await this.visitsByFence(organizationId, fenceIds, window, pageSize);
    return [...mergeVisits([...byFence.values()])];
  }

  /** The same visits per fence (each list ordered by `entered_at`, id; a fence without visits has an empty list). */
  visitsByFence(organizationId: string, fenceIds: readonly string[], window: ReportWindow, pageSize = VISITS_PER_PAGE): Promise<Map<string, VisitSpan[]>> {
    return visitsByFence(this.reports.db, organizationId, fenceIds, window, pageSize);
  }
}
