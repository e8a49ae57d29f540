import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/errors/api-error';
import { ACCESS_KEY, AccessRequirement } from '../decorators/access.decorator';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator';
import { CredentialCacheService } from '../credential-cache.service';
import { CredentialKind, Principal } from '../principal';
import { sha256Hex } from '../secrets';

function acceptPrincipal(error: unknown, principal: Principal | false, context: ExecutionContext): Principal {
  if (error) throw error;
  if (!principal) throw ApiError.unauthorized();
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
  override handleRequest<T>(error: unknown, principal: Principal | false, _info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, context) as T;
  }
}

class BearerGuard extends AuthGuard('jwt') {
  override handleRequest<T>(error: unknown, principal: Principal | false, _info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, context) as T;
  }
}

class ApiKeyGuard extends AuthGuard('api-key') {
  override handleRequest<T>(error: unknown, principal: Principal | false, _info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, context) as T;
  }
}

class PasswordOrApiKeyGuard extends AuthGuard(['basic', 'api-key']) {
  override handleRequest<T>(error: unknown, principal: Principal | false, _info: unknown, context: ExecutionContext): T {
    return acceptPrincipal(error, principal, context) as T;
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
    private readonly credentials: CredentialCacheService,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> | boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    const requirement = this.reflector.getAllAndOverride<AccessRequirement | undefined>(ACCESS_KEY, targets);
    if (requirement?.tokenExchange) return this.passwordOrApiKey.canActivate(context) as Promise<boolean>;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const { headers } = request;
    const bearer = typeof headers.authorization === 'string' && /^bearer\s/i.test(headers.authorization) ? headers.authorization.slice(7).trim() : undefined;
    const apiKey = headers['x-api-key'];
    const hasApiKey = apiKey !== undefined;
    if (bearer === undefined && !hasApiKey) throw ApiError.unauthorized();
    const guard = bearer !== undefined && hasApiKey ? this.bearerOrApiKey : bearer !== undefined ? this.bearer : this.apiKey;
    if (!this.credentials.enabled) return guard.canActivate(context) as Promise<boolean>;

    // What the credential proved before, if nothing changed since. With both headers only the
    // token is looked up, since Passport tries the JWT strategy first.
    const cacheKey = bearer ?? (typeof apiKey === 'string' ? sha256Hex(apiKey) : undefined);
    const cached = cacheKey === undefined ? undefined : this.credentials.lookup(cacheKey);
    if (cached) {
      request.user = acceptPrincipal(null, cached, context);
      return true;
    }
    return this.verifyAndRemember(guard, context, request, cacheKey, bearer !== undefined);
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
