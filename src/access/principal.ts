import { ApiPermission } from './permissions';
import { Role } from './roles';

/** How the caller proved who it is on this request. */
export enum CredentialKind {
  /** Basic e-mail and password (token endpoint only). */
  Password = 'password',
  /** A JWT obtained from a password: the user's own credentials. */
  PasswordToken = 'password-token',
  /** A JWT obtained from an API key: it carries the key's permission. */
  ApiKeyToken = 'api-key-token',
  /** An API key sent with X-API-KEY. */
  ApiKey = 'api-key',
}

/** The authenticated caller, attached to the request by the authentication guard. */
export interface Principal {
  userId: string;
  organizationId: string;
  email: string;
  role: Role;
  permission: ApiPermission;
  credential: CredentialKind;
  apiKeyId: string | null;
  sessionId: string | null;
  /** The only buildings this caller may see, or null for all of the organization's. */
  buildingIds: number[] | null;
  /** The client address, for the audit trail. */
  ip?: string;
}
