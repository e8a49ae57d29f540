import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupGate } from '../../src/health/startup-gate';
import { expectError } from '../support/cartography';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * `npm start` listens before it creates the first administrator; readiness waits for that
 * step, so a script that polls /health/ready and then logs in never gets a 401.
 */
describe('readiness waits for start-up work', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('answers 503 in the error shape while a start-up step is pending, and 200 once it is done; liveness is unaffected', async () => {
    expect((await t.http.get('/health/ready')).status).toBe(200);
    const gate = t.app.get(StartupGate);
    gate.hold('first administrator');
    try {
      expectError(await t.http.get('/health/ready'), 503, 'service_unavailable');
      expect((await t.http.get('/health/live')).status).toBe(200);
    } finally {
      gate.release();
    }
    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', info: { startup: { status: 'up' } } });
  });
});
