import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { SqlDialect } from '../../database/sql-dialect';
import { SqlRunner } from '../../database/sql-runner';
import { statement } from '../../database/statements';
import { TransactionRunner } from '../../database/transactions';
import { ReportQueries } from '../worker/report-queries';
import { CellCount } from './heatmap-grid';

const GRID_SQL = statement(
  'heatmaps.grid',
  `SELECT CAST(floor(x / :cell) AS INTEGER) AS cx, CAST(floor(y / :cell) AS INTEGER) AS cy, COUNT(*) AS n
  FROM position_history
  WHERE organization_id = :organization AND building_id = :building AND floor_id = :floor AND "time" >= :from AND "time" < :to AND x IS NOT NULL AND y IS NOT NULL
  GROUP BY 1, 2`,
);

/** Fixes per 15-minute slot of the building: a day's sum changes whenever a fix of that day is added or removed. */
const SLOT_SUMS_SQL = statement(
  'heatmaps.slot-sums',
  `SELECT slot, SUM(fixes) AS fixes FROM position_rollups
  WHERE organization_id = :organization AND building_id = :building AND slot >= :from AND slot < :to GROUP BY slot`,
);
const KEPT = statement(
  'heatmaps.kept',
  'SELECT day, building_fixes, cells FROM heatmap_days WHERE organization_id = :organization AND floor_id = :floor AND cell_cm = :cellCm AND day >= :from AND day < :to',
);
const KEEP = statement(
  'heatmaps.keep',
  `INSERT INTO heatmap_days (organization_id, floor_id, cell_cm, day, building_fixes, cells, computed_at)
             VALUES (:organization, :floor, :cellCm, :day, :fixes, :cells, :now)
             ON CONFLICT (organization_id, floor_id, cell_cm, day) DO UPDATE SET building_fixes = excluded.building_fixes, cells = excluded.cells, computed_at = excluded.computed_at`,
);
const DROP_BEFORE = statement('heatmaps.drop-before', 'DELETE FROM heatmap_days WHERE organization_id = :organization AND day < :before');

/** A floor's grid of one cell size (`cellCm`) in a building of an organization. */
export interface HeatmapScope {
  organization: string;
  building: number;
  floor: number;
  cellCm: number;
}

/** A whole day's grid as kept, with the building's fix count it was counted at. */
export interface KeptDay {
  buildingFixes: number;
  cells: CellCount[];
}

/**
 * Every statement of the heatmaps: the grid counted from the position history (on the reports'
 * worker, off the event loop on SQLite), the building's fixes per slot from the position rollups,
 * and the kept days in `heatmap_days`.
 */
@Injectable()
export class HeatmapStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dialect: SqlDialect,
    private readonly reads: ReportQueries,
    private readonly transactions: TransactionRunner,
    private readonly sql: SqlRunner,
  ) {}

  /** The building's fixes per 15-minute slot in `[from, to)`. */
  async slotFixes(scope: HeatmapScope, from: number, to: number): Promise<Array<{ slot: number; fixes: number }>> {
    const rows = await this.reads.rows<{ slot: number | string; fixes: number | string }>(SLOT_SUMS_SQL, { organization: scope.organization, building: scope.building, from, to });
    return rows.map((row) => ({ slot: Number(row.slot), fixes: Number(row.fixes) }));
  }

  /** Cell counts of each `[from, to)` piece, straight from the history. */
  async count(scope: HeatmapScope, cellSize: number, pieces: ReadonlyArray<[number, number]>): Promise<CellCount[][]> {
    const results = await this.reads.many(
      pieces.map(([from, to]) => ({
        sql: GRID_SQL,
        parameters: {
          organization: scope.organization,
          building: scope.building,
          floor: scope.floor,
          cell: cellSize,
          from: this.dialect.timestamp(from),
          to: this.dialect.timestamp(to),
        },
      })),
    );
    return results.map((rows) =>
      (rows as Array<{ cx: number | string; cy: number | string; n: number | string }>).map((row) => [Number(row.cx), Number(row.cy), Number(row.n)] as CellCount),
    );
  }

  /** The kept days in `[from, to)`, by day. */
  async kept(scope: HeatmapScope, from: number, to: number): Promise<Map<number, KeptDay>> {
    const rows = await this.sql.query<{ day: number | string; building_fixes: number | string; cells: string }>(this.dataSource.manager, KEPT, {
      organization: scope.organization,
      floor: scope.floor,
      cellCm: scope.cellCm,
      from,
      to,
    });
    return new Map(rows.map((row) => [Number(row.day), { buildingFixes: Number(row.building_fixes), cells: JSON.parse(row.cells) as CellCount[] }]));
  }

  /**
   * Keeps counted days, and drops the organization's days before `dropBefore` (the history no
   * longer holds them). Another instance may keep the same day at the same time: the last write
   * wins, both are right.
   */
  async keep(scope: HeatmapScope, days: ReadonlyArray<{ day: number } & KeptDay>, now: number, dropBefore: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      for (const entry of days) {
        await this.sql.query(manager, KEEP, {
          organization: scope.organization,
          floor: scope.floor,
          cellCm: scope.cellCm,
          day: entry.day,
          fixes: entry.buildingFixes,
          cells: JSON.stringify(entry.cells),
          now,
        });
      }
      await this.sql.query(manager, DROP_BEFORE, { organization: scope.organization, before: dropBefore });
    });
  }
}
