import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The web dashboard (web/, built by `npm run build` into dist/web) served at `/` by the API
 * server itself: no second server, no CDN. It calls the public API like any client.
 */

/** The dashboard's pages; anything else outside /api stays a 404 in the API's error shape. */
export const DASHBOARD_ROUTES = ['/', '/login', '/buildings', '/buildings/*', '/profile', '/admin', '/events', '/webhooks', '/analytics'];

/**
 * Stricter than the API docs' policy: no inline styles or scripts at all. MapLibre's worker is a
 * bundled same-origin file; map images come from /api/v1/images (same origin).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The repository (or installed package) root: the nearest folder above with a package.json. */
function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
  return dir;
}

export function dashboardDirectory(): string {
  return process.env.DASHBOARD_DIR ? resolve(process.env.DASHBOARD_DIR) : join(packageRoot(__dirname), 'dist', 'web');
}

export async function registerDashboard(app: NestFastifyApplication, directory = dashboardDirectory()): Promise<{ served: boolean }> {
  const fastify = app.getHttpAdapter().getInstance();
  const indexFile = join(directory, 'index.html');
  if (!existsSync(indexFile)) {
    const notBuilt = '<!doctype html><title>Cartograph</title><p>The dashboard is not built. Run <code>npm run build</code>; the API is at <a href="/api/docs">/api/docs</a>.</p>';
    for (const url of DASHBOARD_ROUTES) {
      fastify.get(url, (_request, reply) => {
        void reply.code(503).header('Content-Security-Policy', DASHBOARD_CSP).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(notBuilt);
      });
    }
    return { served: false };
  }

  // Read once: the page is small and every navigation serves it.
  const index = readFileSync(indexFile);
  // Asset names carry a content hash: cache them for good; index.html always revalidates.
  await app.register(fastifyStatic, {
    root: join(directory, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: 365 * 24 * 3600 * 1000,
    preCompressed: true,
    index: false,
    wildcard: true,
  });
  const favicon = existsSync(join(directory, 'favicon.svg')) ? readFileSync(join(directory, 'favicon.svg')) : null;
  if (favicon) {
    fastify.get('/favicon.svg', (_request, reply) => {
      void reply.header('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(favicon);
    });
  }
  for (const url of DASHBOARD_ROUTES) {
    fastify.get(url, (_request, reply) => {
      void reply.header('Content-Security-Policy', DASHBOARD_CSP).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(index);
    });
  }
  return { served: true };
}
