import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthService } from './auth.service';
import { CredentialKind, Principal } from '../access/principal';
import { sha256Hex } from './secrets';

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
  private readonly postgres: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sessions: AuthService,
    private readonly apiKeys: ApiKeysService,
  ) {
    this.postgres = dataSource.options.type === 'postgres';
  }

  async issue(principal: Principal): Promise<{ ticket: string; expires_in: number }> {
    const ticket = `${TICKET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = Date.now();
    const stored: StoredPrincipal = { ...principal };
    delete (stored as Principal).ip;
    const p = this.placeholders(5);
    // Expired tickets are swept by whoever issues the next one (indexed on expires_at).
    await this.dataSource.query(`DELETE FROM stream_tickets WHERE expires_at < ${this.placeholders(1)[0]}`, [this.stamp(now)]);
    await this.dataSource.query(`INSERT INTO stream_tickets (ticket_hash, organization_id, user_id, principal, expires_at) VALUES (${p.join(', ')})`, [
      sha256Hex(ticket),
      principal.organizationId,
      principal.userId,
      JSON.stringify(stored),
      this.stamp(now + STREAM_TICKET_TTL_SECONDS * 1000),
    ]);
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
    const [hash, now] = this.placeholders(2);
    const rows = (await this.dataSource.query(`DELETE FROM stream_tickets WHERE ticket_hash = ${hash} AND expires_at > ${now} RETURNING principal`, [
      sha256Hex(ticket),
      this.stamp(Date.now()),
    ])) as unknown;
    // TypeORM's PostgreSQL driver answers a DELETE with [rows, count].
    const list = (this.postgres && Array.isArray(rows) && Array.isArray(rows[0]) ? rows[0] : rows) as Array<{ principal: string }>;
    if (!Array.isArray(list) || list.length === 0) return null;
    return JSON.parse(list[0].principal) as Principal;
  }

  private placeholders(count: number): string[] {
    return Array.from({ length: count }, (_, i) => (this.postgres ? `$${i + 1}` : '?'));
  }

  private stamp(epochMs: number): Date | string {
    const date = new Date(epochMs);
    return this.postgres ? date : date.toISOString().replace('T', ' ').slice(0, 23);
  }
}
