import { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey } from '../support/auth';
import { makePng, PNG_2X2 } from '../support/images';
import { buildingInput, Cartographer, signUp } from '../support/cartography';
import { createTestApp, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';
import { randomUUID } from 'node:crypto';

const countBuildings = async (t: TestApp, organizationId: string): Promise<number> => {
  const [row]: Array<{ count: number | string }> = await t.dataSource.query(
    testDatabaseKind() === 'postgres'
      ? 'SELECT COUNT(*) AS "count" FROM "buildings" WHERE "organization_id" = $1'
      : 'SELECT COUNT(*) AS "count" FROM "buildings" WHERE "organization_id" = ?',
    [organizationId],
  );
  return Number(row.count);
};

describe('Idempotency-Key on creates', () => {
  let t: TestApp;
  let owner: Cartographer;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUp(t, 'Idempotent');
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.restoreAllMocks());

  const create = (key: string, body: Record<string, unknown> = buildingInput(), auth = owner.auth) =>
    t.http.post('/api/v1/buildings').set(auth).set('Idempotency-Key', key).send(body);

  it('replays the first answer to a retry instead of creating again', async () => {
    const key = randomUUID();
    const first = await create(key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await create(key).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.etag).toBe(first.headers.etag);
    expect(retry.headers['content-type']).toMatch(/^application\/json/);
    expect(await countBuildings(t, owner.org.organizationId)).toBe(1);
    // Without a key, every request creates.
    await t.http.post('/api/v1/buildings').set(owner.auth).send(buildingInput()).expect(201);
    expect(await countBuildings(t, owner.org.organizationId)).toBe(2);
  });

  it('refuses the same key with another body (422) and an ill-formed key (400)', async () => {
    const key = randomUUID();
    await create(key).expect(201);
    const other = await create(key, buildingInput({ name: 'Another' })).expect(422);
    expect(other.body).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(other.body.errors[0]).toMatchObject({ fields: 'Idempotency-Key' });
    for (const bad of ['x'.repeat(256), 'has space']) {
      const response = await create(bad).expect(400);
      expect(response.body).toMatchObject({ status: 400, code: 'bad_request' });
    }
  });

  it('scopes keys per organization and credential owner', async () => {
    const stranger = await signUp(t, 'Stranger');
    const key = randomUUID();
    const mine = await create(key).expect(201);
    const theirs = await create(key, buildingInput(), stranger.auth).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('executes one of several concurrent requests with one key; the others wait their turn (409) or replay', async () => {
    const before = await countBuildings(t, owner.org.organizationId);
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 6 }, () => create(key)));
    const executed = responses.filter((response) => response.status === 201 && !response.headers['idempotent-replayed']);
    expect(executed).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 409) {
        expect(response.body).toMatchObject({ status: 409, code: 'conflict' });
        expect(response.headers['retry-after']).toBe('1');
      } else {
        expect(response.status).toBe(201);
        expect(response.body).toEqual(executed[0].body);
      }
    }
    expect(await countBuildings(t, owner.org.organizationId)).toBe(before + 1);
    await create(key).expect(201).expect('Idempotent-Replayed', 'true');
  });

  it('lets a failed attempt be retried at once with the same key', async () => {
    const key = randomUUID();
    const invalid = buildingInput({ name: '' });
    await create(key, invalid).expect(422);
    await create(key, invalid).expect(422);
  });

  it('says so, rather than creating twice, when a write committed but its answer was lost', async () => {
    const before = await countBuildings(t, owner.org.organizationId);
    vi.spyOn(t.app.get(IdempotencyService), 'complete').mockRejectedValueOnce(new Error('connection lost'));
    const key = randomUUID();
    await create(key).expect(500);
    const retry = await create(key).expect(409);
    expect(retry.body.message).toMatch(/executed/);
    expect(await countBuildings(t, owner.org.organizationId)).toBe(before + 1);
  });

  it('covers uploads too, fingerprinted by their length', async () => {
    const key = randomUUID();
    const upload = (bytes: Buffer) =>
      t.http.post('/api/v1/images').set(owner.auth).set('Idempotency-Key', key).attach('image', bytes, { filename: 'plan.png', contentType: 'image/png' });
    const first = await upload(PNG_2X2).expect(201);
    const retry = await upload(PNG_2X2).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    await upload(makePng(3, 3)).expect(422);
    const [row]: Array<{ count: number | string }> = await t.dataSource.query('SELECT COUNT(*) AS "count" FROM "images"');
    expect(Number(row.count)).toBe(1);
  });

  it('is documented on every create and nowhere else', async () => {
    const document = (await t.http.get('/api/docs-json').expect(200)).body as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> };
    const withKey: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (operation.parameters?.some((parameter) => parameter.name === 'Idempotency-Key' && parameter.in === 'header')) withKey.push(`${method} ${path}`);
      }
    }
    expect(withKey).toContain('post /api/v1/buildings');
    expect(withKey).toContain('post /api/v1/images');
    expect(withKey).not.toContain('post /api/v1/auth/access_tokens');
    expect(withKey).not.toContain('post /api/v1/auth/refresh_access_tokens');
    expect(withKey.every((operation) => operation.startsWith('post '))).toBe(true);
  });

  it('replays a new API key without storing it in clear', async () => {
    const key = randomUUID();
    const send = () => t.http.post('/api/v1/auth/apikeys').set(owner.auth).set('Idempotency-Key', key).send({ permission: ApiPermission.ReadOnly, description: 'ci' });
    const first = await send().expect(201);
    const retry = await send().expect(201);
    expect(retry.body).toEqual(first.body);
    await t.http.get('/api/v1/version').set(asApiKey(first.body.apikey)).expect(200);
    const rows: Array<{ response: string }> = await t.dataSource.query('SELECT "response" FROM "idempotency_keys" WHERE "response" IS NOT NULL');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.response).not.toContain(first.body.apikey);
    expect(JSON.stringify(rows)).not.toContain(first.body.apikey);
  });
});

describe.skipIf(testDatabaseKind() !== 'postgres')('Idempotency-Key across two instances on one PostgreSQL database', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const database = await freshDatabase();
    first = await createTestApp({ database });
    second = await createTestApp({ env: { JWT_SECRET: first.env.JWT_SECRET }, database: { ...database, drop: async () => undefined } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('executes a key once whichever instance each attempt reaches, and replays it from either', async () => {
    const owner = await signUp(first, 'Two instances');
    const bases: string[] = [];
    for (const t of [first, second]) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      bases.push(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`);
    }
    const key = randomUUID();
    const send = (base: string) => request(base).post('/api/v1/buildings').set(owner.auth).set('Idempotency-Key', key).send(buildingInput());
    const responses = await Promise.all(Array.from({ length: 8 }, (_, index) => send(bases[index % 2])));
    const executed = responses.filter((response) => response.status === 201 && !response.headers['idempotent-replayed']);
    expect(executed).toHaveLength(1);
    expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);
    for (const base of bases) {
      const replay = await send(base).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(executed[0].body);
    }
    expect(await countBuildings(first, owner.org.organizationId)).toBe(1);
  });
});
