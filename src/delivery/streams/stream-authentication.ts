import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessRequirement } from '../../access/decorators/access.decorator';
import { AuthenticationGuard } from '../../auth/guards/authentication.guard';
import { permissionAllows } from '../../access/permissions';
import { Principal } from '../../access/principal';

/**
 * Whether the credentials a stream was opened with still hold, asked when a revocation names
 * its user: the request's own headers go through the authentication guard again (Passport, the
 * credential cache having dropped the user), and the answer must still grant the route's scope
 * with the same building restrictions. A stream opened with a ticket asks the credential that
 * minted the ticket (its session or API key) instead, so it ends exactly when that one would.
 */
export function streamCredentialCheck(
  guard: AuthenticationGuard,
  request: FastifyRequest & { user?: Principal },
  reply: FastifyReply,
  requirement: AccessRequirement,
): () => Promise<boolean> {
  const original = request.user!;
  return async () => {
    try {
      const authenticated = await guard.authenticate(new ExecutionContextHost([request, reply]), requirement);
      const now = request.user;
      return (
        authenticated === true &&
        now !== undefined &&
        now.userId === original.userId &&
        now.organizationId === original.organizationId &&
        permissionAllows(now.permission, requirement.scope) &&
        JSON.stringify(now.buildingIds) === JSON.stringify(original.buildingIds)
      );
    } catch {
      return false;
    }
  };
}
