import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/errors/api-error';
import { AccessRequirement } from '../../access/decorators/access.decorator';
import { JWT_KEY } from '../jwt-key';
import { CredentialKind, Principal } from '../../access/principal';
import { csrfFailure, sessionCookieToken } from '../dashboard-session/dashboard-session';
import type { KeyObject } from 'node:crypto';
import { CredentialCacheService } from '../credential-cache.service';
import { gatewayKeyFromAuthorization } from '../gateway-credentials';
import { sha256Hex } from '../secrets';
import { routeAccess } from '../../access/route-access';
import { StreamTicketsService } from '../stream-tickets.service';

/** On a stream opened with a ticket: the principal the ticket was minted for, whose credential re-checks ask again. */
const TICKET_MINTED = Symbol('cartograph:ticket-minted');
type TicketStream = { [TICKET_MINTED]?: Principal };

/** Marks a request whose credentials were checked before its body was read (see early-authentication.ts). */
export const AUTHENTICATED_EARLY = Symbol('cartograph:authenticated-early');
type AuthenticatedEarly = { [AUTHENTICATED_EARLY]?: true };

type PresentedCredential = 'bearer' | 'api-key' | 'both' | 'password-or-api-key';

/** Why presented credentials were refused, told apart from "none were sent" (same 401 and shape). */
function refusal(presented: PresentedCredential, info: unknown): ApiError {
  const infos = (Array.isArray(info) ? info : [info]) as Array<{ name?: string } | undefined>;
  if (infos.some((item) => item?.name === 'TokenExpiredError')) return ApiError.unauthorized('The access token has expired; get a new one');
  if (infos.some((item) => item?.name === 'JsonWebTokenError' || item?.name === 'NotBeforeError')) {
    return ApiError.unauthorized('The access token is invalid');
  }
  switch (presented) {
    case 'bearer':
      return ApiError.unauthorized('The access token has been revoked');
    case 'api-key':
      return ApiError.unauthorized('The API key is invalid or disabled');
    case 'both':
      return ApiError.unauthorized('Neither the access token nor the API key is valid');
    default:
      return ApiError.unauthorized();
  }
}

function acceptPrincipal(error: unknown, principal: Principal | false, info: unknown, context: ExecutionContext, presented: PresentedCredential): Principal {
  if (error) throw error;
  if (!principal) throw refusal(presented, info);
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  principal.ip = request.ip;
  if (principal.credential === CredentialKind.ApiKey) {
    // X-API-EMAIL is optional; when sent it must name the key's owner (contract 2).
    const email = request.headers['x-api-email'];
    if (typeof email === 'string' && email.trim() !== '' && email.trim().toLowerCase() !== principal.email) {
      throw ApiError.unauthorized('X-API-EMAIL does not match the owner of the API key');
    }
  }
  return principal;
}

class BearerOrApiKeyGuard extends AuthGuard(['jwt', 'api-key']) {
  override handleRequest<T>(error: unknown, principal: Principal | false, info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, info, context, 'both') as T;
  }
}

class BearerGuard extends AuthGuard('jwt') {
  override handleRequest<T>(error: unknown, principal: Principal | false, info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, info, context, 'bearer') as T;
  }
}

class ApiKeyGuard extends AuthGuard('api-key') {
  override handleRequest<T>(error: unknown, principal: Principal | false, info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, info, context, 'api-key') as T;
  }
}

class PasswordOrApiKeyGuard extends AuthGuard(['basic', 'api-key']) {
  override handleRequest<T>(error: unknown, principal: Principal | false, info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, info, context, 'password-or-api-key') as T;
  }
}

