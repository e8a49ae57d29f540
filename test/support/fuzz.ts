import fc from 'fast-check';
import { expect } from 'vitest';
import type { Response } from 'supertest';
import { filePartHead, multipartContentType, multipartTail } from './images';
import { TestApp } from './test-app';

/**
 * Property-based fuzzing of the HTTP surface (issue 9): requests built from the app's own
 * OpenAPI document (every route, its path and query parameters and its body schema), filled
 * with values that are mostly well-typed and often hostile.
 */

type Schema = Record<string, unknown>;

export interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema?: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
}

export interface FuzzOperation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path, e.g. `/api/v1/floors/{id}`. */
  path: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: Schema }>;
  body?: Schema;
  multipart: boolean;
}

/** Ids of real rows, so that fuzzed requests get past "not found" into validation and storage. */
export interface FuzzFixtures {
  buildingIds: number[];
  floorIds: number[];
  categoryIds: number[];
  poiIds: number[];
  geofenceIds: string[];
  userIds: string[];
  groupIds: string[];
  apiKeyIds: string[];
  imageIds: string[];
}

/** Every operation of the document; PATCH wherever PUT is (contract section 1). */
export function operationsOf(document: OpenApi): FuzzOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]): FuzzOperation[] => {
      const upper = method.toUpperCase() as FuzzOperation['method'];
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(upper)) return [];
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const base: Omit<FuzzOperation, 'method'> = {
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        queryParams: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {} })),
        body: content['application/json']?.schema,
        multipart: 'multipart/form-data' in content,
      };
      // Path parameters the document leaves out (POST buildings/{buildingId}/paths) are still parameters.
      for (const match of path.matchAll(/\{(\w+)\}/g)) if (!base.pathParams.includes(match[1])) base.pathParams.push(match[1]);
      return upper === 'PUT'
        ? [
            { ...base, method: 'PUT' },
            { ...base, method: 'PATCH' },
          ]
        : [{ ...base, method: upper }];
    }),
  );
}

// ------------------------------------------------------------------------------ values

/** Strings that broke (or could break) something: prototype keys, NUL, lone surrogates, SQL, huge. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '__proto__',
  '-__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ude00\ud83d',
  '😀',
  'Ω≈ç√',
  '%',
  '%00',
  '%zz',
  '../../etc/passwd',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '[object Object]',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1.5',
  '1e309',
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  'null',
  'true',
  '[]',
  '{}',
  ',',
  ',,,',
  '-',
  'name,asc',
  '\\',
  '\n\r\t',
  ' padded ',
  'x'.repeat(70_000),
  'é'.repeat(300),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.uuid().map(String) },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const nested = (levels: number): unknown => {
  let value: unknown = 'deep';
  for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
};

/** Any JSON value, with the shapes that broke servers before: deep nesting, prototype keys, wrong types. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>([], {}, [[]], [{}], { __proto__: null, constructor: { prototype: {} } }) },
  { weight: 1, arbitrary: fc.constantFrom(40, 2_000).map(nested) },
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__":{"polluted":1}}') as unknown) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

function resolve(document: OpenApi, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; hops < 10; hops += 1) {
    if (typeof current.$ref === 'string') current = document.components.schemas[current.$ref.split('/').pop()!] ?? {};
    else if (Array.isArray(current.allOf) && current.allOf.length > 0)
      current = { ...(current.allOf as Schema[]).reduce((merged, part) => ({ ...merged, ...resolve(document, part) }), {}) };
    else break;
  }
  return current;
}

/** Real ids for fields that name rows, mixed with junk: hostile values must also reach deep code. */
function fixtureValue(name: string, fixtures: FuzzFixtures): fc.Arbitrary<unknown> | null {
  const pick = <T>(values: T[]): fc.Arbitrary<unknown> | null => (values.length > 0 ? fc.constantFrom(...values) : null);
  if (/^(building_id|buildingId)$/.test(name)) return pick([...fixtures.buildingIds, ...fixtures.buildingIds.map(String)]);
  if (/^building_ids$/.test(name)) return pick([fixtures.buildingIds]);
  if (/^(floor_id|level_id)$/.test(name)) return pick(fixtures.floorIds);
  if (/^floor_ids$/.test(name)) return pick([fixtures.floorIds]);
  if (/^(category_id|poi_category_id|reassign_to)$/.test(name)) return pick(fixtures.categoryIds);
  if (/^(map_id|icon|selected_icon)$/.test(name)) return pick(fixtures.imageIds);
  if (/^(user_id|actor_id)$/.test(name)) return pick(fixtures.userIds);
  if (/^(user_ids|ids|exclude_ids)$/.test(name)) return pick([fixtures.userIds]);
  if (/^(group_ids)$/.test(name)) return pick([fixtures.groupIds]);
  if (/^(parent_group_id)$/.test(name)) return pick(fixtures.groupIds);
  if (name === 'geometric')
    return fc.constant([
      [42.87, -8.56],
      [42.8701, -8.56],
      [42.8701, -8.5599],
      [42.87, -8.56],
    ]);
  return null;
}

