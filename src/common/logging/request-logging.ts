import { writeSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal';

export type LogSink = (line: string) => void;

/**
 * Lines gathered during one turn of the event loop are written to stdout together: one
 * write per burst of requests instead of one per request. Whatever is pending is written
 * synchronously when the process exits.
 */
function batchedStdoutSink(): LogSink {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    process.stdout.write(chunk);
  };
  process.once('exit', () => {
    if (pending.length > 0) writeSync(1, pending.join(''));
  });
  return (line) => {
    if (pending.push(line) === 1) setImmediate(flush);
  };
}

/**
 * One JSON line per request: method, route pattern (never the raw URL, which may carry
 * identifiers or secrets), status, duration and the caller's organization. Headers and
 * bodies, where credentials travel, are never logged.
 */
export function registerRequestLogging(fastify: FastifyInstance, sink: LogSink = batchedStdoutSink()): void {
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
