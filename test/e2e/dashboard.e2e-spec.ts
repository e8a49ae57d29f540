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

  it.each(['/', '/login', '/buildings', '/buildings/12/floors/3/map', '/profile', '/admin'])('serves the page at %s with a strict CSP', async (path) => {
    const response = await t.http.get(path).expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('<div id="app">');
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

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

  it('leaves unknown paths and API routes to the API error shape', async () => {
    const api = await t.http.get('/api/v1/nowhere').expect(404);
    expect(api.body).toMatchObject({ status: 404, code: 'route_not_found' });
    const other = await t.http.get('/nowhere').expect(404);
    expect(other.body).toMatchObject({ status: 404, code: 'route_not_found' });
    const asset = await t.http.get('/assets/missing.js').expect(404);
    expect(asset.headers['content-type']).toMatch(/json/);
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
