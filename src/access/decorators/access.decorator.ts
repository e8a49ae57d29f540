import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiForbiddenResponse, ApiSecurity, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { AccessScope } from '../permissions';
import { Role } from '../roles';

export const ACCESS_KEY = 'cartograph:access';

export interface AccessRequirement {
  scope: AccessScope;
  /** Only callers with this role. */
  role?: Role;
  /** Only a JWT obtained from the user's own password, never an API key or a token made from one. */
  userCredentials?: boolean;
  /** The route exchanges a password or an API key for tokens (Basic is accepted here only). */
  tokenExchange?: boolean;
  /** A live stream: besides the headers, a single-use ticket in `?ticket=` (EventSource cannot send headers). */
  stream?: boolean;
  /** Gateway messages: an API key is also taken from `Authorization` (Bearer, Token, bare, or Basic's password), as gateway firmware sends it. */
  gatewayKey?: boolean;
}

export const SECURITY = {
  basic: 'basic',
  bearer: 'bearer',
  apiKey: 'api-key',
  apiEmail: 'api-email',
} as const;

/**
 * Declares what a route requires. Feeds both the global guards and the route's security
 * in the OpenAPI document; a route without it (or `@Public()`) stops the server at start-up.
 */
export function Access(scope: AccessScope, options: Omit<AccessRequirement, 'scope'> = {}) {
  const requirement: AccessRequirement = { scope, ...options };
  const security = options.tokenExchange
    ? [ApiBasicAuth(SECURITY.basic), ApiSecurity(SECURITY.apiKey), ApiSecurity({ [SECURITY.apiKey]: [], [SECURITY.apiEmail]: [] })]
    : options.userCredentials
      ? [ApiSecurity(SECURITY.bearer)]
      : [ApiSecurity(SECURITY.bearer), ApiSecurity(SECURITY.apiKey), ApiSecurity({ [SECURITY.apiKey]: [], [SECURITY.apiEmail]: [] })];
  return applyDecorators(
    SetMetadata(ACCESS_KEY, requirement),
    ...security,
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'Missing, invalid, expired or revoked credentials' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: 'The credentials do not permit this operation' }),
    ...(options.tokenExchange ? [ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Too many failed logins' })] : []),
  );
}
