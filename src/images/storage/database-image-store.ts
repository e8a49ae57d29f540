import { DataSource, EntityManager } from 'typeorm';
import { SqlRunner } from '../../database/sql-runner';
import { statement } from '../../database/statements';
import { ImageStorage } from './image-storage';

const WRITE = statement('image-blobs.write', 'INSERT INTO "image_blobs" ("image_id", "bytes") VALUES (:key, :bytes)');
const READ = statement('image-blobs.read', 'SELECT "bytes" FROM "image_blobs" WHERE "image_id" = :key');
const REMOVE = statement('image-blobs.remove', 'DELETE FROM "image_blobs" WHERE "image_id" = :key');

/** Bytes in the `image_blobs` table: every instance on one PostgreSQL sees every image. */
export class DatabaseStorage implements ImageStorage {
  readonly kind = 'database' as const;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  async write(key: string, bytes: Buffer, manager: EntityManager): Promise<void> {
    await this.sql.query(manager, WRITE, { key, bytes });
  }

  async read(key: string): Promise<Buffer | null> {
    const rows = await this.sql.query<{ bytes: Buffer | Uint8Array }>(this.dataSource.manager, READ, { key });
    return rows[0] ? Buffer.from(rows[0].bytes) : null;
  }

  async remove(key: string, manager: EntityManager): Promise<void> {
    await this.sql.query(manager, REMOVE, { key });
  }
}
