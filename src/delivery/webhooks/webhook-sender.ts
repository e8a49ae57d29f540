import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { refusalForAddress, Resolver, systemResolver, WebhookTargetRefused } from './target-guard';

export interface AttemptResult {
  /** null: no HTTP answer (refused target, DNS, connection, timeout). */
  status: number | null;
  retryAfter: string | null;
  durationMs: number;
  /**
   * For the deliveries log: a short reason of ours (why there was no answer, or the status of a
   * non-2xx one), with the answer's first bytes only when the operator opted in to them.
   */
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  blockPrivateNetworks: boolean;
  /** Keep the first 512 bytes of a non-2xx answer in `error` (WEBHOOK_RECORD_RESPONSE_BODIES). */
  recordResponseBodies?: boolean;
  resolve?: Resolver;
  /**
   * Keep-alive agents (one for http, one for https) so attempts to one receiver reuse their
   * connections; a pooled connection was opened to an address vetted when it connected. Without
   * them, each attempt opens a connection of its own.
   */
  agents?: { http: HttpAgent; https: HttpsAgent };
}

/**
 * Keep-alive agents for `SendOptions.agents`. An idle connection is closed after 4 s, before the
 * 5 s after which common servers (Node's among them) close theirs, so an attempt seldom picks a
 * connection the receiver is closing.
 */
export function deliveryAgents(): { http: HttpAgent; https: HttpsAgent } {
  const options = { keepAlive: true, maxFreeSockets: 16, timeout: 4000, scheduling: 'lifo' as const };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

const RESPONSE_EXCERPT_BYTES = 512;

/**
 * Why a connection failed, in our words: the system's message may name addresses and ports, and
 * a deliveries log readable by read-write credentials must not probe the network for them.
 */
function connectionFailure(error: Error & { code?: string }, timeoutMs: number): string {
  if (error instanceof WebhookTargetRefused) return error.reason === 'unresolvable' ? 'the host does not resolve' : `refused target (${error.reason})`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host does not resolve';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'ETIMEDOUT':
      return `no answer within ${timeoutMs} ms`;
    default:
      if (error.message === NO_ANSWER) return `no answer within ${timeoutMs} ms`;
      if (/certificate|ssl|tls/i.test(`${error.code ?? ''} ${error.message}`)) return 'TLS handshake failed';
      return 'connection failed';
  }
}
const NO_ANSWER = 'no answer in time';

/**
 * One delivery attempt. The socket connects only to an address this function resolved and
 * vetted itself (a custom `lookup`), so a name cannot resolve to a public address for the check
 * and to a metadata address for the connection. Redirects are not followed (a 3xx is a failure).
 * The whole attempt, body included, must finish within `timeoutMs`.
 */
export function sendWebhook(url: URL, headers: Record<string, string>, body: string, options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const resolve = options.resolve ?? systemResolver;

  const vettedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const pick = (addresses: string[]) => {
      for (const address of addresses) {
        const refusal = refusalForAddress(address, options.blockPrivateNetworks);
        if (refusal) return callback(new WebhookTargetRefused(refusal, `${host} resolves to a refused address (${address})`), '', 4);
      }
      const address = addresses[0];
      const family = isIP(address) === 6 ? 6 : 4;
      if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
      callback(null, address, family);
    };
    if (isIP(host)) return pick([host]);
    resolve(host).then(
      (addresses) => (addresses.length ? pick(addresses) : callback(new WebhookTargetRefused('unresolvable', `${host} does not resolve`), '', 4)),
      () => callback(new WebhookTargetRefused('unresolvable', `${host} does not resolve`), '', 4),
    );
  };

  return new Promise<AttemptResult>((settle) => {
    let done = false;
    let deadline: NodeJS.Timeout | undefined;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      settle({ ...result, durationMs: elapsed() });
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // Literal addresses skip the lookup hook in Node, so they are vetted here.
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(literal)) {
      const refusal = refusalForAddress(literal, options.blockPrivateNetworks);
      if (refusal) return finish({ status: null, retryAfter: null, error: `refused target (${refusal})` });
    }
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Cartograph-Webhooks/1' },
        lookup: vettedLookup,
        agent: options.agents ? (url.protocol === 'https:' ? options.agents.https : options.agents.http) : false,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (options.recordResponseBodies && kept < RESPONSE_EXCERPT_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        res.on('end', () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          const retryAfter = res.headers['retry-after'];
          finish({ status, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, error: ok ? null : excerpt ? `HTTP ${status}: ${excerpt}` : `HTTP ${status}` });
        });
        res.on('error', () => finish({ status: res.statusCode ?? null, retryAfter: null, error: `HTTP ${res.statusCode}: the answer broke off` }));
      },
    );
    deadline = setTimeout(() => {
      req.destroy(new Error(NO_ANSWER));
    }, options.timeoutMs);
    req.on('error', (e) => finish({ status: null, retryAfter: null, error: connectionFailure(e, options.timeoutMs) }));
    req.end(body);
  });
}
