import { FindOperator, In } from 'typeorm';
import { parseJsonColumn } from '../common/database/raw-values';
import { Principal } from './principal';
import { Role } from './roles';

/**
 * A USER with buildings assigned sees only those (and their floors, geofences, POIs and
 * paths); everyone else sees every building of the organization.
 */
export function buildingScopeOf(role: Role, storedScope: unknown): number[] | null {
  if (role === Role.AdminOrg) return null;
  const ids = parseJsonColumn(storedScope);
  return Array.isArray(ids) && ids.length > 0 ? ids.filter((id): id is number => Number.isInteger(id)) : null;
}

export function canSeeBuilding(principal: Pick<Principal, 'buildingIds'>, buildingId: number): boolean {
  return principal.buildingIds === null || principal.buildingIds.includes(buildingId);
}

/** A where-clause fragment limiting a query's building column to what the caller may see. */
export function visibleBuildings(principal: Pick<Principal, 'buildingIds'>): FindOperator<number> | undefined {
  return principal.buildingIds === null ? undefined : In(principal.buildingIds);
}

/**
 * The building condition of a list query: the requested building if the caller may see it,
 * else every visible one. `null` means the request can match nothing.
 */
export function buildingCondition(principal: Pick<Principal, 'buildingIds'>, requested?: number): number | FindOperator<number> | undefined | null {
  if (requested !== undefined) return canSeeBuilding(principal, requested) ? requested : null;
  return visibleBuildings(principal);
}

/** TypeORM 1 refuses undefined in where clauses: drops the conditions that are not set. */
export function onlyDefined<T extends Record<string, unknown>>(conditions: T): Partial<T> {
  return Object.fromEntries(Object.entries(conditions).filter(([, value]) => value !== undefined)) as Partial<T>;
}
