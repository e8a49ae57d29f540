import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { expect } from 'vitest';
import { asBasic, asBearer, TokenPair, uniqueEmail } from './auth';
import { expectStatus, keysOf, Placement, TIMESTAMP } from './cartography';
import { TestApp } from './test-app';

/** Helpers for the users, groups, audit and building-restriction suites. */

export const USER_KEYS = [
  'building_ids',
  'code',
  'created_at',
  'email',
  'full_name',
  'group_ids',
  'icon_colour',
  'id',
  'info',
  'is_verified',
  'last_activity',
  'locale',
  'organization_id',
  'role',
  'updated_at',
];
export const GROUP_KEYS = ['created_at', 'description', 'id', 'name', 'organization_id', 'parent_group_id', 'updated_at', 'user_ids'];
export const AUDIT_KEYS = ['action', 'actor_id', 'created_at', 'id', 'ip', 'target_id', 'target_type'];
export const API_KEY_KEYS = ['apikey', 'created_at', 'description', 'id', 'last_used_at', 'permission'];
/** What request.ip is for a supertest request (IPv4 or IPv4-mapped IPv6 loopback). */
export const LOOPBACK_IP = /^(::ffff:)?127\.0\.0\.1$/;

export interface UserBody {
  id: string;
  email: string;
  code: string;
  full_name: string;
  role: 'ADMIN_ORG' | 'USER';
  organization_id: string;
  group_ids: string[];
  building_ids: number[];
  locale: string;
  info: string;
  icon_colour: string;
  is_verified: boolean;
  last_activity: string | null;
  created_at: string;
  updated_at: string;
}

export interface GroupBody {
  id: string;
  name: string;
  description: string;
  parent_group_id: string | null;
  organization_id: string;
  user_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface AuditBody {
  id: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  ip: string | null;
  created_at: string;
}

/** A password the policy accepts. */
export const strongPassword = () => `pw-${randomUUID()}`;

/** A user created through POST /api/v1/users, with the password it was given. */
export interface ApiUser {
  body: UserBody;
  id: string;
  email: string;
  password: string;
}

export async function addUser(t: TestApp, adminAuth: Record<string, string>, overrides: Record<string, unknown> = {}): Promise<ApiUser> {
  const input = { email: uniqueEmail('member'), password: strongPassword(), ...overrides };
  const response = await t.http.post('/api/v1/users').set(adminAuth).send(input);
  expectStatus(response, 201);
  expectNoSecrets(response, [input.password as string]);
  const body = response.body as UserBody;
  return { body, id: body.id, email: body.email, password: input.password as string };
}

/** A user's password session: its token pair and the Bearer headers of the access token. */
export interface Login {
  tokens: TokenPair;
  auth: Record<string, string>;
}

export async function login(t: TestApp, email: string, password: string): Promise<Login> {
  const response = await t.http.post('/api/v1/auth/access_tokens').set(asBasic(email, password));
  expectStatus(response, 201);
  const tokens = response.body as TokenPair;
  return { tokens, auth: asBearer(tokens.access_token) };
}

export async function addGroup(t: TestApp, adminAuth: Record<string, string>, body: Record<string, unknown> = {}): Promise<GroupBody> {
  const response = await t.http
    .post('/api/v1/groups')
    .set(adminAuth)
    .send({ name: `Group ${randomUUID().slice(0, 6)}`, ...body });
  expectStatus(response, 201);
  return response.body as GroupBody;
}

/** The whole audit trail the caller sees (newest first), optionally filtered. */
export async function auditTrail(t: TestApp, auth: Record<string, string>, query: Record<string, string> = {}): Promise<AuditBody[]> {
  const response = await t.http
    .get('/api/v1/audit')
    .query({ size: '1000', ...query })
    .set(auth);
  expectStatus(response, 200);
  return response.body.data as AuditBody[];
}

/** The shape every user object has, whatever its values. */
export function expectUserShape(body: UserBody): void {
  expect(keysOf(body)).toEqual(USER_KEYS);
  expect(body.created_at).toMatch(TIMESTAMP);
  expect(body.updated_at).toMatch(TIMESTAMP);
  if (body.last_activity !== null) expect(body.last_activity).toMatch(TIMESTAMP);
}

export function expectGroupShape(body: GroupBody): void {
  expect(keysOf(body)).toEqual(GROUP_KEYS);
  expect(body.created_at).toMatch(TIMESTAMP);
  expect(body.updated_at).toMatch(TIMESTAMP);
}

const SECRET_KEY = /"(password|password_hash|passwordHash|new_password|current_password)"\s*:/i;

/** No password, hash or given secret anywhere in a response body (or its raw text). */
export function expectNoSecrets(response: Pick<Response, 'body' | 'text'> | unknown, secrets: string[] = []): void {
  const holder = response as { body?: unknown; text?: string };
  const texts = [JSON.stringify(holder?.body ?? response ?? null), typeof holder?.text === 'string' ? holder.text : ''];
  for (const text of texts) {
    expect(text).not.toMatch(SECRET_KEY);
    expect(text).not.toContain('$argon2');
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Requester = Pick<TestApp['http'], Method>;

/**
 * `t.http` that remembers every response it gets, so that a suite can check that no
 * response of any test carried a password or a hash.
 */
export function watchResponses(t: TestApp): { http: Requester; take(): Response[] } {
  let seen: Response[] = [];
  const wrap =
    (method: Method) =>
    (url: string): ReturnType<TestApp['http'][Method]> =>
      t.http[method](url).on('response', (response: Response) => seen.push(response)) as ReturnType<TestApp['http'][Method]>;
  return {
    http: { get: wrap('get'), post: wrap('post'), put: wrap('put'), patch: wrap('patch'), delete: wrap('delete') } as Requester,
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
  };
}

/** An indoor POI on a floor, through the API. */
export async function addPoi(t: TestApp, auth: Record<string, string>, place: Placement, name = 'Reception'): Promise<{ id: number; building_id: number }> {
  const response = await t.http
    .post('/api/v1/pois')
    .set(auth)
    .send({ building_id: place.buildingId, name, position: { floor_id: place.floorId, georeferences: { lat: 42.8723597, lng: -8.5633224 } } });
  expectStatus(response, 201);
  return response.body as { id: number; building_id: number };
}

/** A two-node wayfinding graph on a floor, through the API. */
export async function putPaths(t: TestApp, auth: Record<string, string>, place: Placement): Promise<void> {
  const response = await t.http
    .put(`/api/v1/buildings/${place.buildingId}/paths`)
    .set(auth)
    .send({
      nodes: [
        { id: 1, floor_id: place.floorId, x: 1, y: 1 },
        { id: 2, floor_id: place.floorId, x: 5, y: 5 },
      ],
      links: [{ source: 1, target: 2 }],
    });
  expectStatus(response, 200);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