/** A value for `schema`: well-typed most of the time (so validation passes and deeper code runs), hostile otherwise. */
export function valueFor(document: OpenApi, schema: Schema, fixtures: FuzzFixtures, name = '', depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(document, schema);
  const fixture = fixtureValue(name, fixtures);
  const typed = typedValue(document, resolved, fixtures, depth);
  // Mostly well-typed: a body with one hostile field among many is the interesting case, and
  // enough requests must pass validation to reach the services and the databases.
  return fc.oneof({ weight: 10, arbitrary: fixture ? fc.oneof(fixture, typed) : typed }, { weight: 1, arbitrary: hostileJson });
}

function typedValue(document: OpenApi, schema: Schema, fixtures: FuzzFixtures, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  if (depth > 4) return hostileJson;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const entries = Object.entries(properties);
      if (entries.length === 0) return fc.dictionary(hostileString, hostileJson, { maxKeys: 3 });
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const shape = Object.fromEntries(entries.map(([key, value]) => [key, valueFor(document, value, fixtures, key, depth + 1)]));
      return fc.record(shape, { requiredKeys: entries.map(([key]) => key).filter((key) => required.has(key)) });
    }
    case 'array':
      return fc.array(valueFor(document, (schema.items ?? {}) as Schema, fixtures, '', depth + 1), { maxLength: 4 });
    case 'integer':
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: (schema.minimum as number) ?? -10, max: (schema.maximum as number) ?? 1_000 }) },
        { weight: 1, arbitrary: hostileNumber },
      );
    case 'number':
      return fc.oneof(
        { weight: 4, arbitrary: fc.double({ min: (schema.minimum as number) ?? -1e3, max: (schema.maximum as number) ?? 1e3, noNaN: true }) },
        { weight: 1, arbitrary: hostileNumber },
      );
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'uuid') return fc.uuid().map(String);
      return fc.oneof({ weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) }, { weight: 1, arbitrary: hostileString });
    default:
      return hostileJson;
  }
}

/** Percent-encodes the UTF-8 of a string (a lone surrogate becomes U+FFFD, as in any client). */
const encode = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

/**
 * Query strings stay under Node's default header limit (16 KB for the whole request head):
 * beyond it the HTTP parser itself answers 431, which is the protocol-level side of issue 9
 * (item 10), not the application's input handling fuzzed here.
 */
export const MAX_QUERY_LENGTH = 4_000;

/** Values every query parameter is tried with, alone (see queryProbes) and within the fuzz. */
export const QUERY_PROBES = ['__proto__', '-__proto__', 'constructor', 'toString', 'hasOwnProperty,desc', 'valueOf,asc', '\u0000', '-', '', ',', '99999999999999999999', '-1'];

