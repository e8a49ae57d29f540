import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

export type RowLock = 'share' | 'update';

/**
 * Find options that lock the rows read until the transaction ends: `share` for a parent a
 * new child hangs from, `update` for a row about to be deleted. PostgreSQL only: SQLite
 * runs this process's transactions one at a time (see TransactionRunner) and needs none.
 */
export function lockOptions(manager: EntityManager, lock: RowLock | undefined) {
  if (!lock || manager.connection.options.type !== 'postgres') return {};
  return { lock: { mode: lock === 'share' ? ('pessimistic_read' as const) : ('pessimistic_write' as const) } };
}

/** The same for a query builder: `alias`'s rows locked for update (PostgreSQL only, as above). */
export function lockForUpdate<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, manager: EntityManager, alias: string): SelectQueryBuilder<T> {
  return manager.connection.options.type === 'postgres' ? query.setLock('pessimistic_write', undefined, [alias]) : query;
}
