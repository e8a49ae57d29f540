import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBearer, createOrganization, passwordTokens } from '../support/auth';
import { createTestApp, TestApp } from '../support/test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('logs in and reads the organization', async () => {
    const org = await createOrganization(t, 'Smoke');
    const tokens = await passwordTokens(t, org.email, org.password);
    const response = await t.http.get('/api/v1/organizations/current_organization').set(asBearer(tokens.access_token)).expect(200);
    expect(response.body).toMatchObject({ id: org.organizationId, name: 'Smoke' });
  });
});
