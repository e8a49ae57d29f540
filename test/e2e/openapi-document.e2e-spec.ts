import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VersionService } from '../../src/version/version.service';
import { effectiveSecurity, OpenApiDocument, operationsOf } from '../support/docs-openapi';
import { createTestApp, TestApp } from '../support/test-app';

/** Walks the whole OpenAPI document (issue 10): what Swagger UI and code generators rely on. */

const ERROR_REF = '#/components/schemas/ErrorResponseDto';
const VERSIONED = ['/api/v1/buildings/{id}', '/api/v1/floors/{id}', '/api/v1/geofences/{id}', '/api/v1/pois/{id}', '/api/v1/poi_categories/{id}'];

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: Record<string, unknown>;
  example?: unknown;
}
type Operation = OpenApiDocument['paths'][string][string] & { parameters?: Parameter[]; requestBody?: unknown; summary?: string };

/** Every (schema path, schema) pair in a value: properties, items, compositions. */
function schemasIn(value: unknown, at: string): Array<[string, Record<string, unknown>]> {
  if (value === null || typeof value !== 'object') return [];
  const schema = value as Record<string, unknown>;
  const own: Array<[string, Record<string, unknown>]> = 'type' in schema || 'example' in schema ? [[at, schema]] : [];
  const inner = [
    ...Object.entries((schema.properties as Record<string, unknown>) ?? {}).flatMap(([key, property]) => schemasIn(property, `${at}.${key}`)),
    ...schemasIn(schema.items, `${at}[]`),
    ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((key) => ((schema[key] as unknown[]) ?? []).flatMap((item, index) => schemasIn(item, `${at}.${key}[${index}]`))),
  ];
  return [...own, ...inner];
}

function exampleFits(type: unknown, example: unknown): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(example);
    case 'number':
      return typeof example === 'number';
    case 'string':
      return typeof example === 'string';
    case 'boolean':
      return typeof example === 'boolean';
    case 'array':
      return Array.isArray(example);
    case 'object':
      return example !== null && typeof example === 'object' && !Array.isArray(example);
    default:
      return true;
  }
}

describe('the OpenAPI document, walked whole', () => {
  let t: TestApp;
  let document: OpenApiDocument & { info: { version: string } };
  const operations = () => operationsOf(document) as Array<{ method: string; path: string; operation: Operation }>;

  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.http.get('/api/docs-json').expect(200)).body;
  });
  afterAll(async () => t?.close());

  it("info.version is the server's version (GET /api/v1/version)", () => {
    const served = t.app.get(VersionService).current();
    expect(document.info.version).toBe(served.version);
  });

  it('no operation declares a required header, or one header twice (as if-match beside If-Match)', () => {
    const problems: string[] = [];
    for (const { method, path, operation } of operations()) {
      const headers = (operation.parameters ?? []).filter((parameter) => parameter.in === 'header');
      const names = headers.map((header) => header.name.toLowerCase());
      if (new Set(names).size !== names.length) problems.push(`${method} ${path}: header declared twice: ${headers.map((h) => h.name).join(', ')}`);
      for (const header of headers) if (header.required) problems.push(`${method} ${path}: required header ${header.name}`);
    }
    expect(problems).toEqual([]);
  });

  it('each PUT and PATCH of a versioned resource declares one optional If-Match, spelled so', () => {
    for (const path of VERSIONED) {
      for (const method of ['put', 'patch']) {
        const operation = document.paths[path][method] as Operation;
        expect(operation, `${method} ${path}`).toBeDefined();
        const ifMatch = (operation.parameters ?? []).filter((parameter) => parameter.name.toLowerCase() === 'if-match');
        expect(ifMatch, `${method} ${path}`).toEqual([expect.objectContaining({ in: 'header', name: 'If-Match', required: false })]);
      }
    }
  });

  it('every PUT has its PATCH twin, with the same parameters, body and responses', () => {
    const puts = operations().filter((entry) => entry.method === 'PUT');
    expect(puts.length).toBeGreaterThan(5);
    for (const { path, operation } of puts) {
      const patch = document.paths[path].patch as Operation | undefined;
      expect(patch, `PATCH ${path}`).toBeDefined();
      expect(patch!.parameters).toEqual(operation.parameters);
      expect(patch!.requestBody).toEqual(operation.requestBody);
      expect(patch!.responses).toEqual(operation.responses);
      expect(patch!.security).toEqual(operation.security);
    }
  });

  it('every response has a non-empty description', () => {
    const empty = operations().flatMap(({ method, path, operation }) =>
      Object.entries(operation.responses)
        .filter(([, response]) => !response.description?.trim())
        .map(([status]) => `${method} ${path} ${status}`),
    );
    expect(empty).toEqual([]);
  });

  it('every operation documents the errors it can answer, each as ErrorResponseDto', () => {
    const problems: string[] = [];
    for (const { method, path, operation } of operations()) {
      const statuses = Object.keys(operation.responses);
      if (statuses.includes('405') && !statuses.some((status) => status.startsWith('2'))) continue; // exists only to refuse
      const parameters = operation.parameters ?? [];
      const expected = new Set<string>();
      if (effectiveSecurity(document, operation).length > 0) ['401', '403'].forEach((status) => expected.add(status));
      if (parameters.some((parameter) => parameter.in === 'path')) ['400', '404'].forEach((status) => expected.add(status));
      if (parameters.some((parameter) => parameter.in === 'query')) expected.add('400');
      if (operation.requestBody) ['400', '422'].forEach((status) => expected.add(status));
      if (parameters.some((parameter) => parameter.name === 'If-Match')) expected.add('409');
      for (const status of expected) if (!statuses.includes(status)) problems.push(`${method} ${path}: no ${status}`);
      for (const status of statuses.filter((status) => /^[45]/.test(status))) {
        const schema = operation.responses[status].content?.['application/json']?.schema as { $ref?: string } | undefined;
        if (schema?.$ref !== ERROR_REF) problems.push(`${method} ${path}: ${status} is not ErrorResponseDto`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every example fits its declared type, in schemas and parameters', () => {
    const problems: string[] = [];
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      for (const [at, inner] of schemasIn(schema, name)) {
        if ('example' in inner && !exampleFits(inner.type, inner.example)) problems.push(`${at}: ${String(inner.type)} with example ${JSON.stringify(inner.example)}`);
      }
    }
    for (const { method, path, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example !== undefined && !exampleFits(parameter.schema?.type, parameter.example)) problems.push(`${method} ${path} ${parameter.name}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('types image ids (icon, selected_icon) as strings, never objects, and building_id as an integer with an integer example', () => {
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, Record<string, unknown>> }>;
    for (const dto of ['CreatePoiCategoryDto', 'UpdatePoiCategoryDto']) {
      for (const field of ['icon', 'selected_icon']) expect(schemas[dto].properties![field], `${dto}.${field}`).toMatchObject({ type: 'string', format: 'uuid' });
    }
    expect(schemas.CreateGeofenceDto.properties!.building_id).toMatchObject({ type: 'integer', example: 5962 });
    expect(schemas.GeofenceResponseDto.properties!.building_id).toMatchObject({ type: 'string', example: '5962' });
    const objects = Object.entries(schemas).flatMap(([name, schema]) =>
      Object.entries(schema.properties ?? {})
        .filter(([, property]) => property.type === 'object' && property.format !== undefined)
        .map(([key]) => `${name}.${key}`),
    );
    expect(objects).toEqual([]);
  });
});
