import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../auth/principal';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError } from '../common/errors/api-error';
import { formatTimestamp } from '../common/time/timestamps';
import { appConfig, AppConfig } from '../config/app.config';
import { ReportQueries } from '../database/report-queries';
import { TransactionRunner } from '../database/transactions';
import { FloorsService } from '../floors/floors.service';
import { Dialect, timestampParameter } from '../positions/position-sql';
import { addCells, CellCount, DAY_MS, DEFAULT_CELL_SIZE, planRange, toCells } from './heatmap-grid';
import { HeatmapQuery, HeatmapResponseDto } from './heatmaps.dto';

/** At most this long a range (the reports' bound). */
const MAX_RANGE_DAYS = 366;
/** Cells in one answer at most: a finer grid than this over a floor is refused, naming cell_size. */
const MAX_CELLS = 250_000;

const GRID_SQL = `SELECT CAST(floor(x / :cell) AS INTEGER) AS cx, CAST(floor(y / :cell) AS INTEGER) AS cy, COUNT(*) AS n
  FROM position_history
  WHERE organization_id = :organization AND building_id = :building AND floor_id = :floor AND "time" >= :from AND "time" < :to AND x IS NOT NULL AND y IS NOT NULL
  GROUP BY 1, 2`;

/** Fixes per 15-minute slot of the building: a day's sum changes whenever a fix of that day is added or removed. */
const SLOT_SUMS_SQL = `SELECT slot, SUM(fixes) AS fixes FROM position_rollups
  WHERE organization_id = :organization AND building_id = :building AND slot >= :from AND slot < :to GROUP BY slot`;

interface CachedDay {
  buildingFixes: number;
  cells: CellCount[];
}

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
  private readonly dialect: Dialect;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly reads: ReportQueries,
    private readonly transactions: TransactionRunner,
    private readonly floors: FloorsService,
    private readonly buildings: BuildingsService,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  async floorHeatmap(principal: Principal, floorId: number, query: HeatmapQuery, now = Date.now()): Promise<HeatmapResponseDto> {
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (!(from < to)) throw ApiError.badRequest('from must be before to', [{ message: 'must be before to', code: 'invalid', fields: 'from' }]);
    if (to - from > MAX_RANGE_DAYS * DAY_MS) throw ApiError.badRequest(`The range is longer than ${MAX_RANGE_DAYS} days`, [{ message: `at most ${MAX_RANGE_DAYS} days after from`, code: 'invalid', fields: 'to' }]);
    const cellSize = query.cell_size ?? DEFAULT_CELL_SIZE;
    const floor = await this.floors.findOwned(principal, floorId);
    const building = await this.buildings.findOwned(principal, floor.buildingId);
    const scope = { organization: principal.organizationId, building: building.id, floor: floor.id, cellCm: Math.round(cellSize * 100) };

    const plan = planRange(from, to, now);
    const parts: CellCount[][] = await this.days(scope, cellSize, plan.days, now);
    if (plan.pieces.length > 0) parts.push(...(await this.count(scope, cellSize, plan.pieces)));
    const grid = addCells(parts);
    if (grid.size > MAX_CELLS) throw ApiError.validation('Too many cells for one answer', [{ message: `more than ${MAX_CELLS} cells: use a larger cell_size`, code: 'invalid', fields: 'cell_size' }]);
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
  private async days(scope: Scope, cellSize: number, days: number[], now: number): Promise<CellCount[][]> {
    if (days.length === 0) return [];
    const first = days[0];
    const end = days[days.length - 1] + DAY_MS;
    // The building's counts are read before any grid, so a fix landing meanwhile makes the kept count stale, never the grid.
    const sums = new Map<number, number>();
    for (const row of await this.reads.rows<{ slot: number | string; fixes: number | string }>(SLOT_SUMS_SQL, { organization: scope.organization, building: scope.building, from: first, to: end })) {
      const day = Math.floor(Number(row.slot) / DAY_MS) * DAY_MS;
      sums.set(day, (sums.get(day) ?? 0) + Number(row.fixes));
    }
    const kept = await this.kept(scope, first, end);
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
    const counted = await this.count(
      scope,
      cellSize,
      missing.map((day) => [day, day + DAY_MS]),
    );
    await this.keep(
      scope,
      missing.map((day, index) => ({ day, buildingFixes: sums.get(day)!, cells: counted[index] })),
      now,
    );
    return [...parts, ...counted];
  }

  /** Cell counts of each `[from, to)` piece, straight from the history (off the event loop on SQLite). */
  private async count(scope: Scope, cellSize: number, pieces: Array<[number, number]>): Promise<CellCount[][]> {
    const results = await this.reads.many(
      pieces.map(([from, to]) => ({
        sql: GRID_SQL,
        parameters: {
          organization: scope.organization,
          building: scope.building,
          floor: scope.floor,
          cell: cellSize,
          from: timestampParameter(this.dialect, from),
          to: timestampParameter(this.dialect, to),
        },
      })),
    );
    return results.map((rows) => (rows as Array<{ cx: number | string; cy: number | string; n: number | string }>).map((row) => [Number(row.cx), Number(row.cy), Number(row.n)] as CellCount));
  }

  private async kept(scope: Scope, from: number, to: number): Promise<Map<number, CachedDay>> {
    const rows = (await this.dataSource.query(
      ...this.escape('SELECT day, building_fixes, cells FROM heatmap_days WHERE organization_id = :organization AND floor_id = :floor AND cell_cm = :cellCm AND day >= :from AND day < :to', {
        organization: scope.organization,
        floor: scope.floor,
        cellCm: scope.cellCm,
        from,
        to,
      }),
    )) as Array<{ day: number | string; building_fixes: number | string; cells: string }>;
    return new Map(rows.map((row) => [Number(row.day), { buildingFixes: Number(row.building_fixes), cells: JSON.parse(row.cells) as CellCount[] }]));
  }

  /** Keeps counted days (another instance may keep the same day at the same time: the last write wins, both are right). */
  private async keep(scope: Scope, days: Array<{ day: number; buildingFixes: number; cells: CellCount[] }>, now: number): Promise<void> {
    const retentionStart = Math.floor((now - this.config.positions.retentionDays * DAY_MS) / DAY_MS) * DAY_MS - DAY_MS;
    await this.transactions.run(async (manager) => {
      for (const entry of days) {
        await manager.query(
          ...this.escape(
            `INSERT INTO heatmap_days (organization_id, floor_id, cell_cm, day, building_fixes, cells, computed_at)
             VALUES (:organization, :floor, :cellCm, :day, :fixes, :cells, :now)
             ON CONFLICT (organization_id, floor_id, cell_cm, day) DO UPDATE SET building_fixes = excluded.building_fixes, cells = excluded.cells, computed_at = excluded.computed_at`,
            { organization: scope.organization, floor: scope.floor, cellCm: scope.cellCm, day: entry.day, fixes: entry.buildingFixes, cells: JSON.stringify(entry.cells), now },
          ),
        );
      }
      // Days the history no longer holds are of no use.
      await manager.query(...this.escape('DELETE FROM heatmap_days WHERE organization_id = :organization AND day < :before', { organization: scope.organization, before: retentionStart }));
    });
  }

  private escape(sql: string, parameters: Record<string, unknown>): [string, unknown[]] {
    return this.transactions.escape(sql, parameters);
  }
}

interface Scope {
  organization: string;
  building: number;
  floor: number;
  cellCm: number;
}