/** One URL per query parameter and probe value, the parameter alone: a deterministic sweep beside the fuzz. */
export function queryProbes(operation: FuzzOperation, fixtures: FuzzFixtures): string[] {
  let path = operation.path;
  // A real row to read; for DELETE an id that names nothing (`cascade=` must not delete fixtures).
  for (const name of operation.pathParams) path = path.replace(`{${name}}`, operation.method === 'DELETE' ? '2147483000' : String(realIds(name, operation, fixtures)[0] ?? '1'));
  return operation.queryParams.flatMap(({ name }) => QUERY_PROBES.flatMap((value) => [`${path}?${name}=${encode(value)}`, `${path}?${name}[]=${encode(value)}`]));
}

/** A query string over the operation's parameters in the contract's three list forms, plus raw garbage. */
export function queryFor(document: OpenApi, operation: FuzzOperation, fixtures: FuzzFixtures): fc.Arbitrary<string> {
  const scalar = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  // Every parameter is also tried, often, with the values that broke parsers and lookups.
  const probe = fc.constantFrom(...QUERY_PROBES);
  const pair = (name: string, schema: Schema) =>
    fc
      .tuple(fc.oneof({ weight: 3, arbitrary: valueFor(document, schema, fixtures, name) }, { weight: 1, arbitrary: probe }), fc.constantFrom('plain', 'repeat', 'brackets', 'raw'))
      .map(([value, form]) => {
        const values = Array.isArray(value) ? value.map(scalar) : [scalar(value)];
        if (form === 'repeat') return values.map((item) => `${name}=${encode(item)}`).join('&');
        if (form === 'brackets') return values.map((item) => `${name}[]=${encode(item)}`).join('&');
        if (form === 'raw') return `${name}=${values.join(',').replace(/[#&\s]/g, '')}`;
        return `${name}=${encode(values.join(','))}`;
      });
  const garbage = fc.constantFrom('__proto__=1', '__proto__[x]=1', 'constructor[prototype][x]=1', '%', '%zz=1', '=', '&&&', 'a[b]=c', 'sort=__proto__', 'page=%00');
  const parts = operation.queryParams.map((parameter) => fc.option(pair(parameter.name, parameter.schema), { nil: undefined, freq: 2 }));
  const cut = (query: string) => query.slice(0, MAX_QUERY_LENGTH).replace(/%[0-9A-F]?$/, '');
  const join = (values: Array<string | undefined>) => cut(values.filter((part): part is string => !!part).join('&'));
  const many = fc.tuple(fc.tuple(...parts), fc.option(garbage, { nil: undefined, freq: 3 })).map(([values, extra]) => join([...values, extra]));
  if (operation.queryParams.length === 0) return many;
  // One parameter alone, most of the time: a request with many parameters is nearly always
  // refused for one of them before the others reach the code behind validation.
  const single = fc.oneof(...operation.queryParams.map((parameter) => pair(parameter.name, parameter.schema))).map(cut);
  return fc.oneof({ weight: 2, arbitrary: single }, { weight: 1, arbitrary: many });
}

function realIds(name: string, operation: FuzzOperation, fixtures: FuzzFixtures): Array<string | number> {
  const resource = operation.path.split('/')[3] ?? '';
  const real: Record<string, Array<string | number>> = {
    buildings: fixtures.buildingIds,
    floors: fixtures.floorIds,
    poi_categories: fixtures.categoryIds,
    pois: fixtures.poiIds,
    geofences: fixtures.geofenceIds,
    users: fixtures.userIds,
    groups: fixtures.groupIds,
    auth: fixtures.apiKeyIds,
    images: fixtures.imageIds,
  };
  return name === 'buildingId' ? fixtures.buildingIds : (real[resource] ?? []);
}