/**
 * The global authentication guard: every route needs a Bearer token or an API key, except
 * `@Public()` ones; token-exchange routes take a password (Basic) or an API key instead.
 * The strategy is picked from the headers present, so that a request with an API key does
 * not first fail through the JWT strategy (which builds an Error, stack and all).
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly bearerOrApiKey = new BearerOrApiKeyGuard();
  private readonly bearer = new BearerGuard();
  private readonly apiKey = new ApiKeyGuard();
  private readonly passwordOrApiKey = new PasswordOrApiKeyGuard();

  constructor(
    private readonly reflector: Reflector,
    @Inject(JWT_KEY) private readonly key: KeyObject,
    private readonly credentials: CredentialCacheService,
    private readonly streamTickets: StreamTicketsService,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> | boolean {
    const { isPublic, requirement } = routeAccess(this.reflector, context.getHandler(), context.getClass());
    if (isPublic) return true;
    // Already authenticated, by these same strategies, before the body was read.
    if ((context.switchToHttp().getRequest<FastifyRequest>() as AuthenticatedEarly)[AUTHENTICATED_EARLY]) return true;
    return this.authenticate(context, requirement);
  }

  /** Runs the Passport strategy the request's headers call for; the principal lands in `request.user`. */
  authenticate(context: ExecutionContext, requirement: AccessRequirement | undefined): Promise<boolean> | boolean {
    if (requirement?.tokenExchange) return this.passwordOrApiKey.canActivate(context) as Promise<boolean>;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const { headers } = request;
    if (requirement?.gatewayKey && headers['x-api-key'] === undefined) {
      // Gateway firmware sends its key in Authorization: from here on it is the API key it is.
      const gatewayKey = gatewayKeyFromAuthorization(headers.authorization);
      if (gatewayKey !== undefined) {
        headers['x-api-key'] = gatewayKey;
        delete headers.authorization;
      }
    }
    const headerBearer = typeof headers.authorization === 'string' && /^bearer\s/i.test(headers.authorization) ? headers.authorization.slice(7).trim() : undefined;
    const apiKey = headers['x-api-key'];
    const hasApiKey = apiKey !== undefined;
    if (headerBearer === undefined && !hasApiKey) {
      // A stream opened with a ticket, checked again: its credential is asked again (the ticket was spent).
      const minted = (request as TicketStream)[TICKET_MINTED];
      if (minted) return this.viaTicketCredential(request, minted);
      // Only stream routes take a ticket, and only without headers: Passport stays the authority for those.
      const ticket = requirement?.stream ? (request.query as Record<string, unknown> | undefined)?.ticket : undefined;
      if (ticket !== undefined) return this.viaStreamTicket(request, ticket);
      // The dashboard's session cookie: a bearer token the browser keeps, good only with the CSRF check.
      const cookieToken = sessionCookieToken(request);
      if (cookieToken === undefined) throw ApiError.unauthorized();
      return this.viaSessionCookie(context, request, cookieToken);
    }
    const guard = headerBearer !== undefined && hasApiKey ? this.bearerOrApiKey : headerBearer !== undefined ? this.bearer : this.apiKey;
    // With both headers only the token is looked up, since Passport tries the JWT strategy first.
    const cacheKey = headerBearer ?? (typeof apiKey === 'string' ? sha256Hex(apiKey) : undefined);
    return this.verify(guard, context, request, cacheKey, headerBearer !== undefined);
  }

  /** What the credential proved before, if nothing changed since; otherwise Passport. */
  private verify(
    guard: CanActivate,
    context: ExecutionContext,
    request: FastifyRequest & { user?: Principal },
    cacheKey: string | undefined,
    keyIsToken: boolean,
  ): Promise<boolean> | boolean {
    if (!this.credentials.enabled) return guard.canActivate(context) as Promise<boolean>;
    const cached = cacheKey === undefined ? undefined : this.credentials.lookup(cacheKey);
    if (cached) {
      request.user = acceptPrincipal(null, cached, undefined, context, keyIsToken ? 'bearer' : 'api-key');
      return true;
    }
    return this.verifyAndRemember(guard, context, request, cacheKey, keyIsToken);
  }

  private async viaStreamTicket(request: FastifyRequest & { user?: Principal }, ticket: unknown): Promise<boolean> {
    const redeemed = typeof ticket === 'string' ? await this.streamTickets.redeem(ticket) : null;
    if (!redeemed) throw ApiError.unauthorized('The stream ticket is unknown, used or expired');
    const principal = redeemed.principal;
    if (!principal) throw ApiError.unauthorized('The credential this stream ticket was made with has been revoked');
    (request as TicketStream)[TICKET_MINTED] = redeemed.minted;
    principal.ip = request.ip;
    request.user = principal;
    return true;
  }

  private async viaTicketCredential(request: FastifyRequest & { user?: Principal }, minted: Principal): Promise<boolean> {
    const principal = await this.streamTickets.credentialNow(minted);
    if (!principal) throw ApiError.unauthorized('The credential this stream was opened with has been revoked');
    principal.ip = request.ip;
    request.user = principal;
    return true;
  }

  private async viaSessionCookie(context: ExecutionContext, request: FastifyRequest & { user?: Principal }, token: string): Promise<boolean> {
    await this.verify(this.bearer, context, request, token, true);
    const failure = csrfFailure(request, this.key, request.user?.sessionId ?? null);
    if (failure) throw ApiError.forbidden(failure);
    return true;
  }

  /** A miss goes through Passport; what the strategy returned is remembered under the credential it came from. */
  private async verifyAndRemember(
    guard: CanActivate,
    context: ExecutionContext,
    request: FastifyRequest & { user?: Principal },
    cacheKey: string | undefined,
    keyIsToken: boolean,
  ): Promise<boolean> {
    const ticket = this.credentials.ticket();
    const allowed = await guard.canActivate(context);
    const principal = request.user;
    if (!allowed || !principal || cacheKey === undefined) return allowed as boolean;
    const fromApiKey = principal.credential === CredentialKind.ApiKey;
    if (fromApiKey && !keyIsToken) this.credentials.store(cacheKey, principal, null, ticket);
    if (!fromApiKey && keyIsToken) {
      const expiresAt = tokenExpiry(cacheKey);
      if (expiresAt !== null) this.credentials.store(cacheKey, principal, expiresAt, ticket);
    }
    return true;
  }
}

/** The `exp` of a token the strategy has just verified, in epoch milliseconds. */
function tokenExpiry(token: string): number | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}
