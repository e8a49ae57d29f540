import type { DataSource } from 'typeorm';
import type { PoolCounts } from '../common/metrics/metrics.registry';

/**
 * The connection pool's counts for `cartograph_db_pool_connections`: PostgreSQL's `pg.Pool`
 * (the driver's master pool) once the data source is open; none on SQLite (one connection).
 */
export function poolCounts(dataSource: DataSource): PoolCounts | undefined {
  if (!dataSource.isInitialized || dataSource.options.type !== 'postgres') return undefined;
  const pool = (dataSource.driver as unknown as { master?: PoolCounts }).master;
  return pool && typeof pool.totalCount === 'number' ? pool : undefined;
}
