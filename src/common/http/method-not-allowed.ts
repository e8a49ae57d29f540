import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error';
import { sendError } from '../errors/api-exception.filter';
import { ErrorCode } from '../errors/error-code';

interface RoutePattern {
  methods: Set<string>;
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `/api/v1/buildings/:id/paths` → a regular expression matching concrete paths (trailing slash optional). */
export function routePatternToRegExp(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : escape(segment).replace(/\*/g, '.*')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/**
 * Which methods the server serves at a concrete path, learnt from the routes as they are
 * registered. Catch-all routes (CORS preflight on `*`) say nothing about a path.
 */
export class RouteMethods {
  private readonly routes = new Map<string, RoutePattern>();

  add(url: string, method: string | string[]): void {
    if (url === '*' || url === '/*') return;
    const entry = this.routes.get(url) ?? { methods: new Set<string>(), pattern: routePatternToRegExp(url) };
    for (const item of Array.isArray(method) ? method : [method]) entry.methods.add(item.toUpperCase());
    this.routes.set(url, entry);
  }

  allowedAt(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes.values()) if (route.pattern.test(path)) route.methods.forEach((method) => methods.add(method));
    if (methods.has('GET')) methods.add('HEAD');
    const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
    return [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }
}

/**
 * A request whose path exists under other methods answers 405 with an `Allow` header
 * (RFC 9110 15.5.6) in the contract's error shape; only a path nothing serves is 404.
 * Runs only for requests no route matched (`request.is404`), so other requests pay one check.
 */
export function registerMethodNotAllowed(fastify: FastifyInstance): void {
  const routes = new RouteMethods();
  const logger = new Logger('MethodNotAllowed');
  fastify.addHook('onRoute', (route) => routes.add(route.url, route.method));
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) {
      done();
      return;
    }
    const path = request.url.split('?')[0];
    const allowed = routes.allowedAt(path);
    if (allowed.length === 0) {
      done();
      return;
    }
    const allow = allowed.join(', ');
    sendError(reply, new ApiError(405, ErrorCode.MethodNotAllowed, `${request.method} is not allowed on ${path}; allowed: ${allow}`, [], { Allow: allow }), logger);
  });
}
