import { ApiError } from '../common/errors/api-error';
import { Principal } from './principal';

/**
 * An organization id a request names (`organization_id` in a query, as the official clients
 * send it, or in a path): it must be the caller's own. Another organization's is `404
 * entity_not_found`, as any other organization's resource (contract 2.4): its existence is not
 * told, and the answer is the same as for an id no organization has. The one rule for every
 * route that takes an organization id.
 */
export function assertCallerOrganization(principal: Pick<Principal, 'organizationId'>, organizationId: string | undefined): void {
  if (organizationId === undefined || organizationId === '') return;
  if (organizationId.toLowerCase() !== principal.organizationId.toLowerCase()) throw ApiError.notFound('Organization', organizationId);
}
