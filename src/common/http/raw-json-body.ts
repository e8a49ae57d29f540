import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/**
 * A route that reads its JSON body itself (the gateway ingest: a body that is not JSON is counted
 * on the gateway's health with its reason, so it must reach the handler): the body arrives as the
 * text sent, not parsed.
 */
export const RawJsonBody = (): MethodDecorator => RouteConfig({ rawJsonBody: true });

export function wantsRawJson(request: FastifyRequest): boolean {
  return (request.routeOptions?.config as { rawJsonBody?: unknown } | undefined)?.rawJsonBody === true;
}
