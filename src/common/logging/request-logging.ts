import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal';

export type LogSink = (line: string) => void;

const stdoutSink: LogSink = (line) => process.stdout.write(line);

/**
 * One JSON line per request: method, route pattern (never the raw URL, which may carry
 * identifiers or secrets), status, duration and the caller's organization. Headers and
 * bodies, where credentials travel, are never logged.
 */
export function registerRequestLogging(fastify: FastifyInstance, sink: LogSink = stdoutSink): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const principal = (request as FastifyRequest & { user?: Principal }).user;
    sink(
      `${JSON.stringify({
        level: 'info',
        time: new Date().toISOString(),
        msg: 'request',
        request_id: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
        organization: principal?.organizationId ?? null,
      })}\n`,
    );
    done();
  });
}
