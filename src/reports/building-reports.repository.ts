import { Injectable } from '@nestjs/common';
import { statement } from '../database/statements';
import { ReportQueries } from './worker/report-queries';

/** A rollup row as read: the device, its 15-minute slot (epoch ms) and the milliseconds it was positioned in it. */
export interface RollupRow {
  device_id: string;
  slot: number | string;
  positioned_ms: number | string;
}

const ROLLUPS = statement(
  'building-reports.rollups',
  'SELECT device_id, slot, positioned_ms FROM position_rollups WHERE organization_id = :organization AND building_id = :building AND slot >= :from AND slot < :to',
);

/** The reads of `visitors` and `positioning_time` (BuildingReports), through the report reader (off the event loop on SQLite). */
@Injectable()
export class BuildingReportsRepository {
  constructor(private readonly reports: ReportQueries) {}

  /** The building's rollups of the slots in [from, to) (epoch ms), on the rollup key. */
  rollups(organization: string, building: number, from: number, to: number): Promise<RollupRow[]> {
    return this.reports.rows<RollupRow>(ROLLUPS, { organization, building, from, to });
  }
}
