import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { CredentialCacheService } from '../../src/auth/credential-cache.service';
import { asApiKey, asBasic, createApiKey } from '../support/auth';
import { signUp } from '../support/cartography';
import { ensureServerBuilt, startProcess } from '../support/server-process';
import { SseClient } from '../support/sse-client';
import { createTestApp, FreshDatabase, freshDatabase, TestApp, testDatabaseKind } from '../support/test-app';

/**
 * The operator's `reset-password` is a process of its own beside the running instances: on
 * PostgreSQL they hear of it as of a password change made through the API, so the old
 * password's tokens, even cached ones, are refused and the user's streams opened with them end.
 */
const STREAM = '/api/v1/geofencing/events/stream';
const NEW_PASSWORD = 'a-new-password-from-the-console';

describe.runIf(testDatabaseKind() === 'postgres')('reset-password beside a running instance (PostgreSQL)', () => {
  let root: string;
  let database: FreshDatabase;
  let t: TestApp;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    root = await ensureServerBuilt();
    database = await freshDatabase();
    t = await createTestApp({ database: { ...database, drop: async () => undefined } });
  }, 240_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
    await database?.drop();
  });

  const status = async (headers: Record<string, string>) => (await t.app.inject({ method: 'GET', url: '/api/v1/version', headers })).statusCode;

  it('the instance refuses the old token it had cached and ends the stream opened with it; API keys keep working', async () => {
    const owner = await signUp(t, 'Reset beside a server');
    const key = await createApiKey(t, owner.token, ApiPermission.ReadOnly);
    // The token is in the instance's credential cache: its next use is answered from there.
    const cache = t.app.get(CredentialCacheService);
    expect(await status(owner.auth)).toBe(200);
    const hits = cache.stats().hits;
    expect(await status(owner.auth)).toBe(200);
    expect(cache.stats().hits).toBe(hits + 1);
    const stream = await SseClient.open(t.app.getHttpServer(), STREAM, owner.auth);
    streams.push(stream);
    expect(stream.status).toBe(200);

    const reset = startProcess('node', ['dist/src/cli.js', 'reset-password', '--email', owner.org.email, '--password-stdin'], {
      cwd: root,
      env: { ...database.env, JWT_SECRET: t.env.JWT_SECRET },
      stdin: `${NEW_PASSWORD}\n`,
    });
    expect((await reset.exited).code, reset.stderr()).toBe(0);
    expect(JSON.parse(reset.lines.join('\n'))).toEqual({ user_id: owner.org.adminId, email: owner.org.email, sessions_revoked: true });

    // The notice travels through PostgreSQL: poll, with a bound far above any real delay.
    const deadline = Date.now() + 10_000;
    for (let answer = await status(owner.auth); answer !== 401; answer = await status(owner.auth)) {
      expect(answer).toBe(200);
      if (Date.now() > deadline) throw new Error('the running instance still accepts the token of the old password');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stream.until((c) => c.ended, 10_000, 'the end of the stream opened with the old password');
    expect(stream.events('close')).toEqual([{ reason: 'credential_revoked' }]);

    expect(await status(asApiKey(key.apikey))).toBe(200);
    await t.http.post('/api/v1/auth/access_tokens').set(asBasic(owner.org.email, owner.org.password)).expect(401);
    await t.http.post('/api/v1/auth/access_tokens').set(asBasic(owner.org.email, NEW_PASSWORD)).expect(201);
  }, 60_000);
});
