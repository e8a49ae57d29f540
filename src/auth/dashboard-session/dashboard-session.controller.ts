import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyObject } from 'node:crypto';
import { ApiError } from '../../common/errors/api-error';
import { formatTimestamp } from '../../common/time/timestamps';
import { authConfig, AuthConfig } from '../../config/auth.config';
import { AuthService } from '../auth.service';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { JWT_KEY } from '../jwt-key';
import { AccessScope } from '../../access/permissions';
import { CredentialKind, Principal } from '../../access/principal';
import { Role } from '../../access/roles';
import { clearSessionCookies, csrfTokenFor, setSessionCookies } from './dashboard-session';

class SessionUserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: Role }) role: Role;
  @ApiProperty({ format: 'uuid' }) organization_id: string;
}

class DashboardSessionDto {
  @ApiProperty({ type: SessionUserDto }) user: SessionUserDto;
  @ApiProperty({ description: 'When the session cookie stops working' }) expires_at: string;
}

function sessionOf(principal: Principal, expiresAt: Date): DashboardSessionDto {
  return {
    user: { id: principal.userId, email: principal.email, role: principal.role, organization_id: principal.organizationId },
    expires_at: formatTimestamp(expiresAt),
  };
}

/** The `exp` of a token the guard has verified for this request. */
function tokenExpiry(request: FastifyRequest): Date | null {
  const header = request.headers.authorization;
  const token = typeof header === 'string' && /^bearer\s/i.test(header) ? header.slice(7).trim() : request.cookies?.cartograph_session;
  if (!token) return null;
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : null;
  } catch {
    return null;
  }
}

/**
 * The web dashboard's login: the same password check (and login throttle) as the token
 * endpoint, answered with cookies instead of tokens in the body. API clients keep using
 * /auth/access_tokens.
 */
@ApiTags('Authentication')
@Controller('auth/session')
export class DashboardSessionController {
  constructor(
    private readonly auth: AuthService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
    @Inject(JWT_KEY) private readonly key: KeyObject,
  ) {}

  @Post()
  @HttpCode(201)
  @Access(AccessScope.Authenticated, { tokenExchange: true })
  @ApiOperation({ summary: 'Log in to the dashboard with Basic e-mail:password; sets the HttpOnly session cookie and the CSRF cookie' })
  @ApiCreatedResponse({ type: DashboardSessionDto })
  async logIn(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<DashboardSessionDto> {
    // An API key is for programs: the dashboard session is a person's, proven by a password.
    if (principal.credential !== CredentialKind.Password) throw ApiError.unauthorized('Log in to the dashboard with your e-mail and password');
    const { access_token, session_id } = await this.auth.openSession(principal);
    const ttl = this.config.accessTokenTtlSeconds;
    setSessionCookies(reply, request, access_token, csrfTokenFor(this.key, session_id), ttl);
    return sessionOf(principal, new Date(Date.now() + ttl * 1000));
  }

  @Get()
  @Access(AccessScope.Authenticated, { userCredentials: true })
  @ApiOperation({ summary: 'The current dashboard session (401 when there is none)' })
  @ApiOkResponse({ type: DashboardSessionDto })
  current(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): DashboardSessionDto {
    return sessionOf(principal, tokenExpiry(request) ?? new Date());
  }

  @Delete()
  @HttpCode(204)
  @Access(AccessScope.Authenticated, { userCredentials: true })
  @ApiOperation({ summary: 'Log out: ends the session on every instance and clears the cookies' })
  @ApiNoContentResponse()
  async logOut(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.auth.endSession(principal);
    clearSessionCookies(reply, request);
  }
}
