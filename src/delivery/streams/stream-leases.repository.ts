import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { dirname } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { noOtherProcessOn } from '../../database/data-dir-lock';
import { SqlRunner } from '../../database/sql-runner';
import { statement } from '../../database/statements';

const PURGE_EXPIRED = statement('stream-leases.purge-expired', 'DELETE FROM stream_leases WHERE organization_id = :organizationId AND expires_at <= :now');
const COUNT = statement('stream-leases.count', 'SELECT COUNT(*) AS open FROM stream_leases WHERE organization_id = :organizationId');
const INSERT = statement(
  'stream-leases.insert',
  'INSERT INTO stream_leases (id, organization_id, kind, instance_id, expires_at) VALUES (:lease, :organizationId, :kind, :instanceId, :expiresAt)',
);
const DELETE = statement('stream-leases.delete', 'DELETE FROM stream_leases WHERE id = :id');
const DELETE_INSTANCE = statement('stream-leases.delete-instance', 'DELETE FROM stream_leases WHERE instance_id = :instanceId');
const DELETE_ALL = statement('stream-leases.delete-all', 'DELETE FROM stream_leases');
const RENEW = statement('stream-leases.renew', 'UPDATE stream_leases SET expires_at = :expiresAt WHERE instance_id = :instanceId');

/** The `stream_leases` table: one row per open stream, `expires_at` in epoch milliseconds. */
@Injectable()
export class StreamLeasesRepository {
  constructor(
    private readonly sql: SqlRunner,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The organization's unexpired leases, once the expired ones are gone. */
  async openOf(manager: EntityManager, organizationId: string, now: number): Promise<number> {
    await this.sql.query(manager, PURGE_EXPIRED, { organizationId, now });
    const [{ open }] = await this.sql.query<{ open: number | string }>(manager, COUNT, { organizationId });
    return Number(open);
  }

  async insert(manager: EntityManager, lease: { lease: string; organizationId: string; kind: string; instanceId: string; expiresAt: number }): Promise<void> {
    await this.sql.query(manager, INSERT, lease);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.sql.query(manager, DELETE, { id });
  }

  async deleteOfInstance(manager: EntityManager, instanceId: string): Promise<void> {
    await this.sql.query(manager, DELETE_INSTANCE, { instanceId });
  }

  async renew(manager: EntityManager, instanceId: string, expiresAt: number): Promise<void> {
    await this.sql.query(manager, RENEW, { expiresAt, instanceId });
  }

  /**
   * At start, on SQLite (where one process serves the database): places left by a process that
   * crashed are nobody's, and would otherwise count until they lapse. A CLI command beside the
   * running server (organizations:create) leaves the server's places alone; on PostgreSQL they
   * may be another running instance's, so nothing is cleared.
   */
  async clearLeftOver(manager: EntityManager): Promise<void> {
    if (this.dataSource.options.type === 'postgres') return;
    if (!noOtherProcessOn(dirname(String(this.dataSource.options.database)))) return;
    await this.sql.query(manager, DELETE_ALL);
  }
}
