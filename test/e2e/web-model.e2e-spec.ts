import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The dashboard's types of the API's resources (web/src/api-schema.ts) are generated from the
 * OpenAPI document the server serves, with openapi-typescript, so the dashboard and the API
 * cannot disagree on a field's type. `npm run web:model` rewrites the file.
 */
const GENERATED = join(__dirname, '..', '..', 'web', 'src', 'api-schema.ts');
const HEADER = '// Generated from the OpenAPI document (/api/docs-json) by openapi-typescript: `npm run web:model`. Do not edit.\n';

describe("the dashboard's API types", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('are what the OpenAPI document says (npm run web:model writes them)', async () => {
    const document = (await t.http.get('/api/docs-json').expect(200)).body;
    const written = HEADER + astToString(await openapiTS(document, { arrayLength: true }));
    if (process.env.UPDATE_WEB_MODEL === '1') writeFileSync(GENERATED, written);
    expect(readFileSync(GENERATED, 'utf8'), 'web/src/api-schema.ts is stale: run npm run web:model').toBe(written);
  });
});
