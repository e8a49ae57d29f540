import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteDeclarations } from '../../src/access/route-declarations';
import { cspSources, effectiveSecurity, OpenApiDocument, operationsOf, pageAssets, parseCsp, refsIn } from '../support/docs-openapi';
import { createTestApp, TestApp } from '../support/test-app';

const ERROR_REF = '#/components/schemas/ErrorResponseDto';
const PUBLIC_OPERATIONS = ['POST /api/v1/auth/refresh_access_tokens', 'GET /health/live', 'GET /health/ready'];
const isPublic = (method: string, path: string) => PUBLIC_OPERATIONS.includes(`${method} ${path}`);
const schemaOf = (response: { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined) => response?.content?.['application/json']?.schema;

describe('API documentation', () => {
  let t: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.http.get('/api/docs-json');
    document = response.body as OpenApiDocument;
  });
  afterAll(async () => t?.close());

  describe('GET /api/docs (Swagger UI)', () => {
    it.each(['/api/docs', '/api/docs/'])('%s is public and serves the Swagger UI page', async (url) => {
      const response = await t.http.get(url);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain('<div id="swagger-ui">');
    });

    it.each(['/api/docs', '/api/docs/'])('every script and stylesheet %s loads is served, with a type the browser will run', async (url) => {
      const page = await t.http.get(url).expect(200);
      const assets = pageAssets(page.text);
      expect(assets.scripts.length).toBeGreaterThan(0);
      expect(assets.stylesheets.length).toBeGreaterThan(0);
      const base = new URL(url, 'http://cartograph.test');
      const check = async (href: string, type: RegExp) => {
        const resolved = new URL(href, base);
        expect(resolved.origin, href).toBe(base.origin);
        const asset = await t.http.get(`${resolved.pathname}${resolved.search}`).buffer(true);
        return {
          href,
          path: resolved.pathname,
          status: asset.status,
          typeOk: type.test(asset.headers['content-type'] ?? ''),
          empty: Number(asset.headers['content-length'] ?? asset.body?.length ?? 0) === 0,
        };
      };
      const results = await Promise.all([
        ...assets.scripts.map((href) => check(href, /^(application|text)\/javascript/)),
        ...assets.stylesheets.map((href) => check(href, /^text\/css/)),
        ...assets.icons.map((href) => check(href, /^image\//)),
      ]);
      // X-Content-Type-Options: nosniff makes a browser refuse a script or stylesheet of the wrong type.
      expect(results.filter((result) => result.status !== 200 || !result.typeOk || result.empty)).toEqual([]);
    });

    it("its Content-Security-Policy allows what the page loads, and nothing it doesn't need", async () => {
      const page = await t.http.get('/api/docs').expect(200);
      const csp = parseCsp(page.headers['content-security-policy']);
      expect(Object.keys(csp).length).toBeGreaterThan(0);
      const assets = pageAssets(page.text);

      // Same-origin scripts and styles: 'self' must be allowed.
      expect(cspSources(csp, 'script-src')).toContain("'self'");
      expect(cspSources(csp, 'style-src')).toContain("'self'");
      // Inline <script> would be blocked without 'unsafe-inline' (or a hash): the page must not rely on one.
      expect(assets.inlineScripts === 0 || cspSources(csp, 'script-src').includes("'unsafe-inline'")).toBe(true);
      expect(cspSources(csp, 'script-src')).not.toContain("'unsafe-inline'");
      // The page styles itself inline.
      if (assets.inlineStyles > 0) expect(cspSources(csp, 'style-src')).toContain("'unsafe-inline'");
      // Swagger UI's stylesheet draws its icons as data: URLs.
      const stylesheet = new URL(assets.stylesheets[0], 'http://cartograph.test/api/docs');
      const css = await t.http.get(stylesheet.pathname).expect(200);
      if (/url\(\s*["']?data:/i.test(css.text)) expect(cspSources(csp, 'img-src')).toContain('data:');
      // The UI fetches nothing else: its init script embeds the document, and its "Try it out" calls are same-origin.
      expect(cspSources(csp, 'connect-src')).toContain("'self'");
      expect(csp['object-src'] ?? csp['default-src']).toEqual(["'none'"]);
    });
  });

  describe('GET /api/docs-json (OpenAPI)', () => {
    it('is public and an OpenAPI 3 document of the API', async () => {
      const response = await t.http.get('/api/docs-json');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body.openapi).toMatch(/^3\.\d+\.\d+$/);
      expect(response.body.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
      expect(Object.keys(response.body.paths).length).toBeGreaterThan(0);
    });

    it('declares exactly the four security schemes', () => {
      expect(document.components.securitySchemes).toEqual({
        basic: expect.objectContaining({ type: 'http', scheme: 'basic' }),
        bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        'api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-KEY' }),
        'api-email': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-EMAIL' }),
      });
    });

    it('documents exactly the routes the server serves (each PUT with its PATCH twin)', () => {
      const served = t.app
        .get(RouteDeclarations)
        .list()
        .flatMap((route) => (route.method === 'PUT' ? [route, { ...route, method: 'PATCH' }] : [route]))
        .map((route) => `${route.method} /${route.path.startsWith('health/') ? '' : 'api/v1/'}${route.path.replace(/:(\w+)/g, '{$1}')}`)
        .sort();
      const documented = operationsOf(document)
        .map((operation) => `${operation.method} ${operation.path}`)
        .sort();
      expect(documented).toEqual(served);
    });

    it('requires credentials on every /api/v1 operation but the refresh one; the probes are public', () => {
      const problems: string[] = [];
      for (const { method, path, operation } of operationsOf(document)) {
        const security = effectiveSecurity(document, operation);
        const schemes = security.flatMap((requirement) => Object.keys(requirement));
        if (isPublic(method, path)) {
          if (security.length > 0) problems.push(`${method} ${path} is public but documents security ${JSON.stringify(security)}`);
          continue;
        }
        if (!path.startsWith('/api/v1/')) problems.push(`${method} ${path} is outside /api/v1 and not a public probe`);
        if (security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0)) {
          problems.push(`${method} ${path} documents no (or an empty, i.e. optional) security requirement`);
        }
        for (const scheme of schemes) {
          if (!(scheme in document.components.securitySchemes)) problems.push(`${method} ${path} uses undeclared scheme ${scheme}`);
        }
        // X-API-EMAIL only ever accompanies X-API-KEY.
        if (security.some((requirement) => 'api-email' in requirement && !('api-key' in requirement))) {
          problems.push(`${method} ${path} lists api-email without api-key`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("documents each operation's security as its route declares it", () => {
      const declared = new Map(
        t.app
          .get(RouteDeclarations)
          .list()
          .flatMap((route) => (route.method === 'PUT' ? [route, { ...route, method: 'PATCH' }] : [route]))
          .map((route) => [`${route.method} /${route.path.startsWith('health/') ? '' : 'api/v1/'}${route.path.replace(/:(\w+)/g, '{$1}')}`, route.access ?? '']),
      );
      const problems: string[] = [];
      for (const { method, path, operation } of operationsOf(document)) {
        const access = declared.get(`${method} ${path}`) ?? '';
        const schemes = new Set(effectiveSecurity(document, operation).flatMap((requirement) => Object.keys(requirement)));
        const expected =
          access === 'public'
            ? []
            : access.includes('token-exchange')
              ? ['api-email', 'api-key', 'basic']
              : access.includes('user-credentials')
                ? ['bearer']
                : ['api-email', 'api-key', 'bearer'];
        const actual = [...schemes].sort();
        if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`${method} ${path} (${access}): ${actual.join(',')} instead of ${expected.join(',')}`);
      }
      expect(problems).toEqual([]);
    });

    it('documents a 2xx response with a schema for every operation (none for a 204), or its 405', () => {
      const problems: string[] = [];
      for (const { method, path, operation } of operationsOf(document)) {
        const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
        // Routes that exist only to answer 405 (POST on paths) document that instead.
        if (successes.length === 0 && !operation.responses['405']) problems.push(`${method} ${path}: no 2xx response`);
        for (const [status, response] of successes) {
          const content = (response as { content?: Record<string, { schema?: { format?: string; type?: string } }> }).content;
          // Images are binary; CSV reports and live streams are text.
          const binary =
            content?.['image/*']?.schema?.format === 'binary' || content?.['text/csv']?.schema?.type === 'string' || content?.['text/event-stream']?.schema?.type === 'string';
          if (status === '204') {
            if (response.content) problems.push(`${method} ${path}: 204 with a body`);
          } else if (!schemaOf(response) && !binary) {
            problems.push(`${method} ${path}: ${status} without an application/json schema`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('documents 401 and 403 as ErrorResponseDto on every authenticated operation', () => {
      const problems: string[] = [];
      for (const { method, path, operation } of operationsOf(document)) {
        if (isPublic(method, path)) continue;
        for (const status of ['401', '403']) {
          const ref = schemaOf(operation.responses[status])?.$ref;
          if (ref !== ERROR_REF) problems.push(`${method} ${path}: ${status} is ${ref ?? 'not documented with a schema'}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('documents every error response with the one error shape (contract section 3)', () => {
      const problems: string[] = [];
      for (const { method, path, operation } of operationsOf(document)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!/^[45]\d\d$/.test(status)) continue;
          const ref = schemaOf(response)?.$ref;
          if (ref !== ERROR_REF) problems.push(`${method} ${path}: ${status} is documented as ${JSON.stringify(schemaOf(response) ?? null).slice(0, 80)}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('defines ErrorResponseDto with status, code, message and errors, and resolves every $ref', () => {
      const schema = document.components.schemas.ErrorResponseDto as { properties: Record<string, Record<string, unknown>>; required?: string[] };
      expect(schema).toBeDefined();
      expect(Object.keys(schema.properties).sort()).toEqual(['code', 'errors', 'message', 'status']);
      expect(schema.properties.status.type).toMatch(/^(number|integer)$/);
      expect(schema.properties.code.type).toBe('string');
      expect(schema.properties.message.type).toBe('string');
      expect(schema.properties.errors.type).toBe('array');
      expect([...(schema.required ?? [])].sort()).toEqual(['code', 'errors', 'message', 'status']);

      const unresolved = [...new Set(refsIn(document))].filter((ref) => {
        const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
        return !match || !(match[1] in document.components.schemas);
      });
      expect(unresolved).toEqual([]);
    });
  });
});
