import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal';
import { createLogger, Logger } from './logger';

/** Receives each log line (a JSON text ending in a newline): the tests' way to read the logs. */
export type LogSink = (line: string) => void;

export function loggerToSink(sink: LogSink): Logger {
  return createLogger({ level: 'info', destination: { write: sink } });
}

/**
 * One JSON line per request: request id, method, route pattern (the raw path, without its
 * query string, when no route matched), status, duration, client address, user and
 * organization. Headers and bodies, where credentials travel, are never logged; neither is
 * the query string, which may carry identifiers or secrets.
 */
export function registerRequestLogging(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const principal = (request as FastifyRequest & { user?: Principal }).user;
    logger.info(
      {
        request_id: request.id,
        method: request.method,
        route: request.routeOptions.url ?? rawPath(request.url),
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
        client: request.ip,
        user_id: principal?.userId ?? null,
        organization_id: principal?.organizationId ?? null,
      },
      'request',
    );
    done();
  });
}

function rawPath(url: string): string {
  const end = url.indexOf('?');
  return (end === -1 ? url : url.slice(0, end)).slice(0, 200);
}
