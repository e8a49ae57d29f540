import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestApp } from '../support/test-app';

/** A stand-in for `dist/web`: what `npm run build:web` writes, small enough to check byte for byte. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cartograph-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div><script type="module" src="/assets/index-abc123.js"></script>');
  const js = 'console.log("dashboard");'.repeat(50);
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), js);
  writeFileSync(join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(js));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('dashboard serving', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fakeBuild();
    process.env.DASHBOARD_DIR = dir;
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    delete process.env.DASHBOARD_DIR;
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/buildings', '/buildings/12/floors/3/map', '/profile', '/admin', '/devices', '/devices/walker-1', '/settings', '/api-keys', '/start'])(
    'serves the page at %s with a strict CSP, never stored',
    async (path) => {
      const response = await t.http.get(path).expect(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain('<div id="app">');
      const csp = response.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers['cache-control']).toBe('no-store');
      // No basemap configured: nothing outside the server is allowed.
      expect(csp).toContain("img-src 'self' data: blob:;");
      expect(csp).toContain("connect-src 'self';");
      expect(csp).toContain("worker-src 'none';");
      expect(response.text).not.toContain('cartograph-basemap');
    },
  );

  it('serves hashed assets precompressed and cacheable for good', async () => {
    const response = await t.http.get('/assets/index-abc123.js').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toContain('immutable');
    const plain = await t.http.get('/assets/index-abc123.js').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.text).toContain('console.log("dashboard")');
  });

  it('needs no credentials for the page (it logs in itself) but the API still does', async () => {
    await t.http.get('/buildings').expect(200);
    await t.http.get('/api/v1/buildings').expect(401);
  });

  it('answers a browser asking for a page that does not exist with the dashboard and 404 (it says so), never the API JSON', async () => {
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const page = await t.http.get('/buildngs').set('Accept', html).expect(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<div id="app">');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // The API and the assets keep their own answers even for a browser.
    expect((await t.http.get('/api/v1/nowhere').set('Accept', html).expect(404)).body).toMatchObject({ code: 'route_not_found' });
    expect((await t.http.get('/assets/missing.js').set('Accept', html).expect(404)).headers['content-type']).toMatch(/json/);
    // Other methods are not pages.
    expect((await t.http.post('/buildngs').set('Accept', html).expect(404)).body).toMatchObject({ code: 'route_not_found' });
  });

  it('leaves unknown paths and API routes to the API error shape', async () => {
    const api = await t.http.get('/api/v1/nowhere').expect(404);
    expect(api.body).toMatchObject({ status: 404, code: 'route_not_found' });
    const other = await t.http.get('/nowhere').expect(404);
    expect(other.body).toMatchObject({ status: 404, code: 'route_not_found' });
    const asset = await t.http.get('/assets/missing.js').expect(404);
    expect(asset.headers['content-type']).toMatch(/json/);
  });
});

describe('dashboard with an operator basemap', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = fakeBuild();
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="app"></div></body></html>');
    process.env.DASHBOARD_DIR = dir;
    process.env.DASHBOARD_BASEMAP_URL = 'https://tiles.example.org/osm/{z}/{x}/{y}.png';
    process.env.DASHBOARD_BASEMAP_ATTRIBUTION = '© "Map" <contributors>';
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    delete process.env.DASHBOARD_DIR;
    delete process.env.DASHBOARD_BASEMAP_URL;
    delete process.env.DASHBOARD_BASEMAP_ATTRIBUTION;
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells the page where its tiles are, escaped, and lets only that origin in', async () => {
    const response = await t.http.get('/buildings').expect(200);
    expect(response.text).toContain(
      '<meta name="cartograph-basemap" content="https://tiles.example.org/osm/{z}/{x}/{y}.png" data-attribution="© &quot;Map&quot; &lt;contributors&gt;">',
    );
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("img-src 'self' data: blob: https://tiles.example.org;");
    // Tiles are images: the page fetches nothing else from there.
    expect(csp).toContain("connect-src 'self';");
  });
});

describe('dashboard not built', () => {
  let t: TestApp;
  beforeAll(async () => {
    process.env.DASHBOARD_DIR = join(tmpdir(), 'cartograph-no-such-build');
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    delete process.env.DASHBOARD_DIR;
  });

  it('says how to build it instead of a blank page', async () => {
    const response = await t.http.get('/').expect(503);
    expect(response.text).toContain('npm run build');
  });
});
