import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The dashboard's session: the access token in an HttpOnly cookie that scripts cannot read,
 * SameSite=Strict so other sites' pages never send it, Secure when the request came over HTTPS.
 * Writes made with the cookie also need the CSRF token in a header (double submit): a value
 * the dashboard reads from a second, readable cookie and that is bound to the session by an
 * HMAC, so a cookie planted by a sibling subdomain cannot stand in for it.
 */
export const SESSION_COOKIE = 'cartograph_session';
export const CSRF_COOKIE = 'cartograph_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfTokenFor(key: KeyObject, sessionId: string): string {
  return createHmac('sha256', key).update(`csrf:${sessionId}`).digest('base64url');
}

/**
 * The session cookie's token, only when the request carries no credential header at all.
 * The JWT strategy reads the cookie as its fallback, so a header that looks like Bearer but
 * holds no token it can parse ("Bearer" + a no-break space) would otherwise be answered by
 * the cookie on a path that never checks CSRF.
 */
export function sessionCookieToken(request: FastifyRequest): string | undefined {
  if (request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined) return undefined;
  const value = request.cookies?.[SESSION_COOKIE];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A write authenticated by the cookie must carry the session's CSRF token, and when the browser
 * says where the request comes from (Origin), it must be this server.
 */
export function csrfFailure(request: FastifyRequest, key: KeyObject, sessionId: string | null): string | null {
  if (SAFE_METHODS.has(request.method)) return null;
  if (!sessionId) return 'The session has no CSRF binding';
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return 'The Origin header is malformed';
    }
    // request.host: the Host header, or X-Forwarded-Host when a trusted proxy sent it (the
    // host the browser used; a proxy's upstream Host would refuse every dashboard write).
    if (host !== request.host) return 'Cross-site request refused';
  }
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string') return `Writes with the session cookie need the ${CSRF_HEADER} header`;
  const expected = Buffer.from(csrfTokenFor(key, sessionId));
  const given = Buffer.from(sent);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return `The ${CSRF_HEADER} header does not match the session`;
  return null;
}

function cookieOptions(request: FastifyRequest, httpOnly: boolean, maxAgeSeconds: number) {
  return { path: '/', httpOnly, sameSite: 'strict' as const, secure: request.protocol === 'https', maxAge: maxAgeSeconds };
}

export function setSessionCookies(reply: FastifyReply, request: FastifyRequest, accessToken: string, csrfToken: string, maxAgeSeconds: number): void {
  reply.setCookie(SESSION_COOKIE, accessToken, cookieOptions(request, true, maxAgeSeconds));
  reply.setCookie(CSRF_COOKIE, csrfToken, cookieOptions(request, false, maxAgeSeconds));
}

export function clearSessionCookies(reply: FastifyReply, request: FastifyRequest): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, true, 0));
  reply.clearCookie(CSRF_COOKIE, cookieOptions(request, false, 0));
}
