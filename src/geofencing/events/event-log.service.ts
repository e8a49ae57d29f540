import { Injectable } from '@nestjs/common';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { ErrorCode } from '../../common/errors/error-code';
import { SqlDialect } from '../../database/sql-dialect';
import { parseEventLogQuery } from './event-log-query';
import { GeofenceEventLogRepository } from './event-log.repository';
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
    private readonly rows: GeofenceEventLogRepository,
    private readonly dialect: SqlDialect,
  ) {}

  async list(principal: Principal, raw: Record<string, unknown>): Promise<EventPage> {
    const { query, errors } = parseEventLogQuery(raw);
    if (errors.length > 0) throw ApiError.validation('The event log query is not valid', errors);
    if (query.after !== null || query.before !== null) await this.checkCursor(principal.organizationId, query.after, query.before);
    // A user restricted to some buildings reads only their events.
    let buildings = query.buildingIds;
    if (principal.buildingIds !== null) {
      const visible = principal.buildingIds;
      buildings = buildings.length === 0 ? [...visible] : buildings.filter((id) => visible.includes(id));
      if (buildings.length === 0)
        return { data: [], next_cursor: query.after !== null ? String(query.after) : query.before !== null ? String(query.before) : null, has_more: false };
    }
    const rows = await this.rows.page(
      principal.organizationId,
      {
        after: query.after,
        before: query.before,
        types: query.types,
        geofenceIds: query.geofenceIds,
        deviceIds: query.deviceIds,
        userIds: query.userIds,
        buildingIds: buildings,
        from: query.from === null ? null : this.dialect.timestamp(query.from),
        to: query.to === null ? null : this.dialect.timestamp(query.to),
      },
      query.limit + 1,
    );
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
    const row = await this.rows.bounds(organizationId);
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
    const row = await this.rows.one(principal.organizationId, id);
    if (!row || (principal.buildingIds !== null && !principal.buildingIds.includes(Number(row.building_id)))) throw ApiError.notFound('Geofence event', id);
    return parsedBody(row.body);
  }
}
