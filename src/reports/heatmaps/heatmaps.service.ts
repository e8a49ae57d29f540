import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../../access/principal';
import { BuildingsService } from '../../cartography/buildings/buildings.service';
import { FloorsService } from '../../cartography/floors/floors.service';
import { ApiError } from '../../common/errors/api-error';
import { DAY_MS } from '../../common/time/durations';
import { formatTimestamp } from '../../common/time/timestamps';
import { appConfig, AppConfig } from '../../config/app.config';
import { addCells, CellCount, DEFAULT_CELL_SIZE, planRange, toCells } from './heatmap-grid';
import { HeatmapScope, HeatmapStore } from './heatmap-store';
import { HeatmapQuery, HeatmapResponseDto } from './heatmaps.dto';

/** At most this long a range (the reports' bound). */
const MAX_RANGE_DAYS = 366;
/** Cells in one answer at most: a finer grid than this over a floor is refused, naming cell_size. */
const MAX_CELLS = 250_000;

/**
 * Density of positions per floor over a range, from the position history: fixes counted per
 * square cell of the floor's grid, in SQL. Each whole UTC day that has ended is kept in
 * `heatmap_days` once computed, with the building's fix count of that day from the position
 * rollups (kept by the ingest): while that count is unchanged the day's grid is served as
 * kept; a late fix, a deleted device or retention changes it and the day is counted again.
 * Only the range's partial days (and today) are read from the history on every request.
 */
@Injectable()
export class HeatmapsService {
  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly store: HeatmapStore,
    private readonly floors: FloorsService,
    private readonly buildings: BuildingsService,
  ) {}

  async floorHeatmap(principal: Principal, floorId: number, query: HeatmapQuery, now = Date.now()): Promise<HeatmapResponseDto> {
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (!(from < to)) throw ApiError.badRequest('from must be before to', [{ message: 'must be before to', code: 'invalid', fields: 'from' }]);
    if (to - from > MAX_RANGE_DAYS * DAY_MS)
      throw ApiError.badRequest(`The range is longer than ${MAX_RANGE_DAYS} days`, [{ message: `at most ${MAX_RANGE_DAYS} days after from`, code: 'invalid', fields: 'to' }]);
    const cellSize = query.cell_size ?? DEFAULT_CELL_SIZE;
    const floor = await this.floors.findOwned(principal, floorId);
    const building = await this.buildings.findOwned(principal, floor.buildingId);
    const scope = { organization: principal.organizationId, building: building.id, floor: floor.id, cellCm: Math.round(cellSize * 100) };

    const plan = planRange(from, to, now);
    const parts: CellCount[][] = await this.days(scope, cellSize, plan.days, now);
    if (plan.pieces.length > 0) parts.push(...(await this.store.count(scope, cellSize, plan.pieces)));
    const grid = addCells(parts);
    if (grid.size > MAX_CELLS)
      throw ApiError.validation('Too many cells for one answer', [{ message: `more than ${MAX_CELLS} cells: use a larger cell_size`, code: 'invalid', fields: 'cell_size' }]);
    return {
      floor_id: floor.id,
      building_id: building.id,
      from: formatTimestamp(new Date(from)),
      to: formatTimestamp(new Date(to)),
      cell_size: cellSize,
      ...toCells(grid, cellSize, building),
    };
  }

  /** The grids of whole ended days: kept ones whose building count still matches, the others counted and kept. */
  private async days(scope: HeatmapScope, cellSize: number, days: number[], now: number): Promise<CellCount[][]> {
    if (days.length === 0) return [];
    const first = days[0];
    const end = days[days.length - 1] + DAY_MS;
    // The building's counts are read before any grid, so a fix landing meanwhile makes the kept count stale, never the grid.
    const sums = new Map<number, number>();
    for (const row of await this.store.slotFixes(scope, first, end)) {
      const day = Math.floor(row.slot / DAY_MS) * DAY_MS;
      sums.set(day, (sums.get(day) ?? 0) + row.fixes);
    }
    const kept = await this.store.kept(scope, first, end);
    const parts: CellCount[][] = [];
    const missing: number[] = [];
    for (const day of days) {
      const fixes = sums.get(day) ?? 0;
      const cached = kept.get(day);
      if (fixes === 0) continue;
      if (cached && cached.buildingFixes === fixes) parts.push(cached.cells);
      else missing.push(day);
    }
    if (missing.length === 0) return parts;
    const counted = await this.store.count(
      scope,
      cellSize,
      missing.map((day) => [day, day + DAY_MS]),
    );
    // Days the history no longer holds are of no use.
    const dropBefore = Math.floor((now - this.config.positions.retentionDays * DAY_MS) / DAY_MS) * DAY_MS - DAY_MS;
    await this.store.keep(
      scope,
      missing.map((day, index) => ({ day, buildingFixes: sums.get(day)!, cells: counted[index] })),
      now,
      dropBefore,
    );
    return [...parts, ...counted];
  }
}
