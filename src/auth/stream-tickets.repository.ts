import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlRunner } from '../database/sql-runner';
import { statement } from '../database/statements';

const SWEEP = statement('stream-tickets.sweep', `DELETE FROM stream_tickets WHERE expires_at < :now`);
const ISSUE = statement(
  'stream-tickets.issue',
  `INSERT INTO stream_tickets (ticket_hash, organization_id, user_id, principal, expires_at) VALUES (:hash, :organizationId, :userId, :principal, :expiresAt)`,
);
const TAKE = statement('stream-tickets.take', `DELETE FROM stream_tickets WHERE ticket_hash = :hash AND expires_at > :now RETURNING principal`);

/** The stream tickets (`stream_tickets`), kept as their SHA-256: issued, swept, taken once. */
@Injectable()
export class StreamTicketsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /** Expired tickets are swept by whoever issues the next one (indexed on expires_at). */
  async issue(ticket: { hash: string; organizationId: string; userId: string; principal: string; expiresAt: Date }, now: Date): Promise<void> {
    await this.sql.query(this.dataSource.manager, SWEEP, { now });
    await this.sql.query(this.dataSource.manager, ISSUE, ticket);
  }

  /** The stored principal of a live ticket, deleted in the same statement (atomic on both databases), or null. */
  async take(hash: string, now: Date): Promise<string | null> {
    const rows = await this.sql.returning<{ principal: string }>(this.dataSource.manager, TAKE, { hash, now });
    return rows[0]?.principal ?? null;
  }
}
