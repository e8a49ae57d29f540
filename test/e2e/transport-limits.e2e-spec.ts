import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asBearer, createApiKey, decodeJwt } from '../support/auth';
import { buildingInput, Cartographer, signUp } from '../support/cartography';
import { RawClient, rawRequest } from '../support/raw-http';
import { createTestApp, TestApp, testDatabaseKind } from '../support/test-app';

const ERROR_KEYS = ['code', 'errors', 'message', 'status'];

function expectErrorShape(response: { status: number; headers: Record<string, string>; body: string }, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.body).not.toMatch(/FST_|HPE_|ERR_HTTP/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(ERROR_KEYS);
  expect(body).toMatchObject({ status, code, errors: [] });
}

function signJwt(payload: object, secret: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** A real GC, so that heap figures say what is still referenced. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
};

/** GET over a connection from another loopback address, i.e. another client. */
function getFrom(port: number, localAddress: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, localAddress, headers, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end();
  });
}

describe('transport and token hardening', () => {
  let t: TestApp;
  let owner: Cartographer;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1000', MAX_CONNECTIONS_PER_CLIENT: '40' } });
    owner = await signUp(t, 'Transport');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  describe('protocol-level errors use the contract error shape (item 10)', () => {
    it('answers a malformed percent-encoding in the path with 400 bad_request', async () => {
      const response = await rawRequest(port, 'GET /api/v1/geofences/% HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expectErrorShape(response, 400, 'bad_request');
      expect(response.headers['x-request-id']).toBeDefined();
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('answers an over-long path parameter with 414 uri_too_long', async () => {
      const response = await rawRequest(port, `GET /api/v1/geofences/${'a'.repeat(500)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expectErrorShape(response, 414, 'uri_too_long');
    });

    it('answers oversized headers with 431', async () => {
      const response = await rawRequest(port, `GET /api/v1/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
      expectErrorShape(response, 431, 'header_fields_too_large');
    });

    it('answers unparsable HTTP with 400', async () => {
      const response = await rawRequest(port, 'GET /api/v1/version HTTP/1.1\r\nHost x\r\n\r\n');
      expectErrorShape(response, 400, 'bad_request');
    });

    it('answers headers that never finish with 408 request_timeout', async () => {
      const client = await RawClient.open(port);
      client.write('GET /api/v1/version HTTP/1.1\r\nHost: x\r\n');
      const response = await client.waitForResponse(5_000);
      expectErrorShape(response, 408, 'request_timeout');
      client.destroy();
    });
  });

  describe('Cache-Control (item 11)', () => {
    it('marks authenticated answers and errors no-store', async () => {
      const read = await t.http.get('/api/v1/buildings').set(owner.auth).expect(200);
      expect(read.headers['cache-control']).toBe('no-store');
      const created = await t.http.post('/api/v1/buildings').set(owner.auth).send(buildingInput()).expect(201);
      expect(created.headers['cache-control']).toBe('no-store');
      const refused = await t.http.get('/api/v1/buildings').expect(401);
      expect(refused.headers['cache-control']).toBe('no-store');
      const live = await t.http.get('/health/live').expect(200);
      expect(live.headers['cache-control']).toBe('no-store');
    });
  });

  describe('data files (item 12)', () => {
    it('keeps the database files owner-only in an owner-only data directory', async () => {
      const dataDir = t.env.DATA_DIR;
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const files = readdirSync(dataDir).filter((name) => name.startsWith('cartograph.sqlite'));
      if (testDatabaseKind() === 'postgres') {
        expect(files).toEqual([]);
        return;
      }
      // A write has happened (sign-up), so the WAL and its index exist.
      expect(files.sort()).toEqual(['cartograph.sqlite', 'cartograph.sqlite-shm', 'cartograph.sqlite-wal']);
      for (const name of files) expect(statSync(join(dataDir, name)).mode & 0o777).toBe(0o600);
      expect(existsSync(join(dataDir, 'cartograph.sqlite'))).toBe(true);
    });
  });

  describe('access token time claims (item 13)', () => {
    it('refuses a token signed with the real secret but without exp, without iat, or not yet valid', async () => {
      const claims = decodeJwt(owner.token);
      const now = Math.floor(Date.now() / 1000);
      const { exp: _exp, iat: _iat, ...timeless } = claims;
      const forged = [
        { ...timeless, iat: now },
        { ...timeless, exp: now + 600 },
        { ...timeless, iat: now, exp: now + 600, nbf: now + 3600 },
        { ...timeless, iat: now + 7200, exp: now + 7800 },
        { ...timeless, iat: now, exp: now + 10 * 365 * 24 * 3600 },
      ];
      for (const payload of forged) {
        const response = await t.http
          .get('/api/v1/version')
          .set(asBearer(signJwt(payload, t.env.JWT_SECRET)))
          .expect(401);
        expect(response.body).toMatchObject({ status: 401, code: 'unauthorized', errors: [] });
      }
      await t.http
        .get('/api/v1/version')
        .set(asBearer(signJwt({ ...timeless, iat: now, exp: now + 600 }, t.env.JWT_SECRET)))
        .expect(200);
      // Nor can such a token be refreshed.
      await t.http
        .post('/api/v1/auth/refresh_access_tokens')
        .send({ access_token: signJwt({ ...timeless, iat: now }, t.env.JWT_SECRET), refresh_token: 'cgr_whatever' })
        .expect(401);
    });
  });

  describe('slow bodies (item 5)', () => {
    const slowPost = (headers: string) => `POST /api/v1/buildings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n${headers}\r\n{"name":"`;

    it('refuses a body without credentials, or with bad ones, before reading it', async () => {
      for (const headers of ['', 'Authorization: Bearer not-a-token\r\n', 'X-API-KEY: cg_nope\r\n']) {
        const client = await RawClient.open(port);
        client.write(slowPost(headers));
        // Only 9 bytes of a 1 MiB body have been sent: the answer cannot have waited for it.
        const response = await client.waitForResponse(2_000);
        expectErrorShape(response, 401, 'unauthorized');
        expect(response.headers.connection).toBe('close');
        await Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        expect(client.socket.destroyed).toBe(true);
      }
    });

    it('answers a body sent to an unknown route without waiting for it', async () => {
      const client = await RawClient.open(port);
      client.write('POST /api/v1/no-such-route HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"a":');
      const response = await client.waitForResponse(1_000);
      expectErrorShape(response, 404, 'route_not_found');
      client.destroy();
      // A whole request to an unknown route is answered the same way.
      await t.http.post('/api/v1/no-such-route').set(owner.auth).send({ a: 1 }).expect(404);
    });

    it('ends authenticated bodies that trickle past the request timeout with 408, and gives the memory back', async () => {
      const key = await createApiKey(t, owner.token, ApiPermission.ReadWrite);
      collectGarbage();
      const { heapUsed, rss: rssBefore } = process.memoryUsage();
      const before = { heapUsed };
      const clients = await Promise.all(Array.from({ length: 30 }, () => RawClient.open(port)));
      const chunk = 'a'.repeat(64 * 1024);
      for (const client of clients) {
        client.write(slowPost(`X-API-KEY: ${key.apikey}\r\n`));
        for (let sent = 0; sent < 8; sent += 1) client.write(chunk);
      }
      // Meanwhile another client is served.
      expect(await getFrom(port, '127.0.0.2', '/api/v1/version', asBearer(owner.token))).toBe(200);
      const responses = await Promise.all(clients.map((client) => client.waitForResponse(6_000)));
      for (const response of responses) expectErrorShape(response, 408, 'request_timeout');
      await Promise.all(clients.map((client) => Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, 2_000))])));
      clients.forEach((client) => client.destroy());
      await new Promise((resolve) => setTimeout(resolve, 200));
      collectGarbage();
      const after = process.memoryUsage();
      // 30 × 512 KiB were held at the peak; what remains must be far less than that. The
      // resident size is bounded generously: the allocator keeps freed pages for reuse.
      expect(after.heapUsed - before.heapUsed).toBeLessThan(8 * 1024 * 1024);
      expect(after.rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    });

    it('caps the connections of one client address while other clients are served', async () => {
      // Earlier tests' connections must be gone from the server's count first.
      const server = t.app.getHttpServer();
      const open = () => new Promise<number>((resolve) => server.getConnections((_error: unknown, count: number) => resolve(count)));
      for (let waited = 0; waited < 50 && (await open()) > 0; waited += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      const clients = await Promise.all(Array.from({ length: 50 }, () => RawClient.open(port)));
      await waitFor(() => clients.filter((client) => client.response?.status === 429).length >= 10, 3_000);
      const refused = clients.filter((client) => client.response !== undefined);
      expect(refused.length).toBe(10);
      for (const client of refused) expectErrorShape(client.response!, 429, 'too_many_requests');
      expect(await getFrom(port, '127.0.0.3', '/api/v1/version', asBearer(owner.token))).toBe(200);
      clients.forEach((client) => client.destroy());
      // Closed connections no longer count.
      await waitFor(() => false, 200);
      expect(await getFrom(port, '127.0.0.1', '/api/v1/version', asBearer(owner.token))).toBe(200);
    });
  });
});
