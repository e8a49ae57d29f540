import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ApiError } from '../errors/api-error';

/** Strong ETag of a versioned resource. */
export const etagOf = (version: number | string): string => `"${version}"`;

/**
 * The versions an `If-Match` header asks for: undefined when absent or `*`. A list of tags
 * (RFC 9110) matches when any of them is current, so all are returned. A tag this server
 * cannot have sent (`abc`, `"v3"`) matches no version: it is refused like a stale one
 * (409), never with a different status.
 */
export function parseIfMatch(header: string | string[] | undefined): number[] | undefined {
  const raw = Array.isArray(header) ? header.join(',') : header;
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return undefined;
  return raw.split(',').flatMap((tag) => {
    // `"3.7"` (a building document: version and revision) matches on its version.
    const match = /^\s*(?:W\/)?"(\d{1,15})(?:\.\d{1,15})?"\s*$/.exec(tag);
    return match ? [Number(match[1])] : [];
  });
}

export function assertVersionMatches(current: number, expected: number[] | undefined): void {
  if (expected !== undefined && !expected.includes(current)) {
    throw ApiError.conflict('The resource was changed since you read it (stale If-Match); read it again and retry');
  }
}

const MAX_ATTEMPTS = 5;

/**
 * Runs a read-modify-write whose final UPDATE is conditional on the version read. When a
 * concurrent writer got there first (`attempt` returns false), it reads and applies again,
 * so no write is lost silently.
 */
export async function retryOnConcurrentUpdate<T>(attempt: () => Promise<T | false>): Promise<T> {
  for (let tries = 0; tries < MAX_ATTEMPTS; tries += 1) {
    const result = await attempt();
    if (result !== false) return result;
  }
  throw ApiError.conflict('The resource is being changed concurrently; retry');
}

/**
 * `UPDATE ... SET ..., version = version + 1 WHERE id AND organization AND version`: true
 * when this write won, false when another writer changed the row since it was read.
 */
export async function updateIfVersion<T extends ObjectLiteral & { version: number }>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  row: { id: T['id']; organizationId: string; version: number },
  changes: QueryDeepPartialEntity<T>,
): Promise<boolean> {
  const result = await manager
    .createQueryBuilder()
    .update(entity)
    .set({ ...changes, version: () => '"version" + 1' } as QueryDeepPartialEntity<T>)
    .where({ id: row.id, organizationId: row.organizationId, version: row.version })
    .execute();
  return (result.affected ?? 0) > 0;
}
