import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorCode } from '../../common/errors/error-code';
import { TransactionRunner } from '../../database/transactions';
import { SqlDialect } from '../../database/sql-dialect';
import { parseEventLogQuery } from './event-log-query';
import { GeofenceEventBody } from './geofence-event';

export interface EventPage {
  data: GeofenceEventBody[];
  /** The seq of the last event of `data` (or the cursor sent, when nothing came): pass it as `after` (or `before`) to go on. */
  next_cursor: string | null;
  has_more: boolean;
}

const parsedBody = (body: string | GeofenceEventBody): GeofenceEventBody => (typeof body === 'string' ? (JSON.parse(body) as GeofenceEventBody) : body);

/** The event log of contract 7.3: what ingest, the timer and fence writes stored, read by seq. */
@Injectable()
export class GeofenceEventLog {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly dialect: SqlDialect,
  ) {}

  async list(principal: Principal, raw: Record<string, unknown>): Promise<EventPage> {
    const { query, errors } = parseEventLogQuery(raw);
    if (errors.length > 0) throw ApiError.validation('The event log query is not valid', errors);
    if (query.after !== null || query.before !== null) await this.checkCursor(principal.organizationId, query.after, query.before);
    const conditions = ['organization_id = :organizationId'];
    const parameters: Record<string, unknown> = { organizationId: principal.organizationId, limit: query.limit + 1 };
    const within = (column: string, name: string, values: readonly unknown[]) => {
      if (values.length === 0) return;
      conditions.push(`${column} IN (:...${name})`);
      parameters[name] = values;
    };
    if (query.after !== null) {
      conditions.push('seq > :after');
      parameters.after = query.after;
    }
    if (query.before !== null) {
      conditions.push('seq < :before');
      parameters.before = query.before;
    }
    within('type', 'types', query.types);
    within('geofence_id', 'geofenceIds', query.geofenceIds);
    within('device_id', 'deviceIds', query.deviceIds);
    within('user_id', 'userIds', query.userIds);
    // A user restricted to some buildings reads only their events.
    let buildings = query.buildingIds;
    if (principal.buildingIds !== null) {
      const visible = principal.buildingIds;
      buildings = buildings.length === 0 ? [...visible] : buildings.filter((id) => visible.includes(id));
      if (buildings.length === 0)
        return { data: [], next_cursor: query.after !== null ? String(query.after) : query.before !== null ? String(query.before) : null, has_more: false };
    }
    within('building_id', 'buildingIds', buildings);
    if (query.from !== null) {
      conditions.push('occurred_at >= :from');
      parameters.from = this.dialect.timestamp(query.from);
    }
    if (query.to !== null) {
      conditions.push('occurred_at <= :to');
      parameters.to = this.dialect.timestamp(query.to);
    }
    const direction = query.before !== null ? 'DESC' : 'ASC';
    const rows = (await this.dataSource.query(
      ...this.transactions.escape(`SELECT body FROM geofence_events WHERE ${conditions.join(' AND ')} ORDER BY seq ${direction} LIMIT :limit`, parameters),
    )) as Array<{ body: string }>;
    const hasMore = rows.length > query.limit;
    const data = rows.slice(0, query.limit).map((row) => parsedBody(row.body));
    const given = query.after ?? query.before;
    const last = data.at(-1);
    return { data, next_cursor: last ? String(last.seq) : given === null ? null : String(given), has_more: hasMore };
  }

  /**
   * 410 `cursor_expired` (contract 7.3) for a cursor the retention has passed. Retention cuts
   * the log from its oldest end (`GeofenceEventRetention`), so every event up to `expiredThrough`
   * is gone and every later one is kept. `after` is expired when events right after it are gone
   * (the reader would miss them); `before` when its own event is gone (backward paging that
   * reaches the oldest kept event ends there with has_more false).
   */
  private async checkCursor(organizationId: string, after: number | null, before: number | null): Promise<void> {
    const [row] = (await this.dataSource.query(
      ...this.transactions.escape(
        `SELECT (SELECT MIN(seq) FROM geofence_events WHERE organization_id = :organizationId) AS oldest,
                (SELECT seq FROM geofence_event_counters WHERE organization_id = :organizationId) AS last`,
        { organizationId },
      ),
    )) as Array<{ oldest: number | string | null; last: number | string | null }>;
    // No event kept: all of them (up to the counter) are gone.
    const expiredThrough = row.oldest !== null ? Number(row.oldest) - 1 : row.last !== null ? Number(row.last) : 0;
    if ((after !== null && after < expiredThrough) || (before !== null && before <= expiredThrough)) {
      throw new ApiError(
        410,
        ErrorCode.CursorExpired,
        `The cursor is older than the event log's retention: events up to ${expiredThrough} are no longer kept; read again without a cursor`,
        [{ message: `events up to seq ${expiredThrough} have been deleted`, code: 'cursor_expired', fields: after !== null ? 'after' : 'before', value: String(after ?? before) }],
      );
    }
  }

  async get(principal: Principal, id: string): Promise<GeofenceEventBody> {
    const [row] = (await this.dataSource.query(
      ...this.transactions.escape('SELECT body, building_id FROM geofence_events WHERE organization_id = :organizationId AND id = :id', {
        organizationId: principal.organizationId,
        id,
      }),
    )) as Array<{ body: string; building_id: number }>;
    if (!row || (principal.buildingIds !== null && !principal.buildingIds.includes(Number(row.building_id)))) throw ApiError.notFound('Geofence event', id);
    return parsedBody(row.body);
  }
}
