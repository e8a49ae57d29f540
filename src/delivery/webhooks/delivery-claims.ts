import { PreparedQueries } from '../../database/prepared-queries';
import { dialectFor } from '../../database/sql-dialect';

/** What the worker keeps of a leased delivery: what an attempt sends and what its record needs. */
export interface LeasedDelivery {
  id: string;
  endpointId: string;
  messageId: string;
  payload: string;
  attempts: number;
  leaseExpiresAt: Date;
}

export interface DueDelivery {
  id: string;
  endpointId: string;
}

/** SQLite keeps datetime columns as the UTC text TypeORM writes (`2020-05-08 10:26:34.801`, which sorts like the time). */
export const sqliteTime = (date: Date | null): string | null => (date ? (dialectFor('sqlite').timestamp(date.getTime()) as string) : null);

const timeParameter = (postgres: boolean, date: Date) => (postgres ? date.toISOString() : sqliteTime(date));
/** A list parameter: a PostgreSQL array, a JSON array for SQLite's json_each (one statement shape whatever the length). */
const listParameter = (postgres: boolean, values: readonly string[]) => (postgres ? values : JSON.stringify(values));

/**
 * SQL written with `{name}` parameters, and `{name:list}` for a list of ids, for either
 * database: `$n` on PostgreSQL, `?` on SQLite (better-sqlite3 has no numbered parameters, so a
 * name used twice is passed twice). Returns the text and the parameter names in binding order.
 */
export function dialectSql(template: string, postgres: boolean): { text: string; order: string[] } {
  const order: string[] = [];
  const text = template.replace(/\{(\w+)(:list)?\}/g, (_, name: string, list: string | undefined) => {
    if (postgres) {
      let index = order.indexOf(name);
      if (index < 0) index = order.push(name) - 1;
      return list ? `ANY(CAST($${index + 1} AS uuid[]))` : `$${index + 1}`;
    }
    order.push(name);
    return list ? '(SELECT value FROM json_each(?))' : '?';
  });
  return { text, order };
}

// Due deliveries of enabled endpoints, oldest first, at most `per_endpoint` of each endpoint:
// a backlog of one endpoint (a slow one, or one far behind) never hides another's deliveries
// from the claim.
const DUE = `
SELECT id, endpoint_id FROM (
  SELECT d.id, d.endpoint_id, d.next_attempt_at,
         ROW_NUMBER() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS n
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled = {enabled}
   WHERE d.status IN ('pending', 'failed') AND d.next_attempt_at <= {now}
     AND (d.lease_expires_at IS NULL OR d.lease_expires_at < {now})
) x
WHERE n <= {per_endpoint}
ORDER BY next_attempt_at, id
LIMIT {limit}`;

// Unexpired leases other instances hold on these endpoints (the in-flight cap is per endpoint, across instances).
const ELSEWHERE = `
SELECT endpoint_id, COUNT(*) AS n
  FROM webhook_deliveries
 WHERE endpoint_id IN_LIST {endpoints:list}
   AND status IN ('pending', 'failed') AND lease_expires_at > {now} AND lease_owner <> {instance}
 GROUP BY endpoint_id`;

// Leases the picked deliveries (still free: the guard repeats the due query's) and returns what the attempts need.
const LEASE = `
UPDATE webhook_deliveries
   SET lease_owner = {instance}, lease_expires_at = {expires}, updated_at = {now}
 WHERE id IN_LIST {ids:list}
   AND status IN ('pending', 'failed') AND (lease_expires_at IS NULL OR lease_expires_at < {now})
RETURNING id, endpoint_id, message_id, payload, attempts`;

/**
 * The claim's statements, hand-written and prepared once (TypeORM's builders cost more per claim
 * than the statements). They run in the caller's transaction; on PostgreSQL the caller holds the
 * claim lock, so no two instances pick at once.
 */
export class DeliveryClaims {
  private readonly statements: Record<'due' | 'elsewhere' | 'lease', { name: string; text: string; order: string[] }>;

  constructor(
    private readonly queries: PreparedQueries,
    private readonly postgres: boolean,
  ) {
    const build = (name: string, template: string) => ({ name, ...dialectSql(template.replace(/IN_LIST /g, postgres ? '= ' : 'IN '), postgres) });
    this.statements = { due: build('cg_webhook_claim_due', DUE), elsewhere: build('cg_webhook_claim_elsewhere', ELSEWHERE), lease: build('cg_webhook_claim_lease', LEASE) };
  }

  private run(which: 'due' | 'elsewhere' | 'lease', parameters: Record<string, unknown>): Promise<unknown[]> {
    const { name, text, order } = this.statements[which];
    return this.queries.execute(
      name,
      text,
      order.map((key) => parameters[key]),
    );
  }

  async due(now: Date, perEndpoint: number, limit: number): Promise<DueDelivery[]> {
    const rows = (await this.run('due', { enabled: this.postgres ? true : 1, now: timeParameter(this.postgres, now), per_endpoint: perEndpoint, limit })) as Array<{
      id: string;
      endpoint_id: string;
    }>;
    return rows.map((row) => ({ id: row.id, endpointId: row.endpoint_id }));
  }

  /** Per endpoint, the deliveries whose unexpired lease another instance holds. */
  async leasedElsewhere(endpointIds: readonly string[], now: Date, instance: string): Promise<Map<string, number>> {
    const rows = (await this.run('elsewhere', { endpoints: listParameter(this.postgres, endpointIds), now: timeParameter(this.postgres, now), instance })) as Array<{
      endpoint_id: string;
      n: string | number;
    }>;
    return new Map(rows.map((row) => [row.endpoint_id, Number(row.n)]));
  }

  async lease(ids: readonly string[], instance: string, now: Date, leaseExpiresAt: Date): Promise<LeasedDelivery[]> {
    const rows = (await this.run('lease', {
      instance,
      expires: timeParameter(this.postgres, leaseExpiresAt),
      now: timeParameter(this.postgres, now),
      ids: listParameter(this.postgres, ids),
    })) as Array<{ id: string; endpoint_id: string; message_id: string; payload: string; attempts: number }>;
    return rows.map((row) => ({ id: row.id, endpointId: row.endpoint_id, messageId: row.message_id, payload: row.payload, attempts: Number(row.attempts), leaseExpiresAt }));
  }
}