/** A path parameter: a real id most of the time, otherwise anything a client could put there. */
export function pathValueFor(name: string, operation: FuzzOperation, fixtures: FuzzFixtures): fc.Arbitrary<string> {
  const ids = realIds(name, operation, fixtures).map(String);
  // Deleting the fixtures would starve the other routes: DELETE only ever gets ids that name nothing.
  const usable = operation.method === 'DELETE' ? [] : ids;
  // Within Fastify's parameter limit (100 characters, so at most 8 code points when
  // percent-encoded, a UUID whole): beyond it Fastify answers 414 itself (item 10, protocol level).
  const junk = fc
    .oneof(hostileString, fc.integer().map(String), fc.uuid().map(String))
    .map((value) => encode(value.length === 36 ? value : [...value].slice(0, 8).join('')) || '0');
  return usable.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...usable) }, { weight: 2, arbitrary: junk }) : junk;
}

export interface FuzzRequest {
  url: string;
  /** The JSON text sent, or raw bytes (malformed JSON, multipart); undefined for none. */
  body?: string | Buffer;
  contentType?: string;
}

const MALFORMED_JSON = ['{', '{"a":', '[1,', '"\\ud800', '\u0000', 'null', '"text"', '1e999', '{"a":1}{"b":2}', '\ufeff{}', `${'['.repeat(10_000)}${']'.repeat(10_000)}`];

export function requestFor(document: OpenApi, operation: FuzzOperation, fixtures: FuzzFixtures): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...operation.pathParams.map((name) => pathValueFor(name, operation, fixtures)));
  const query = queryFor(document, operation, fixtures);
  const sendsBody = operation.method !== 'GET' && operation.method !== 'DELETE';
  const body: fc.Arbitrary<Pick<FuzzRequest, 'body' | 'contentType'>> = !sendsBody
    ? fc.constant({})
    : operation.multipart
      ? fc
          .tuple(fc.uint8Array({ maxLength: 256 }), fc.constantFrom('image', 'file', ''), fc.constantFrom('image/png', 'image/svg+xml', 'text/plain'))
          .map(([bytes, field, type]) => ({
            body: Buffer.concat([filePartHead({ field, filename: 'x.png', contentType: type }), Buffer.from(bytes), multipartTail()]),
            contentType: multipartContentType(),
          }))
      : fc.oneof(
          {
            weight: 6,
            arbitrary: (operation.body ? valueFor(document, operation.body, fixtures) : hostileJson).map((value) => ({
              body: JSON.stringify(value) ?? 'null',
              contentType: 'application/json',
            })),
          },
          { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((text) => ({ body: text, contentType: 'application/json' })) },
          {
            weight: 1,
            arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1').map((contentType) => ({ body: 'a=1', contentType })),
          },
        );
  return fc.tuple(params, query, body).map(([values, search, payload]) => {
    let path = operation.path;
    operation.pathParams.forEach((name, index) => (path = path.replace(`{${name}}`, values[index])));
    return { url: search ? `${path}?${search}` : path, ...payload };
  });
}

export function send(t: TestApp, operation: FuzzOperation, request: FuzzRequest, auth: Record<string, string>) {
  const method = operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  let call = t.http[method](request.url).set(auth);
  if (request.contentType) call = call.set('Content-Type', request.contentType);
  return request.body === undefined ? call : call.send(request.body);
}

/** No 5xx; every 4xx in the contract's error shape, as JSON. */
export function expectContractAnswer(response: Response, label: string): void {
  const context = `${label} -> ${response.status} ${response.text?.slice(0, 500)}`;
  expect(response.status, context).toBeLessThan(500);
  if (response.status < 400) return;
  expect(response.headers['content-type'], context).toMatch(/^application\/json/);
  expect(response.body, context).toEqual({ status: response.status, code: expect.any(String), message: expect.any(String), errors: expect.any(Array) });
  for (const error of response.body.errors as unknown[]) {
    expect(error, context).toEqual(expect.objectContaining({ message: expect.any(String), code: expect.any(String) }));
  }
}
