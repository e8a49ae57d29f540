import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { EntityManager, IsNull } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { authConfig, AuthConfig } from '../config/auth.config';
import { CredentialOwnersRepository } from './credential-owners.repository';
import { TransactionRunner } from '../database/transactions';
import { AccessTokenClaims, RefreshTokensDto, TokenPairDto } from './auth.dto';
import { buildingScopeOf } from '../access/building-scope';
import { CredentialCacheService } from './credential-cache.service';
import { ApiPermission, isApiPermission } from '../access/permissions';
import { CredentialKind, Principal } from '../access/principal';
import { hasSaneTimeClaims } from './token-claims';
import { generateRefreshToken, looksLikeRefreshToken, sha256Hex } from './secrets';
import { User } from '../users/user.entity';
import { AuthSession } from './sessions/auth-session.entity';
import { RefreshToken } from './sessions/refresh-token.entity';

type RefreshOutcome = { pair: TokenPairDto } | { reused: true };

@Injectable()
export class AuthService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
    private readonly transactions: TransactionRunner,
    private readonly credentials: CredentialCacheService,
    private readonly owners: CredentialOwnersRepository,
  ) {}

  /** Opens a session for a caller who proved a password or an API key, and returns its first tokens. */
  async issueTokens(principal: Principal): Promise<TokenPairDto> {
    const refresh = generateRefreshToken();
    const session = await this.createSession(principal, refresh.hash);
    return this.tokenPair(session, principal, refresh.secret);
  }

  /** The dashboard's session: an access token only (the cookie is renewed by logging in again). */
  async openSession(principal: Principal): Promise<{ access_token: string; session_id: string }> {
    const session = await this.createSession(principal, null);
    return { access_token: this.accessToken(session, principal), session_id: session.id };
  }

  /** Logout: the session's tokens stop working at once, on every instance (credential caches included). */
  async endSession(principal: Principal): Promise<void> {
    const sessionId = principal.sessionId;
    if (!sessionId) return;
    await this.transactions.run(async (manager) => {
      await manager.update(AuthSession, { id: sessionId, revokedAt: IsNull() }, { revokedAt: new Date() });
      await this.credentials.revokeUser(manager, principal.userId);
    });
  }

  private async createSession(principal: Principal, refreshTokenHash: string | null): Promise<AuthSession> {
    const now = new Date();
    const session: AuthSession = {
      id: randomUUID(),
      userId: principal.userId,
      organizationId: principal.organizationId,
      apiKeyId: principal.credential === CredentialKind.ApiKey ? principal.apiKeyId : null,
      // A password proves the user: its tokens may do everything the user may (contract 2.1).
      permission: principal.credential === CredentialKind.Password ? ApiPermission.ReadWrite : principal.permission,
      createdAt: now,
      expiresAt: this.refreshExpiry(now),
      revokedAt: null,
    };
    await this.transactions.run(async (manager) => {
      await manager.insert(AuthSession, session);
      if (refreshTokenHash) await this.insertRefreshToken(manager, session.id, refreshTokenHash, now);
      await manager.update(User, { id: principal.userId }, { lastActivity: now });
    });
    return session;
  }

  /**
   * Exchanges a refresh token (single use) for a new pair. Presenting a used one again means
   * it was stolen or replayed: the whole session is revoked.
   */
  async refresh(dto: RefreshTokensDto): Promise<TokenPairDto> {
    if (!looksLikeRefreshToken(dto.refresh_token)) throw ApiError.unauthorized('Invalid refresh token');
    const claims = await this.verifyIgnoringExpiry(dto.access_token);
    const tokenHash = sha256Hex(dto.refresh_token);
    const outcome = await this.transactions.run(async (manager): Promise<RefreshOutcome> => {
      const stored = await manager.findOneBy(RefreshToken, { tokenHash });
      if (!stored || stored.sessionId !== claims.sid) throw ApiError.unauthorized('Invalid refresh token');
      const session = await manager.findOneBy(AuthSession, { id: stored.sessionId });
      if (!session || session.revokedAt) throw ApiError.unauthorized('The session has been revoked');
      const now = new Date();
      if (stored.usedAt) {
        await this.revokeSession(manager, session, now);
        return { reused: true };
      }
      if (stored.expiresAt.getTime() <= now.getTime()) throw ApiError.unauthorized('The refresh token has expired');
      // Conditional: of two concurrent exchanges of one token, exactly one wins.
      const claimed = await manager.update(RefreshToken, { id: stored.id, usedAt: IsNull() }, { usedAt: now });
      if (!claimed.affected) {
        await this.revokeSession(manager, session, now);
        return { reused: true };
      }
      const owner = await this.loadSessionOwner(session.id, manager);
      if (!owner) throw ApiError.unauthorized('The session has been revoked');
      const refresh = generateRefreshToken();
      await this.insertRefreshToken(manager, session.id, refresh.hash, now);
      await manager.update(AuthSession, { id: session.id }, { expiresAt: this.refreshExpiry(now) });
      return { pair: this.tokenPair(session, owner, refresh.secret) };
    });
    if ('reused' in outcome) throw ApiError.unauthorized('The refresh token was already used; its session has been revoked');
    return outcome.pair;
  }

  /**
   * Checks on every request that a token's session is alive, its user still exists and, for
   * a token made from an API key, that the key still exists and is enabled. One indexed query.
   */
  async principalFromClaims(claims: AccessTokenClaims): Promise<Principal | false> {
    if (typeof claims.sid !== 'string' || typeof claims.sub !== 'string') return false;
    const owner = await this.loadSessionOwner(claims.sid);
    if (!owner || owner.userId !== claims.sub) return false;
    return owner;
  }

  /** The principal a session's tokens carry now, or null once it is revoked (or its key, or its user, is gone or disabled). */
  principalOfSession(sessionId: string): Promise<Principal | null> {
    return this.loadSessionOwner(sessionId);
  }

  private async loadSessionOwner(sessionId: string, manager?: EntityManager): Promise<Principal | null> {
    const rows = await this.owners.session(sessionId, manager);
    const row = rows[0];
    if (!row || row.revoked_at !== null) return null;
    // A token made from a key follows the key: re-permissioning or disabling it applies at once.
    const permission = row.api_key_id ? row.key_permission : row.permission;
    if (!isApiPermission(permission) || permission === ApiPermission.Disabled) return null;
    return {
      userId: row.user_id,
      organizationId: row.organization_id,
      email: row.email,
      role: row.role,
      permission,
      credential: row.api_key_id ? CredentialKind.ApiKeyToken : CredentialKind.PasswordToken,
      apiKeyId: row.api_key_id,
      sessionId,
      buildingIds: buildingScopeOf(row.role, row.building_scope),
    };
  }

  private async revokeSession(manager: EntityManager, session: AuthSession, now: Date): Promise<void> {
    await manager.update(AuthSession, { id: session.id }, { revokedAt: now });
    await this.credentials.revokeUser(manager, session.userId);
  }

  private async verifyIgnoringExpiry(accessToken: string): Promise<AccessTokenClaims> {
    let claims: AccessTokenClaims;
    try {
      claims = await this.jwt.verifyAsync<AccessTokenClaims>(accessToken, { ignoreExpiration: true, algorithms: ['HS256'] });
    } catch {
      throw ApiError.unauthorized('Invalid access token');
    }
    // Expiry is ignored here (refreshing is what expired tokens are for), but a token that
    // never carried an expiry is not one Cartograph issued.
    if (!hasSaneTimeClaims(claims, Math.floor(Date.now() / 1000), this.config.accessTokenTtlSeconds)) {
      throw ApiError.unauthorized('Invalid access token');
    }
    return claims;
  }

  private tokenPair(session: AuthSession, owner: Pick<Principal, 'email' | 'role' | 'permission'>, refreshToken: string): TokenPairDto {
    return { access_token: this.accessToken(session, owner), refresh_token: refreshToken };
  }

  private accessToken(session: AuthSession, owner: Pick<Principal, 'email' | 'role' | 'permission'>): string {
    const claims: AccessTokenClaims = {
      sub: session.userId,
      email: owner.email,
      organization_uuid: session.organizationId,
      role: owner.role,
      api_permission: owner.permission,
      sid: session.id,
    };
    return this.jwt.sign(claims, { jwtid: randomUUID() });
  }

  private async insertRefreshToken(manager: EntityManager, sessionId: string, tokenHash: string, now: Date): Promise<void> {
    await manager.insert(RefreshToken, {
      id: randomUUID(),
      sessionId,
      tokenHash,
      createdAt: now,
      expiresAt: this.refreshExpiry(now),
      usedAt: null,
    });
  }

  private refreshExpiry(now: Date): Date {
    return new Date(now.getTime() + this.config.refreshTokenTtlSeconds * 1000);
  }
}
