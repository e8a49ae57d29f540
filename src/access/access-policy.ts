import type { AccessRequirement } from './decorators/access.decorator';
import { ApiPermission, permissionAllows } from './permissions';
import { CredentialKind, Principal } from './principal';

/**
 * Decides whether a principal meets a route's requirement. Returns the reason for a
 * refusal, or null when access is granted.
 */
export function checkAccess(principal: Pick<Principal, 'permission' | 'role' | 'credential'>, requirement: AccessRequirement): string | null {
  if (principal.permission === ApiPermission.Disabled) return 'These credentials are disabled';
  if (requirement.userCredentials && principal.credential !== CredentialKind.PasswordToken) {
    return 'This operation needs a token obtained with your own e-mail and password, not an API key';
  }
  if (!permissionAllows(principal.permission, requirement.scope)) {
    return `The "${principal.permission}" permission does not allow this operation`;
  }
  if (requirement.role && principal.role !== requirement.role) {
    return `This operation needs the ${requirement.role} role`;
  }
  return null;
}
