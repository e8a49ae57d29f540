import { looksLikeApiKey } from './secrets';

/**
 * A gateway's API key as its firmware sends it in `Authorization`, on the routes that take gateway
 * messages: hardware cannot always set `X-API-KEY`. A Ruuvi Gateway's own HTTP(S) server settings
 * offer Basic, Bearer, Token and "API key" authentication, all in `Authorization`
 * (`Bearer {key}`, `Token {key}`, the bare `{key}`); Basic carries the key as its password (any
 * user name), as Minew gateways and most HTTP clients of embedded firmware can. Only a value that
 * is an API key in form (`cgk_…`) is taken; anything else (a JWT, a password) is left to the
 * usual strategies, so nothing but the form of the header changes.
 */
export function gatewayKeyFromAuthorization(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const value = header.trim();
  const scheme = /^(bearer|token|basic)\s+(.+)$/i.exec(value);
  let candidate: string;
  if (!scheme) candidate = value;
  else if (scheme[1].toLowerCase() !== 'basic') candidate = scheme[2].trim();
  else {
    const decoded = Buffer.from(scheme[2].trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    candidate = decoded.slice(colon + 1);
  }
  return looksLikeApiKey(candidate) ? candidate : undefined;
}
