import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { MetricsConfig } from '../../config/metrics.config';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code';
import { collectProcessMetrics, httpRequestDuration, httpRequestsTotal, metricsRegistry, PoolCounts, reportPool } from './metrics.registry';

export const METRICS_PATH = '/metrics';

export const metricsEnabled = (config: MetricsConfig): boolean => config.token !== undefined || config.port !== undefined;

/**
 * Counts and times every request by route template (never the raw URL: unbounded labels),
 * reports the database pool (`readPool`: its counts, none without a pool), and, with
 * METRICS_TOKEN, serves `/metrics` on the API port.
 */
export function registerMetrics(fastify: FastifyInstance, config: MetricsConfig, readPool: () => PoolCounts | undefined): void {
  if (!metricsEnabled(config)) return;
  collectProcessMetrics();
  fastify.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    httpRequestsTotal.inc(labels);
    httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  const stopReporting = reportPool(readPool);
  fastify.addHook('onClose', (_instance, done) => {
    stopReporting();
    done();
  });
  const { token } = config;
  if (token === undefined) return;
  fastify.get(METRICS_PATH, async (request, reply) => {
    const refusal = refuse(request.headers, token);
    if (refusal) return reply.code(refusal.status).headers(refusal.headers).send(refusal.toBody());
    return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
}

/** `/metrics` alone on its own port; METRICS_TOKEN, when set, is required there too. */
export async function startMetricsServer(config: MetricsConfig, host: string): Promise<Server | undefined> {
  if (config.port === undefined) return undefined;
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const refusal =
      path !== METRICS_PATH || request.method !== 'GET'
        ? new ApiError(404, ErrorCode.RouteNotFound, `${request.method} ${path} not found`)
        : config.token === undefined
          ? undefined
          : refuse(request.headers, config.token);
    if (refusal) {
      response.writeHead(refusal.status, { 'Content-Type': 'application/json', ...refusal.headers }).end(JSON.stringify(refusal.toBody()));
      return;
    }
    metricsRegistry.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': metricsRegistry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, host, () => resolve());
  });
  return server;
}

function refuse(headers: IncomingHttpHeaders, token: string): ApiError | undefined {
  const match = /^Bearer (.+)$/i.exec(headers.authorization ?? '');
  if (match && sameSecret(match[1].trim(), token)) return undefined;
  const error = ApiError.unauthorized('The metrics token is missing or wrong');
  return new ApiError(error.status, error.code, error.message, [], { 'WWW-Authenticate': 'Bearer realm="metrics"' });
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
