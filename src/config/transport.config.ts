import { ConfigurationError, Env, readInteger, readString } from './env';

/** Bounds on how long and how many connections one client may hold (issue 9, item 5). */
export interface TransportConfig {
  /** The whole request, headers and body, must arrive within this time (408 otherwise). */
  requestTimeoutMs: number;
  /** The request line and headers must arrive within this time. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** A connection on which nothing moves for this long is closed (streams must send heartbeats). */
  connectionTimeoutMs: number;
  /** Open connections from one client address; further ones are closed at once. */
  maxConnectionsPerClient: number;
  /**
   * Strict-Transport-Security: `auto` sends it only on requests that came over HTTPS (directly,
   * or through a proxy named in TRUSTED_PROXIES); `always` on every answer; `off` never.
   */
  hsts: 'auto' | 'always' | 'off';
  hstsMaxAgeSeconds: number;
}

export function readTransportConfig(env: Env): TransportConfig {
  const requestTimeoutMs = readInteger(env, 'REQUEST_TIMEOUT_MS', 60_000, { min: 100, max: 3_600_000 });
  return {
    requestTimeoutMs,
    headersTimeoutMs: Math.min(requestTimeoutMs, readInteger(env, 'HEADERS_TIMEOUT_MS', 10_000, { min: 100, max: 600_000 })),
    // Longer than the usual load balancer idle timeout (60 s), or the balancer may reuse a
    // connection the server is closing and answer 502. Idle connections count against the
    // per-client cap, so holding them costs an attacker its own quota.
    keepAliveTimeoutMs: readInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, { min: 100, max: 600_000 }),
    connectionTimeoutMs: readInteger(env, 'CONNECTION_IDLE_TIMEOUT_MS', 120_000, { min: 1_000, max: 3_600_000 }),
    maxConnectionsPerClient: readInteger(env, 'MAX_CONNECTIONS_PER_CLIENT', 100, { min: 1, max: 100_000 }),
    hsts: readHsts(env),
    hstsMaxAgeSeconds: readInteger(env, 'HSTS_MAX_AGE_SECONDS', 31_536_000, { min: 0, max: 63_072_000 }),
  };
}

function readHsts(env: Env): TransportConfig['hsts'] {
  const value = readString(env, 'HSTS', 'auto');
  if (value !== 'auto' && value !== 'always' && value !== 'off') throw new ConfigurationError('HSTS must be auto, always or off', 'HSTS');
  return value;
}
