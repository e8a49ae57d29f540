import { Controller, Get } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Public } from '../../src/access/decorators/public.decorator';
import { asBearer, createOrganization, passwordTokens } from '../support/auth';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp, testDatabaseKind } from '../support/test-app';

/** Resolves when the slow handler has started: the request is then in flight, whatever the machine's load. */
let slowStarted: () => void = () => undefined;

@Controller('test-only')
class SlowController {
  @Get('slow')
  @Public()
  async slow(): Promise<{ finished: true }> {
    slowStarted();
    await new Promise((resolve) => setTimeout(resolve, 400));
    return { finished: true };
  }
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('shutdown', () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('finishes in-flight requests, then refuses connections and closes the database', async () => {
    t = await createTestApp({ metadata: { controllers: [SlowController] } });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as { port: number };
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    const inFlight = get(port, '/api/v1/test-only/slow');
    await started;
    // What SIGTERM triggers through enableShutdownHooks().
    await t.app.close();
    await expect(inFlight).resolves.toEqual({ status: 200, body: '{"finished":true}' });
    await expect(get(port, '/health/live')).rejects.toThrow(/ECONNREFUSED/);
    expect(t.dataSource.isInitialized).toBe(false);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('database unreachable (PostgreSQL)', () => {
  let t: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.stop();
    await t?.close();
  });

  async function appBehindProxy() {
    const database = new URL(process.env.TEST_DATABASE_URL!);
    const dbProxy = new TcpProxy(database.hostname, Number(database.port || 5432));
    await dbProxy.start();
    proxy = dbProxy;
    t = await createTestApp({
      rewriteDatabaseUrl: (url) => {
        const through = new URL(url);
        through.hostname = '127.0.0.1';
        through.port = String(dbProxy.port);
        return through.toString();
      },
    });
    const org = await createOrganization(t, 'Fragile');
    const token = (await passwordTokens(t, org.email, org.password)).access_token;
    await t.http.get('/api/v1/organizations/current_organization').set(asBearer(token)).expect(200);
    return { token, proxy: dbProxy };
  }

  it.each(['hang', 'refuse'] as const)('answers 503 with Retry-After within 3 seconds when the database %ss', async (mode) => {
    const { token, proxy: dbProxy } = await appBehindProxy();
    dbProxy[mode]();
    for (const path of ['/api/v1/organizations/current_organization', '/api/v1/version']) {
      const started = Date.now();
      let response = await t!.http.get(path).set(asBearer(token));
      // A route that needs no data answers from the credential cache until the notification
      // listener is known to be down (2.5 s without a sign of life), then verifies, and fails.
      while (path === '/api/v1/version' && response.status === 200 && Date.now() - started < 3000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        response = await t!.http.get(path).set(asBearer(token));
      }
      expect(Date.now() - started).toBeLessThan(path === '/api/v1/version' ? 6000 : 3000);
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ status: 503, code: 'service_unavailable', errors: [] });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    const ready = await t!.http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 503, code: 'service_unavailable' });
  });
});
