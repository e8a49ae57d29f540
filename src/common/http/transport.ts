import { compile } from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { TransportConfig } from '../../config/transport.config';
import { ApiError, ErrorBody } from '../errors/api-error';
import { defaultCodeForStatus, ErrorCode } from '../errors/error-code';
import { renderError } from '../errors/error-response';

const PROTOCOL_ERROR_HEADERS = Symbol('cartograph:protocol-error-headers');

type WithHeaders = FastifyInstance & { [PROTOCOL_ERROR_HEADERS]?: Record<string, string> };

/** Headers every answer carries unless its handler says otherwise: answers hold callers' data. */
const DEFAULT_CACHE_CONTROL = 'no-store';

/**
 * Options of the HTTP server that bound how long a client may take (a request that trickles
 * in holds memory), and the handlers for errors Fastify and Node raise before any route or
 * hook runs (malformed URL, over-long parameter, oversized headers, timeouts), so that those
 * answer in the contract's error shape too instead of Fastify's own.
 */
export function transportServerOptions(config: TransportConfig) {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // Node checks the two timeouts above on this period (30 s by default).
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(config.requestTimeoutMs / 4))),
    },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Requests arriving while the server closes are answered by registerTransportHardening, in the contract's shape.
    return503OnClosing: false,
  };
}

function answerFrameworkError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { body, headers } = renderError(error);
  const securityHeaders = (request.server as WithHeaders)[PROTOCOL_ERROR_HEADERS] ?? {};
  reply
    .headers({ ...securityHeaders, ...headers, 'Cache-Control': DEFAULT_CACHE_CONTROL, 'X-Request-Id': String(request.id) })
    .code(body.status)
    .type('application/json; charset=utf-8')
    .send(body);
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request line or headers are too large' },
};

/** A whole HTTP/1.1 error answer written straight to a socket, in the contract's shape. */
export function rawErrorResponse(status: number, message: string, extraHeaders: Record<string, string> = {}): string {
  const body: ErrorBody = { status, code: defaultCodeForStatus(status), message, errors: [] };
  const json = JSON.stringify(body);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(json)),
    'Cache-Control': DEFAULT_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
    ...extraHeaders,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large' }[status] ?? 'Error';
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${json}`;
}

/** Node's 'clientError': the request could not be parsed or did not arrive in time. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already under way cannot be replaced by another one.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'The request is not valid HTTP' };
    socket.end(rawErrorResponse(known.status, known.message));
  }
  socket.destroySoon?.();
  setTimeout(() => socket.destroy(), 1_000).unref();
}

/**
 * Caps the connections one client address holds open. Connections from trusted reverse
 * proxies are exempt: they carry many clients, and the proxy is where to limit those.
 */
export function limitConnectionsPerClient(server: Server, maxPerClient: number, trustedProxies: string[]): void {
  const isTrustedProxy = trustedProxies.length > 0 ? compile(trustedProxies) : () => false;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || isTrustedProxy(address, 0)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > maxPerClient) {
      socket.end(rawErrorResponse(429, 'Too many open connections from this address', { 'Retry-After': '1' }));
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Transport-level defaults applied to every answer: `Cache-Control: no-store` (handlers
 * that serve cacheable content set their own), the same security headers on protocol
 * errors as on routed answers, and the per-client connection cap.
 */
export function registerTransportHardening(fastify: FastifyInstance, config: TransportConfig, trustedProxies: string[], securityHeaders: Record<string, string>): void {
  (fastify as WithHeaders)[PROTOCOL_ERROR_HEADERS] = securityHeaders;
  // From the moment shutdown starts, new requests (a keep-alive connection can still carry some) are
  // told to go elsewhere: 503 with Retry-After, in the error shape, and the connection closed.
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('Cache-Control', DEFAULT_CACHE_CONTROL);
    if (!closing) return done();
    answerFrameworkError(new ApiError(503, ErrorCode.ServiceUnavailable, 'The server is shutting down; retry', [], { 'Retry-After': '1', Connection: 'close' }), request, reply);
  });
  limitConnectionsPerClient(fastify.server, config.maxConnectionsPerClient, trustedProxies);
}
