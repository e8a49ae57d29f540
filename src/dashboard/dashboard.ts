import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Basemap, readBasemap } from '../config/dashboard.config';

/**
 * The web dashboard (web/, built by `npm run build` into dist/web) served at `/` by the API
 * server itself: no second server, no CDN. It calls the public API like any client.
 */

/**
 * The dashboard's pages. Any other path a browser asks for as a page (`Accept: text/html`)
 * gets the dashboard with status 404, which says there is no such page; other clients (and
 * every path under /api) get the API's error shape.
 */
export const DASHBOARD_ROUTES = [
  '/',
  '/login',
  '/start',
  '/buildings',
  '/buildings/*',
  '/devices',
  '/devices/*',
  '/profile',
  '/api-keys',
  '/admin',
  '/admin/*',
  '/events',
  '/webhooks',
  '/analytics',
  '/settings',
];

/** Paths that are never a dashboard page, whatever the client accepts. */
const NOT_PAGES = /^\/(api|assets|health|metrics)(\/|$)/;

/**
 * Stricter than the API docs' policy: no inline styles or scripts at all (the map sets positions
 * through the DOM, never a style attribute), no workers; map images come from /api/v1/images (same
 * origin), basemap tiles are images from the operator's tile origin.
 */
export function dashboardCsp(tileOrigin?: string): string {
  const tiles = tileOrigin ? ` ${tileOrigin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${tiles}`,
    "worker-src 'none'",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const DASHBOARD_CSP = dashboardCsp();

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page with the operator's settings the dashboard reads at start (a meta element: no inline script). */
export function withSettings(index: string, basemap: Basemap | null): string {
  if (!basemap) return index;
  const meta = `<meta name="cartograph-basemap" content="${escapeAttribute(basemap.url)}" data-attribution="${escapeAttribute(basemap.attribution)}">`;
  return index.replace('</head>', `    ${meta}\n  </head>`);
}

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

  const basemap = readBasemap();
  const csp = dashboardCsp(basemap?.origin);
  // Read once: the page is small and every navigation serves it.
  const index = Buffer.from(withSettings(readFileSync(indexFile, 'utf8'), basemap));
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
  // no-store: a page shown after "Log out" (Back, the back-forward cache) must come from the server again, never from a copy.
  const page = (code: number, reply: FastifyReply) =>
    reply.code(code).header('Content-Security-Policy', csp).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(index);
  for (const url of DASHBOARD_ROUTES) {
    fastify.get(url, (_request, reply) => {
      void page(200, reply);
    });
  }
  // A mistyped address in a browser: the dashboard's own "no such page", not the API's JSON.
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?')[0];
    if (!request.is404 || (request.method !== 'GET' && request.method !== 'HEAD') || NOT_PAGES.test(path) || !acceptsHtml(request.headers.accept)) {
      done();
      return;
    }
    void page(404, reply);
  });
  return { served: true };
}

/** A browser navigating asks for text/html first; API clients do not. */
function acceptsHtml(accept: string | undefined): boolean {
  return !!accept && /(^|,)\s*text\/html/.test(accept);
}
