import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, TestApp } from '../support/test-app';

const TRUSTED = '127.0.0.1,::1,::ffff:127.0.0.1';

// One app at a time (each test closes its own before the next starts).
describe('Strict-Transport-Security', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is not sent over plain HTTP by default, nor when an untrusted client claims HTTPS', async () => {
    t = await createTestApp();
    const plain = await t.http.get('/health/live').expect(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const claimed = await t.http.get('/health/live').set('X-Forwarded-Proto', 'https').expect(200);
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when the request came over HTTPS through a trusted proxy, on API answers and errors alike', async () => {
    t = await createTestApp({ env: { TRUSTED_PROXIES: TRUSTED } });
    const secure = await t.http.get('/health/live').set('X-Forwarded-Proto', 'https').expect(200);
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const error = await t.http.get('/api/v1/buildings').set('X-Forwarded-Proto', 'https').expect(401);
    expect(error.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await t.http.get('/health/live').expect(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('HSTS=always sends it everywhere (TLS terminated by something Cartograph cannot see), HSTS=off never', async () => {
    t = await createTestApp({ env: { HSTS: 'always', HSTS_MAX_AGE_SECONDS: '600' } });
    expect((await t.http.get('/health/live').expect(200)).headers['strict-transport-security']).toBe('max-age=600; includeSubDomains');
    await t.close();
    t = await createTestApp({ env: { HSTS: 'off', TRUSTED_PROXIES: TRUSTED } });
    expect((await t.http.get('/health/live').set('X-Forwarded-Proto', 'https').expect(200)).headers['strict-transport-security']).toBeUndefined();
  });

  it('refuses a wrong HSTS setting at start', async () => {
    await expect(createTestApp({ env: { HSTS: 'sometimes' } })).rejects.toThrow(/HSTS must be auto, always or off/);
  });
});
