import { Logger } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { ApiError } from '../common/errors/api-error';
import { sendError } from '../common/errors/api-exception.filter';
import { AccessRequirement } from '../access/decorators/access.decorator';
import { AUTHENTICATED_EARLY, AuthenticationGuard } from './guards/authentication.guard';
import { RouteDeclarations } from '../access/route-declarations';

/**
 * Authenticates before the body is read. Fastify reads (and buffers) a request's body before
 * Nest's guards run, so without this anyone could hold memory by trickling bodies to any
 * protected route. A `preParsing` hook runs the global guard's own Passport strategies, so
 * Passport stays the one authority; the guard then finds the request marked and does not
 * authenticate twice. A refused request is answered at once and its connection closed,
 * without reading what remains of its body.
 */
export function registerEarlyAuthentication(app: NestFastifyApplication, prefix: string): void {
  const logger = new Logger('Authentication');
  let requirements: Map<string, AccessRequirement | null> | undefined;
  let guard: AuthenticationGuard | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preParsing', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
      const url = request.routeOptions.url;
      requirements ??= app.get(RouteDeclarations).requirementsByRoute(prefix);
      if (url === undefined) {
        // No route matched: whatever the answer (404), the body is not worth waiting for.
        reply.header('Connection', 'close');
        done(null, emptyBodyInstead(request));
        return;
      }
      // Public routes and routes Nest does not own (the API docs) read their bodies as usual.
      const requirement = requirements.get(`${request.method} ${url}`);
      if (requirement === undefined || requirement === null) {
        done(null, payload);
        return;
      }
      guard ??= app.get(AuthenticationGuard, { strict: false });
      Promise.resolve()
        .then(() => guard!.authenticate(new ExecutionContextHost([request, reply]), requirement))
        .then((authenticated) => {
          if (authenticated !== true) throw ApiError.unauthorized();
        })
        .then(
          () => {
            (request as FastifyRequest & { [AUTHENTICATED_EARLY]?: true })[AUTHENTICATED_EARLY] = true;
            done(null, payload);
          },
          (error: unknown) => {
            // The rest of the body is not worth reading: close instead of draining it.
            reply.header('Connection', 'close');
            sendError(reply, error, logger);
          },
        );
    });
}

/**
 * An empty body standing in for the one on the wire, which is never read (the connection is
 * closed after the answer). Fastify compares what it received with Content-Length.
 */
function emptyBodyInstead(request: FastifyRequest): Readable {
  const empty = Readable.from([]) as Readable & { receivedEncodedLength?: number };
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared)) empty.receivedEncodedLength = declared;
  return empty;
}
