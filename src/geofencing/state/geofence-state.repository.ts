import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { chunks, DialectKind, dialectFor, inList, SqlDialect } from '../../database/sql-dialect';
import { SqlRunner } from '../../database/sql-runner';
import { SqliteStatements } from '../../database/sqlite-statements';
import { namedRows, onlyOn, perDialect, statement, statementFamily } from '../../database/statements';
import { TransactionRunner } from '../../database/transactions';
import type { GeofenceEventBody } from '../events/geofence-event';
import { PairText } from '../engine/pair-codec';
import { keptDeadline } from '../engine/visit-state';

/** A pair's row as stored: its state's text (see pair-codec.ts), parsed once read. */
export interface PairRow extends PairText {
  deviceId: string;
  fenceId: string;
  text: string;
  /** When the timer must look at the pair next (ms), null: never. */
  deadline: number | null;
}

/** A pair's row to write. */
export interface PairWrite extends PairRow {
  phase: string;
  visitId: string | null;
}

/** What an evaluation does to one visit row: opens it, marks its dwell, closes it. */
export interface VisitChange {
  visitId: string;
  opened?: { fenceId: string; deviceId: string; userId: string | null; enteredAt: number };
  dwell?: boolean;
  exitedAt?: number;
  reason?: string;
}

interface RawPairRow {
  device_id: string;
  geofence_id: string;
  state: string | object;
  deadline: number | string | null;
}

/** The deadline kept is `keptDeadline`'s (engine/visit-state): an indexed value that merely moves later is not rewritten (on PostgreSQL the update can then be HOT). */
const PAIRS_UPSERT_TAIL = `ON CONFLICT (organization_id, device_id, geofence_id) DO UPDATE SET phase = excluded.phase, visit_id = excluded.visit_id,
  state = excluded.state,
  next_deadline_at = CASE WHEN geofence_states.next_deadline_at > excluded.updated_at AND geofence_states.next_deadline_at <= excluded.next_deadline_at
    THEN geofence_states.next_deadline_at ELSE excluded.next_deadline_at END,
  updated_at = excluded.updated_at`;

const PAIR_COLUMNS = ['organization_id', 'device_id', 'geofence_id', 'phase', 'visit_id', 'state', 'next_deadline_at', 'updated_at'] as const;

/** PostgreSQL, values in the order of first use: organization, now, the columns from device_id to next_deadline_at as arrays. */
const POSTGRES_PAIRS_UPSERT = statement(
  'geofence-state.pairs-upsert',
  onlyOn(
    'postgres',
    `INSERT INTO geofence_states (${PAIR_COLUMNS.join(', ')})
  SELECT :organizationId::uuid, s.*, :now::timestamptz FROM unnest(:deviceIds::varchar[], :fenceIds::uuid[], :phases::varchar[], :visitIds::varchar[], :states::text[],
    :deadlines::timestamptz[]) AS s
  ${PAIRS_UPSERT_TAIL}`,
  ),
);

/** SQLite: a shape per chunk length, PAIR_COLUMNS row after row. */
const SQLITE_PAIRS_UPSERT = statementFamily<number>('geofence-state.pairs-upsert-rows', [1, 2], (rows) =>
  onlyOn('sqlite', `INSERT INTO geofence_states (${PAIR_COLUMNS.join(', ')}) VALUES ${namedRows(PAIR_COLUMNS, rows)} ${PAIRS_UPSERT_TAIL}`),
);

/** PostgreSQL, values in the order of first use: the pairs' devices and fences as arrays, organization. */
const POSTGRES_PAIRS_DELETE = statement(
  'geofence-state.pairs-delete',
  onlyOn(
    'postgres',
    `DELETE FROM geofence_states s USING unnest(:deviceIds::varchar[], :fenceIds::uuid[]) AS d(device_id, geofence_id)
  WHERE s.organization_id = :organizationId::uuid AND s.device_id = d.device_id AND s.geofence_id = d.geofence_id`,
  ),
);

