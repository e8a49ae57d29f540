import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/**
 * A route whose body may be larger than the API's limit (`BODY_LIMIT_BYTES`), for routes whose
 * contract allows more items than 1 MiB holds. Fastify enforces it before the body is parsed,
 * so a larger body is `413 payload_too_large` as everywhere else.
 */
export const BodyLimit = (bytes: number): MethodDecorator => RouteConfig({ bodyLimit: bytes });

/** Applies `@BodyLimit` (carried in the route's config) to the route itself; call before routes are registered. */
export function registerRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof limit === 'number') route.bodyLimit = limit;
  });
}
