import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthService } from './auth.service';
import { CredentialKind, Principal } from '../access/principal';
import { sha256Hex } from './secrets';
import { StreamTicketsRepository } from './stream-tickets.repository';

export const STREAM_TICKET_TTL_SECONDS = 60;
/** Recognisable, like the other secrets, so scanners can find a leaked one. */
const TICKET_PREFIX = 'cgs_';
const TICKET_FORMAT = /^cgs_[A-Za-z0-9_-]{43}$/;

type StoredPrincipal = Omit<Principal, 'ip'>;

/**
 * Single-use tickets for live streams: browsers' EventSource cannot send headers, and a
 * token must never travel in a URL (logs, history, Referer). A ticket carries the principal
 * of whoever asked for it, is good for 60 s and for one stream route request, and is kept
 * in the database as its SHA-256 only. Redemption is one DELETE … RETURNING, atomic on both
 * databases, so any instance can redeem it and no two requests can. A ticket is only as good
 * as the credential that minted it: redeeming it, and every re-check of the stream it opened
 * (a revocation of its user), asks that credential again (its session, or its API key), so a
 * revoked, downgraded or logged-out credential ends there as a header-authenticated one does.
 */
@Injectable()
export class StreamTicketsService {
  constructor(
    private readonly tickets: StreamTicketsRepository,
    private readonly sessions: AuthService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async issue(principal: Principal): Promise<{ ticket: string; expires_in: number }> {
    const ticket = `${TICKET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = Date.now();
    const stored: StoredPrincipal = { ...principal };
    delete (stored as Principal).ip;
    await this.tickets.issue(
      {
        hash: sha256Hex(ticket),
        organizationId: principal.organizationId,
        userId: principal.userId,
        principal: JSON.stringify(stored),
        expiresAt: new Date(now + STREAM_TICKET_TTL_SECONDS * 1000),
      },
      new Date(now),
    );
    return { ticket, expires_in: STREAM_TICKET_TTL_SECONDS };
  }

  /**
   * The principal the ticket was issued to, once, as its credential stands now (`minted`: as
   * it stood then, what later re-checks ask again; `principal` null if that credential no
   * longer holds); null if the ticket is unknown, used or expired.
   */
  async redeem(ticket: string): Promise<{ principal: Principal | null; minted: Principal } | null> {
    const minted = await this.take(ticket);
    return minted ? { principal: await this.credentialNow(minted), minted } : null;
  }

  /**
   * What the credential a ticket was minted with may do now: its session (a token's, the
   * dashboard's cookie) or its API key, looked up again; null once it is revoked, deleted,
   * disabled or logged out, or no longer the same user's.
   */
  async credentialNow(minted: Principal): Promise<Principal | null> {
    let now: Principal | null = null;
    if (minted.sessionId) now = await this.sessions.principalOfSession(minted.sessionId);
    else if (minted.credential === CredentialKind.ApiKey && minted.apiKeyId) now = await this.apiKeys.principalOfKey(minted.apiKeyId);
    if (!now || now.userId !== minted.userId || now.organizationId !== minted.organizationId) return null;
    return now;
  }

  private async take(ticket: string): Promise<Principal | null> {
    if (!TICKET_FORMAT.test(ticket)) return null;
    const principal = await this.tickets.take(sha256Hex(ticket), new Date());
    return principal === null ? null : (JSON.parse(principal) as Principal);
  }
}
