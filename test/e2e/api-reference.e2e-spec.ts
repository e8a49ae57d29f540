import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiDocument, operationsOf } from '../support/docs-openapi';
import { createTestApp, TestApp } from '../support/test-app';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The routes docs/api.md documents: its headings `#### METHOD /path`, or `#### PUT, PATCH /path`
 * for a PUT and its PATCH twin. A heading that starts like a route but does not parse is an error.
 */
function documentedRoutes(markdown: string): { routes: string[]; malformed: string[] } {
  const routes: string[] = [];
  const malformed: string[] = [];
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('#### ')) continue;
    const heading = line.slice(5).trim();
    const match = /^((?:GET|POST|PUT|PATCH|DELETE)(?:, (?:GET|POST|PUT|PATCH|DELETE))*) (\/[^\s`]*)$/.exec(heading);
    if (!match) {
      if (METHODS.some((method) => heading.startsWith(method))) malformed.push(line);
      continue;
    }
    for (const method of match[1].split(', ')) routes.push(`${method} ${match[2]}`);
  }
  return { routes, malformed };
}

describe('docs/api.md against the OpenAPI document (/api/docs-json)', () => {
  let t: TestApp;
  let served: string[];
  let documented: ReturnType<typeof documentedRoutes>;

  beforeAll(async () => {
    t = await createTestApp();
    const document = (await t.http.get('/api/docs-json').expect(200)).body as OpenApiDocument;
    served = operationsOf(document).map((operation) => `${operation.method} ${operation.path}`);
    documented = documentedRoutes(readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8'));
  });
  afterAll(async () => t?.close());

  it('reads its route headings (and finds no malformed one)', () => {
    expect(documented.malformed).toEqual([]);
    expect(documented.routes.length).toBeGreaterThan(100);
    expect(new Set(documented.routes).size).toBe(documented.routes.length);
  });

  it('documents every route of the OpenAPI document', () => {
    expect(served.filter((route) => !documented.routes.includes(route)).sort()).toEqual([]);
  });

  it('documents no route the server does not serve', () => {
    expect(documented.routes.filter((route) => !served.includes(route)).sort()).toEqual([]);
  });

  it('no longer says that the positioning half is missing', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
    expect(text).not.toMatch(/not built|Planned \(positioning/);
  });
});