/** SQLite, values in order: organization, then device and fence pair after pair. */
const SQLITE_PAIRS_DELETE = statementFamily<number>('geofence-state.pairs-delete-rows', [1, 2], (rows) =>
  onlyOn('sqlite', `DELETE FROM geofence_states WHERE organization_id = :organizationId AND (device_id, geofence_id) IN (VALUES ${namedRows(['device_id', 'geofence_id'], rows)})`),
);

const pairsSelect = (kind: DialectKind) => `SELECT device_id, geofence_id, state, ${dialectFor(kind).epochMs('next_deadline_at')} AS deadline FROM geofence_states`;

/** PostgreSQL: every pair row of the devices (an array). */
const POSTGRES_PAIRS_OF = statement(
  'geofence-state.pairs-of',
  onlyOn('postgres', `${pairsSelect('postgres')} WHERE organization_id = :organizationId AND device_id = ANY(:deviceIds::varchar[])`),
);

/** SQLite: a shape per padded chunk length (powers of two, see readPairs). */
const SQLITE_PAIRS_OF = statementFamily<number>('geofence-state.pairs-of-list', [1, 2], (size) =>
  onlyOn('sqlite', `${pairsSelect('sqlite')} WHERE organization_id = :organizationId AND device_id IN (${inList('device', size)})`),
);

const EVENT_COLUMNS = [
  'id',
  'organization_id',
  'seq',
  'type',
  'occurred_at',
  'detected_at',
  'building_id',
  'floor_id',
  'geofence_id',
  'device_id',
  'user_id',
  'visit_id',
  'body',
] as const;
const INSERT_EVENTS = statementFamily<number>(
  'geofence-state.insert-events',
  [1, 2],
  (rows) => `INSERT INTO geofence_events (${EVENT_COLUMNS.join(', ')}) VALUES ${namedRows(EVENT_COLUMNS, rows)}`,
);

const VISIT_COLUMNS = ['id', 'organization_id', 'geofence_id', 'device_id', 'user_id', 'entered_at', 'exited_at', 'exit_reason', 'dwell_fired'] as const;
const INSERT_VISITS = statementFamily<number>(
  'geofence-state.insert-visits',
  [1, 2],
  (rows) => `INSERT INTO geofence_visits (${VISIT_COLUMNS.join(', ')}) VALUES ${namedRows(VISIT_COLUMNS, rows)}`,
);

const HOLDERS = statement(
  'geofence-state.holders',
  perDialect((dialect) => `SELECT DISTINCT device_id FROM geofence_states WHERE organization_id = :organizationId AND ${dialect.anyOf('geofence_id', 'fenceIds', 'uuid')}`),
);
const FENCES_WITH_PAIRS = statement(
  'geofence-state.fences-with-pairs',
  perDialect((dialect) => `SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = :organizationId AND ${dialect.anyOf('geofence_id', 'fenceIds', 'uuid')}`),
);
const ALL_FENCES_WITH_PAIRS = statement('geofence-state.all-fences-with-pairs', 'SELECT DISTINCT geofence_id FROM geofence_states WHERE organization_id = :organizationId');
const DUE = statement('geofence-state.due', 'SELECT organization_id, device_id FROM geofence_states WHERE next_deadline_at <= :now ORDER BY next_deadline_at LIMIT :limit');
const DEADLINES_FORWARD = statement(
  'geofence-state.deadlines-forward',
  perDialect(
    (dialect) =>
      `UPDATE geofence_states SET next_deadline_at = :now WHERE organization_id = :organizationId AND next_deadline_at > :now AND ${dialect.anyOf('geofence_id', 'fenceIds', 'uuid')}`,
  ),
);
const ALL_DEADLINES_FORWARD = statement(
  'geofence-state.all-deadlines-forward',
  'UPDATE geofence_states SET next_deadline_at = :now WHERE organization_id = :organizationId AND next_deadline_at > :now',
);
const TAKE_SEQ = statement(
  'geofence-state.take-seq',
  `INSERT INTO geofence_event_counters (organization_id, seq) VALUES (:organizationId, :count)
         ON CONFLICT (organization_id) DO UPDATE SET seq = geofence_event_counters.seq + excluded.seq RETURNING seq`,
);
/** A visit's later changes: its dwell marked, its exit, or both in one batch. */
const VISIT_UPDATE = statementFamily<'dwell' | 'exit' | 'dwell+exit'>('geofence-state.visit-update', ['dwell', 'exit', 'dwell+exit'], (shape) => {
  const sets = [...(shape !== 'exit' ? ['dwell_fired = :dwell'] : []), ...(shape !== 'dwell' ? ['exited_at = :exitedAt, exit_reason = :reason'] : [])];
  return `UPDATE geofence_visits SET ${sets.join(', ')} WHERE id = :id AND organization_id = :organizationId`;
});

