import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SqlRunner } from '../../database/sql-runner';
import { statement, statementFamily } from '../../database/statements';

const ORGANIZATIONS = statement('event-retention.organizations', 'SELECT organization_id FROM geofence_event_counters');
/** The oldest events by seq (its unique index), each marked expired or not; one text per batch size (a literal LIMIT). */
const OLDEST = statementFamily<number>(
  'event-retention.oldest',
  [5000],
  (batch) => `SELECT seq, CASE WHEN detected_at < :cutoff THEN 1 ELSE 0 END AS expired FROM geofence_events WHERE organization_id = :organizationId ORDER BY seq LIMIT ${batch}`,
);
const DELETE_THROUGH = statement('event-retention.delete-through', 'DELETE FROM geofence_events WHERE organization_id = :organizationId AND seq <= :last');

/** The retention's reads and cuts of the geofence event log (GeofenceEventRetention). */
@Injectable()
export class GeofenceEventRetentionRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /** Every organization with an event log (a counter), on the main connection. */
  async organizations(): Promise<string[]> {
    const rows = await this.sql.query<{ organization_id: string }>(this.dataSource.manager, ORGANIZATIONS);
    return rows.map((row) => row.organization_id);
  }

  /** The organization's `batch` oldest events by seq, each expired if detected before `cutoff`. */
  oldest(manager: EntityManager, organizationId: string, cutoff: Date, batch: number): Promise<Array<{ seq: number | string; expired: number | string }>> {
    return this.sql.query<{ seq: number | string; expired: number | string }>(manager, OLDEST.of(batch), { organizationId, cutoff });
  }

  /** Deletes the organization's events up to seq `last`, included. */
  async deleteThrough(manager: EntityManager, organizationId: string, last: number): Promise<void> {
    await this.sql.query(manager, DELETE_THROUGH, { organizationId, last });
  }
}
