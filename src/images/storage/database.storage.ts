import { DataSource, EntityManager } from 'typeorm';
import { ImageStorage } from './image-storage';

/** Bytes in the `image_blobs` table: every instance on one PostgreSQL sees every image. */
export class DatabaseStorage implements ImageStorage {
  readonly kind = 'database' as const;

  constructor(private readonly dataSource: DataSource) {}

  async write(key: string, bytes: Buffer, manager: EntityManager): Promise<void> {
    const [sql, parameters] = this.dataSource.driver.escapeQueryWithParameters('INSERT INTO "image_blobs" ("image_id", "bytes") VALUES (:key, :bytes)', { key, bytes });
    await manager.query(sql, parameters);
  }

  async read(key: string): Promise<Buffer | null> {
    const [sql, parameters] = this.dataSource.driver.escapeQueryWithParameters('SELECT "bytes" FROM "image_blobs" WHERE "image_id" = :key', { key });
    const rows: Array<{ bytes: Buffer | Uint8Array }> = await this.dataSource.query(sql, parameters);
    return rows[0] ? Buffer.from(rows[0].bytes) : null;
  }

  async remove(key: string, manager: EntityManager): Promise<void> {
    const [sql, parameters] = this.dataSource.driver.escapeQueryWithParameters('DELETE FROM "image_blobs" WHERE "image_id" = :key', { key });
    await manager.query(sql, parameters);
  }
}
