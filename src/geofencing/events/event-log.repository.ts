import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { inList, namedList } from '../../database/sql-dialect';
import { SqlRunner, StatementValue } from '../../database/sql-runner';
import { statement, statementFamily } from '../../database/statements';

const COMMITTED = statement('event-log.committed-seq', 'SELECT seq FROM geofence_event_counters WHERE organization_id = :organizationId');
const AFTER = statement('event-log.after', 'SELECT seq, body FROM geofence_events WHERE organization_id = :organizationId AND seq > :after ORDER BY seq LIMIT :limit');
const BOUNDS = statement(
  'event-log.bounds',
  `SELECT (SELECT MIN(seq) FROM geofence_events WHERE organization_id = :organizationId) AS oldest,
                (SELECT seq FROM geofence_event_counters WHERE organization_id = :organizationId) AS last`,
);
const ONE = statement('event-log.one', 'SELECT body, building_id FROM geofence_events WHERE organization_id = :organizationId AND id = :id');
/** Events by id, one text per (padded) list size. */
const BY_IDS = statementFamily<number>(
  'event-log.by-ids',
  [2],
  (size) => `SELECT id, seq, body FROM geofence_events WHERE organization_id = :organizationId AND id IN (${inList('e', size)})`,
);
const OCCURRED_IN = statement(
  'event-log.occurred-in',
  'SELECT id, body FROM geofence_events WHERE organization_id = :organizationId AND occurred_at >= :from AND occurred_at <= :to ORDER BY seq LIMIT :limit',
);

/** The filters of a page of the log: bounds given, the sizes of its lists (0: none), the direction. */
export interface EventFilters {
  after: number | null;
  before: number | null;
  types: readonly string[];
  geofenceIds: readonly string[];
  deviceIds: readonly string[];
  userIds: readonly string[];
  buildingIds: readonly number[];
  /** As the database takes a timestamp (SqlDialect.timestamp). */
  from: Date | string | null;
  to: Date | string | null;
}

const LISTS = [
  ['type', 't'],
  ['geofence_id', 'g'],
  ['device_id', 'd'],
  ['user_id', 'u'],
  ['building_id', 'b'],
] as const;

/** Shape `after,before,from,to` flags (0/1), the five list sizes, and ASC or DESC: one text each. */
const PAGE = statementFamily<string>('event-log.page', ['0:0:0:0:0:0:0:0:0:ASC', '1:0:1:1:2:2:2:2:2:ASC', '0:1:0:0:0:0:0:0:0:DESC'], (shape) => {
  const parts = shape.split(':');
  const [after, before, from, to] = parts.slice(0, 4).map(Number);
  const sizes = parts.slice(4, 9).map(Number);
  const conditions = ['organization_id = :organizationId'];
  if (after) conditions.push('seq > :after');
  if (before) conditions.push('seq < :before');
  LISTS.forEach(([column, prefix], i) => {
    if (sizes[i] > 0) conditions.push(`${column} IN (${inList(prefix, sizes[i])})`);
  });
  if (from) conditions.push('occurred_at >= :from');
  if (to) conditions.push('occurred_at <= :to');
  return `SELECT body FROM geofence_events WHERE ${conditions.join(' AND ')} ORDER BY seq ${parts[9]} LIMIT :limit`;
});

/** The reads of the event log (contract 7.3): pages by seq, one event, the retention's bounds, the committed seq, and the events a webhook replay sends. */
@Injectable()
export class GeofenceEventLogRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  async page(organizationId: string, filters: EventFilters, limit: number): Promise<Array<{ body: string }>> {
    const parameters: Record<string, StatementValue> = { organizationId, limit };
    const sizes = [filters.types, filters.geofenceIds, filters.deviceIds, filters.userIds, filters.buildingIds].map((values, i) => {
      if (values.length === 0) return 0;
      const list = namedList(LISTS[i][1], values);
      Object.assign(parameters, list.parameters);
      return Object.keys(list.parameters).length;
    });
    if (filters.after !== null) parameters.after = filters.after;
    if (filters.before !== null) parameters.before = filters.before;
    if (filters.from !== null) parameters.from = filters.from;
    if (filters.to !== null) parameters.to = filters.to;
    const flags = [filters.after, filters.before, filters.from, filters.to].map((value) => (value === null ? 0 : 1));
    const shape = [...flags, ...sizes, filters.before !== null ? 'DESC' : 'ASC'].join(':');
    return this.sql.query<{ body: string }>(this.dataSource.manager, PAGE.of(shape), parameters);
  }

  async bounds(organizationId: string): Promise<{ oldest: number | string | null; last: number | string | null }> {
    const [row] = await this.sql.query<{ oldest: number | string | null; last: number | string | null }>(this.dataSource.manager, BOUNDS, { organizationId });
    return row;
  }

  async one(organizationId: string, id: string): Promise<{ body: string; building_id: number } | undefined> {
    const [row] = await this.sql.query<{ body: string; building_id: number }>(this.dataSource.manager, ONE, { organizationId, id });
    return row;
  }

  /** The organization's highest committed seq (0 before its first event), in the caller's read. */
  async committedSeq(manager: EntityManager, organizationId: string): Promise<number> {
    const rows = await this.sql.query<{ seq: number | string }>(manager, COMMITTED, { organizationId });
    return rows.length === 0 ? 0 : Number(rows[0].seq);
  }

  async after(manager: EntityManager, organizationId: string, after: number, limit: number): Promise<Array<{ seq: number | string; body: string }>> {
    return this.sql.query<{ seq: number | string; body: string }>(manager, AFTER, { organizationId, after, limit });
  }

  /** The organization's events among `ids` (in no order), on the main connection. */
  byIds(organizationId: string, ids: readonly string[]): Promise<Array<{ id: string; seq: number | string; body: string }>> {
    const list = namedList('e', ids);
    return this.sql.query<{ id: string; seq: number | string; body: string }>(this.dataSource.manager, BY_IDS.of(Object.keys(list.parameters).length), {
      organizationId,
      ...list.parameters,
    });
  }

  /** The organization's first `limit` events by seq that occurred in [from, to], on the main connection. */
  occurredIn(organizationId: string, from: Date, to: Date, limit: number): Promise<Array<{ id: string; body: string }>> {
    return this.sql.query<{ id: string; body: string }>(this.dataSource.manager, OCCURRED_IN, { organizationId, from, to, limit });
  }
}