/** SQLite: devices whose pair rows are kept in memory at most. */
const MAX_KEPT_DEVICES = 200_000;

const deviceKey = (organizationId: string, deviceId: string) => `${organizationId}\u0000${deviceId}`;

/**
 * Every statement on the geofence engine's state: the pairs' states, the event log with its
 * per-organization counter, and the visits. Run in the caller's transaction (`manager`), under the
 * devices' lock. The hottest ones run straight on SQLite's connection, where this process is the
 * only writer: there each device's pair rows are also kept in memory as written (and forgotten
 * when a write rolls back), so a batch reads none.
 */
@Injectable()
export class GeofenceStateRepository {
  private readonly sqlite: SqliteStatements | null;
  /** SQLite: each device's pair rows by fence, as stored. */
  private readonly kept = new Map<string, Map<string, PairRow>>();

  constructor(
    private readonly dialect: SqlDialect,
    private readonly transactions: TransactionRunner,
    private readonly sql: SqlRunner,
    statements: SqliteStatements,
  ) {
    this.sqlite = dialect.kind === 'sqlite' ? statements : null;
  }

  /** Every pair row of the devices. */
  async pairsOf(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<PairRow[]> {
    if (!this.sqlite) return this.readPairs(manager, organizationId, deviceIds);
    const missing = deviceIds.filter((id) => !this.kept.has(deviceKey(organizationId, id)));
    if (missing.length > 0) {
      if (this.kept.size + missing.length > MAX_KEPT_DEVICES) this.kept.clear();
      for (const id of missing) this.kept.set(deviceKey(organizationId, id), new Map());
      for (const row of await this.readPairs(manager, organizationId, missing)) this.kept.get(deviceKey(organizationId, row.deviceId))!.set(row.fenceId, row);
    }
    const rows: PairRow[] = [];
    for (const id of deviceIds) for (const row of this.kept.get(deviceKey(organizationId, id))!.values()) rows.push(row);
    return rows;
  }

  private async readPairs(manager: EntityManager, organizationId: string, deviceIds: readonly string[]): Promise<PairRow[]> {
    const rows: RawPairRow[] = [];
    if (this.sqlite) {
      for (const chunk of chunks(deviceIds)) {
        // Padded to a power of two: a few statement shapes serve every batch.
        let size = 1;
        while (size < chunk.length) size *= 2;
        const padded = Array.from({ length: size }, (_, index) => chunk[Math.min(index, chunk.length - 1)]);
        rows.push(...this.sqlite.all<RawPairRow>(SQLITE_PAIRS_OF.of(size), [organizationId, ...padded]));
      }
    } else {
      rows.push(...(await this.sql.inOrder<RawPairRow[]>(manager, POSTGRES_PAIRS_OF, [organizationId, [...deviceIds]])));
    }
    return rows.map(toPairRow);
  }

  /** The pair rows of the given fences' devices (every pair of each such device). */
  async holdersOf(manager: EntityManager, organizationId: string, fenceIds: readonly string[]): Promise<string[]> {
    if (fenceIds.length === 0) return [];
    const rows = await this.sql.query<{ device_id: string }>(manager, HOLDERS, { organizationId, fenceIds: this.dialect.list(fenceIds) });
    return rows.map((row) => row.device_id).sort();
  }

  /** The fences among `fenceIds` (null: all of the organization's) that some pair row names. */
  async fencesWithPairs(manager: EntityManager, organizationId: string, fenceIds: readonly string[] | null): Promise<string[]> {
    if (fenceIds !== null && fenceIds.length === 0) return [];
    const rows =
      fenceIds === null
        ? await this.sql.query<{ geofence_id: string }>(manager, ALL_FENCES_WITH_PAIRS, { organizationId })
        : await this.sql.query<{ geofence_id: string }>(manager, FENCES_WITH_PAIRS, { organizationId, fenceIds: this.dialect.list(fenceIds) });
    return rows.map((row) => row.geofence_id);
  }

  /** The devices with a due pair, across organizations, oldest deadline first. */
  async due(manager: EntityManager, now: number, limit: number): Promise<Array<{ organizationId: string; deviceId: string }>> {
    const rows = await this.sql.query<{ organization_id: string; device_id: string }>(manager, DUE, { now: new Date(now), limit });
    return rows.map((row) => ({ organizationId: row.organization_id, deviceId: row.device_id }));
  }

  /**
   * Brings every deadline still to come of the fences (null: every fence of the organization)
   * forward to `now`, so the timer looks at those pairs at once (after a rules change).
   */
  async bringDeadlinesForward(manager: EntityManager, organizationId: string, fenceIds: readonly string[] | null, now: number): Promise<void> {
    this.forgetOrganization(organizationId);
    if (fenceIds === null) await this.sql.query(manager, ALL_DEADLINES_FORWARD, { organizationId, now: new Date(now) });
    else if (fenceIds.length > 0) await this.sql.query(manager, DEADLINES_FORWARD, { organizationId, now: new Date(now), fenceIds: this.dialect.list(fenceIds) });
  }

  /** Writes and removes pair rows. */
  async writePairs(
    manager: EntityManager,
    organizationId: string,
    writes: readonly PairWrite[],
    removals: ReadonlyArray<Pick<PairRow, 'deviceId' | 'fenceId'>>,
    now: number,
  ): Promise<void> {
    if (this.sqlite && (writes.length > 0 || removals.length > 0)) this.keepWritten(manager, organizationId, writes, removals, now);
    const stamp = (ms: number | null) => (ms === null ? null : this.dialect.timestamp(ms));
    if (writes.length > 0) {
      if (this.sqlite) {
        for (const chunk of chunks(writes)) {
          const values: unknown[] = [];
          for (const write of chunk) values.push(organizationId, write.deviceId, write.fenceId, write.phase, write.visitId, write.text, stamp(write.deadline), stamp(now));
          this.sqlite.run(SQLITE_PAIRS_UPSERT.of(chunk.length), values);
        }
      } else {
        // Every column as one array: one statement text for every batch.
        const columns: unknown[][] = Array.from({ length: 6 }, () => []);
        for (const write of writes) {
          const row = [write.deviceId, write.fenceId, write.phase, write.visitId, write.text, stamp(write.deadline)];
          for (let c = 0; c < 6; c++) columns[c].push(row[c]);
        }
        await this.sql.inOrder(manager, POSTGRES_PAIRS_UPSERT, [organizationId, stamp(now), ...columns]);
      }
    }
    if (removals.length > 0) {
      if (this.sqlite) {
        for (const chunk of chunks(removals)) {
          this.sqlite.run(SQLITE_PAIRS_DELETE.of(chunk.length), [organizationId, ...chunk.flatMap((pair) => [pair.deviceId, pair.fenceId])]);
        }
      } else {
        await this.sql.inOrder(manager, POSTGRES_PAIRS_DELETE, [removals.map((pair) => pair.deviceId), removals.map((pair) => pair.fenceId), organizationId]);
      }
    }
  }

  /** The kept rows as the statements leave them (see PAIRS_UPSERT_TAIL); the devices are read again if the write rolls back. */
  private keepWritten(
    manager: EntityManager,
    organizationId: string,
    writes: readonly PairWrite[],
    removals: ReadonlyArray<Pick<PairRow, 'deviceId' | 'fenceId'>>,
    now: number,
  ): void {
    const touched = new Set<string>();
    for (const write of writes) {
      const key = deviceKey(organizationId, write.deviceId);
      touched.add(key);
      const rows = this.kept.get(key);
      if (!rows) continue;
      const stored = rows.get(write.fenceId)?.deadline ?? null;
      const deadline = keptDeadline(stored, write.deadline, now);
      rows.set(write.fenceId, { deviceId: write.deviceId, fenceId: write.fenceId, text: write.text, parsed: write.parsed, deadline });
    }
    for (const removal of removals) {
      const key = deviceKey(organizationId, removal.deviceId);
      touched.add(key);
      this.kept.get(key)?.delete(removal.fenceId);
    }
    this.transactions.afterRollback(manager, () => {
      for (const key of touched) this.kept.delete(key);
    });
  }

  private forgetOrganization(organizationId: string): void {
    const prefix = `${organizationId}\u0000`;
    for (const key of this.kept.keys()) if (key.startsWith(prefix)) this.kept.delete(key);
  }

  /** Takes `count` numbers from the organization's event counter; answers the first. Its row lock orders seq by commit. */
  async takeSeq(manager: EntityManager, organizationId: string, count: number): Promise<number> {
    const [counter] = await this.sql.query<{ seq: number | string }>(manager, TAKE_SEQ, { organizationId, count });
    return Number(counter.seq) - count + 1;
  }

  async insertEvents(manager: EntityManager, organizationId: string, events: readonly GeofenceEventBody[]): Promise<void> {
    const stamp = (iso: string) => this.dialect.timestamp(Date.parse(iso));
    for (const chunk of chunks(events)) {
      const values = chunk.flatMap((event) => [
        event.id,
        organizationId,
        event.seq,
        event.type,
        stamp(event.occurred_at),
        stamp(event.detected_at),
        Number(event.building_id),
        event.floor_id,
        event.geofence.id,
        event.device_id,
        event.user_id,
        event.visit_id,
        JSON.stringify(event),
      ]);
      await this.sql.inOrder(manager, INSERT_EVENTS.of(chunk.length), values);
    }
  }

  /** An enter opens a visit row; a dwell marks it; an exit closes it with its reason. */
  async writeVisits(manager: EntityManager, organizationId: string, changes: readonly VisitChange[]): Promise<void> {
    const stamp = (ms: number | undefined) => (ms === undefined ? null : this.dialect.timestamp(ms));
    const opened = changes.filter((change) => change.opened);
    for (const chunk of chunks(opened)) {
      await this.sql.inOrder(
        manager,
        INSERT_VISITS.of(chunk.length),
        chunk.flatMap((change) => [
          change.visitId,
          organizationId,
          change.opened!.fenceId,
          change.opened!.deviceId,
          change.opened!.userId,
          stamp(change.opened!.enteredAt),
          stamp(change.exitedAt),
          change.reason ?? null,
          this.dialect.boolean(change.dwell ?? false),
        ]),
      );
    }
    for (const change of changes) {
      if (change.opened) continue;
      const exits = change.exitedAt !== undefined;
      if (!change.dwell && !exits) continue;
      const shape = change.dwell ? (exits ? 'dwell+exit' : 'dwell') : 'exit';
      await this.sql.query(manager, VISIT_UPDATE.of(shape), {
        id: change.visitId,
        organizationId,
        ...(change.dwell && { dwell: true }),
        ...(exits && { exitedAt: stamp(change.exitedAt), reason: change.reason ?? null }),
      });
    }
  }
}

function toPairRow(row: RawPairRow): PairRow {
  return {
    deviceId: row.device_id,
    fenceId: row.geofence_id,
    text: typeof row.state === 'string' ? row.state : JSON.stringify(row.state),
    ...(typeof row.state === 'string' ? {} : { parsed: row.state as PairRow['parsed'] }),
    deadline: row.deadline === null ? null : Number(row.deadline),
  };
}
