import { Inject, Injectable } from '@nestjs/common';
import { Principal } from '../access/principal';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { appConfig, AppConfig } from '../config/app.config';
import { BuildingReportsRepository } from './building-reports.repository';
import { positionedStatistics, SLOT_MS } from '../positions/position-rollup-math';
import { BuildingReportQuery } from './building-reports.dto';
import { ReportColumn } from './report-envelope';
import { bucketIndex, bucketStarts, formatReportTime, Grouping, parseGrouping, parseReportWindow, REPORT_GROUPINGS, ReportWindow } from './report-window';
import { enforceOutputCap, ReportStream, reportFromRows } from './report-stream';

export interface VisitorsRow {
  date: string;
  visitors: number;
}
export interface PositioningTimeRow {
  timestamp: number;
  total: number;
  avg: number;
  std: number;
}

export const VISITORS_COLUMNS: ReadonlyArray<ReportColumn<VisitorsRow>> = [
  { name: 'date', type: 'String' },
  { name: 'visitors', type: 'UInt64' },
];
export const POSITIONING_TIME_COLUMNS: ReadonlyArray<ReportColumn<PositioningTimeRow>> = [
  { name: 'timestamp', type: 'UInt32' },
  { name: 'total', type: 'Float64' },
  { name: 'avg', type: 'Float64' },
  { name: 'std', type: 'Float64' },
];

/** A rollup row as read: 8 bytes of slot, 8 of positioned time, the device id. */
const ROLLUP_ROW_BYTES = 16;

/** Per bucket, each device seen in it with the milliseconds it was positioned. */
interface Aggregation {
  window: ReportWindow;
  grouping: Grouping;
  starts: number[];
  devices: Array<Map<string, number>>;
  rowsRead: number;
  bytesRead: number;
  startedAt: number;
}

/**
 * `visitors` and `positioning_time` (contract 8.1), from the position rollups: one range
 * read of (organization, building, slot) on the rollup key, aggregated per local bucket.
 * Slots are 15 minutes of UTC, so every bucket of every zone is made of whole slots; a
 * date-time bound inside a slot takes the slot it falls in.
 */
@Injectable()
export class BuildingReports {
  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly rollups: BuildingReportsRepository,
    private readonly buildings: BuildingsService,
  ) {}

  /** `{date, visitors}`: distinct devices with a fix in the building per bucket (every bucket, empty ones as 0). */
  async visitors(principal: Principal, query: BuildingReportQuery): Promise<ReportStream<VisitorsRow>> {
    const run = await this.aggregate(principal, query);
    const rows = run.starts.map((start, index) => ({ date: formatReportTime(start, run.window.zone), visitors: run.devices[index].size }));
    return reportFromRows(VISITORS_COLUMNS, rows, { rowsRead: run.rowsRead, bytesRead: run.bytesRead }, run.startedAt);
  }

  /** `{timestamp, total, avg, std}`: seconds positioned per device in each bucket, summed and spread over the devices seen. */
  async positioningTime(principal: Principal, query: BuildingReportQuery): Promise<ReportStream<PositioningTimeRow>> {
    const run = await this.aggregate(principal, query);
    const rows = run.starts.map((start, index) => ({
      timestamp: Math.floor(start / 1000),
      ...positionedStatistics([...run.devices[index].values()].map((ms) => ms / 1000)),
    }));
    return reportFromRows(POSITIONING_TIME_COLUMNS, rows, { rowsRead: run.rowsRead, bytesRead: run.bytesRead }, run.startedAt);
  }

  private async aggregate(principal: Principal, query: BuildingReportQuery): Promise<Aggregation> {
    const startedAt = performance.now();
    const window = parseReportWindow({ from: query.from_date, to: query.to_date, timeZone: query.time_zone }, { from: 'from_date', to: 'to_date', timeZone: 'time_zone' });
    const grouping = parseGrouping(query.grouping, 'grouping', REPORT_GROUPINGS, 'day');
    await this.buildings.findOwned(principal, query.building_id);
    const starts = bucketStarts(window, grouping);
    enforceOutputCap(starts.length, this.config.positions.reportMaxRows, 'use a coarser grouping or a shorter range');

    const rows = await this.rollups.rollups(principal.organizationId, query.building_id, Math.floor(window.fromMs / SLOT_MS) * SLOT_MS, window.toMs);
    const devices = starts.map(() => new Map<string, number>());
    let bytesRead = 0;
    for (const row of rows) {
      const index = bucketIndex(starts, Number(row.slot));
      if (index < 0) continue;
      const deviceId = String(row.device_id);
      const bucket = devices[index];
      bucket.set(deviceId, (bucket.get(deviceId) ?? 0) + Number(row.positioned_ms));
      bytesRead += ROLLUP_ROW_BYTES + deviceId.length;
    }
    return { window, grouping, starts, devices, rowsRead: rows.length, bytesRead, startedAt };
  }
}
