import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestApp } from '../support/test-app';

describe('probe', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => t?.close());
  it('dumps', async () => {
    const html = await t.http.get('/api/docs');
    const json = await t.http.get('/api/docs-json');
    writeFileSync('/tmp/probe-docs.html', html.text ?? '');
    writeFileSync('/tmp/probe-docs-headers.json', JSON.stringify({ html: html.headers, status: html.status, json: json.headers, jstatus: json.status }, null, 2));
    writeFileSync('/tmp/probe-docs.json', JSON.stringify(json.body, null, 2));
    const { RouteDeclarations } = await import('../../src/auth/route-declarations');
    writeFileSync('/tmp/probe-routes.json', JSON.stringify(t.app.get(RouteDeclarations).list(), null, 2));
    expect(1).toBe(1);
  });
});
