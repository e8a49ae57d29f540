import SitumSDK from '@situm/sdk-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asBearer, createApiKey, createOrganization, decodeJwt, passwordTokens, TestOrganization } from '../support/auth';
import { listenOnLoopback, loggedRequestsSince } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The official JavaScript client (@situm/sdk-js 0.12.0), unchanged, against a Cartograph
 * server listening on a real port (see /work/notes/sdk-js.md for how the client behaves).
 */

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const UNAUTHORIZED_BODY = { status: 401, code: 'unauthorized', message: expect.any(String), errors: [] };
const LOGIN = '/api/v1/auth/access_tokens';
const REFRESH = '/api/v1/auth/refresh_access_tokens';
const CURRENT_ORGANIZATION = '/api/v1/organizations/current_organization';

/** What the client's `Promise` rejects with: a SitumError built from the JSON error body. */
async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return { ...(error as object), message: (error as Error).message, isError: error instanceof Error };
  }
  throw new Error('expected the client call to reject, but it resolved');
}

describe('@situm/sdk-js against Cartograph', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'SDK Org');
  });
  afterAll(async () => t?.close());

  it('logs in with a password and reads the current organization', async () => {
    const sdk = new SitumSDK({ domain, auth: { username: org.email, password: org.password } });
    const mark = t.requestLogs.length;

    const organization = await sdk.cartography.getCurrentOrganization();

    // camelCased by the client; the timestamps stay the contract's strings.
    expect(organization).toMatchObject({ id: org.organizationId, name: 'SDK Org' });
    const { createdAt, updatedAt } = organization as unknown as { createdAt: unknown; updatedAt: unknown };
    expect(createdAt).toMatch(TIMESTAMP);
    expect(updatedAt).toMatch(TIMESTAMP);
    expect(organization).not.toHaveProperty('created_at');
    expect(organization).not.toHaveProperty('updated_at');

    const session = await sdk.authSession;
    expect(session.payload).toMatchObject({
      email: org.email,
      organization_uuid: org.organizationId,
      role: 'ADMIN_ORG',
      api_permission: 'read-write',
    });
    expect(session.isExpired()).toBe(false);
    expect(typeof session.refreshToken).toBe('string');
    // One login (Basic, empty JSON body), then the call with the Bearer token.
    await vi.waitFor(() =>
      expect(loggedRequestsSince(t, mark)).toEqual([
        { method: 'POST', route: LOGIN, status: 201 },
        { method: 'GET', route: CURRENT_ORGANIZATION, status: 200 },
      ]),
    );
  });

  it('logs in with a read-only API key created through the API, and holds a JWT with its permission', async () => {
    const adminTokens = await passwordTokens(t, org.email, org.password);
    const key = await createApiKey(t, adminTokens.access_token, ApiPermission.ReadOnly, 'sdk kiosk');
    expect(key.permission).toBe('read-only');
    const sdk = new SitumSDK({ domain, auth: { apiKey: key.apikey } });

    const organization = await sdk.cartography.getCurrentOrganization();
    expect(organization).toMatchObject({ id: org.organizationId, name: 'SDK Org' });

    const session = await sdk.authSession;
    expect(session.apiPermissionLevel).toBe('read-only');
    expect(session.organizationId).toBe(org.organizationId);
    expect(session.payload).toMatchObject({ api_permission: 'read-only', organization_uuid: org.organizationId, email: org.email });
    // The JWT itself (not only the client's reading of it) carries the claims.
    expect(sdk.jwt).toBe(session.jwt);
    expect(decodeJwt(session.jwt)).toMatchObject({ api_permission: 'read-only', organization_uuid: org.organizationId, sub: org.adminId });

    // The key's permission travels with the token: a write through the client is refused.
    const apiBase = (sdk as unknown as { apiBase: { put(info: { url: string; body: unknown }): Promise<unknown> } }).apiBase;
    const refused = await rejection(apiBase.put({ url: CURRENT_ORGANIZATION, body: { name: 'Renamed by a read-only key' } }));
    expect(refused).toMatchObject({ status: 403, code: 'forbidden', errors: [] });
    const unchanged = await t.http.get(CURRENT_ORGANIZATION).set(asBearer(adminTokens.access_token)).expect(200);
    expect(unchanged.body.name).toBe('SDK Org');
  });

  it('rejects with a 401 SitumError for an API key that does not exist', async () => {
    const sdk = new SitumSDK({ domain, auth: { apiKey: `cgk_${'x'.repeat(43)}` } });
    const error = await rejection(sdk.cartography.getCurrentOrganization());
    expect(error).toMatchObject({ isError: true, status: 401, errors: [] });
    expect(['unauthorized', 'invalid_credentials']).toContain(error.code);
    expect(error.message).toEqual(expect.stringMatching(/\S/));
    // No token, so the client never got past the login.
    await expect(sdk.authSession).rejects.toMatchObject({ status: 401 });
  });

  it('rejects with invalid_credentials (and the client’s fixed message) for a wrong password', async () => {
    const sdk = new SitumSDK({ domain, auth: { username: org.email, password: 'not-the-password-123' } });
    const error = await rejection(sdk.cartography.getCurrentOrganization());
    expect(error).toMatchObject({
      isError: true,
      status: 401,
      code: 'invalid_credentials',
      message: 'Invalid credentials, please check your authentication params.',
      errors: [],
    });
  });
});

describe('@situm/sdk-js token renewal (access tokens of 60 s)', () => {
  let t: TestApp;
  let domain: string;
  let org: TestOrganization;

  beforeAll(async () => {
    // The client renews a token 500 s before it expires: a 60 s token is renewed on the next call.
    t = await createTestApp({ env: { ACCESS_TOKEN_TTL_SECONDS: '60' } });
    domain = await listenOnLoopback(t);
    org = await createOrganization(t, 'Renewals');
  });
  afterAll(async () => t?.close());

  it('renews through refresh_access_tokens; replaying a used refresh token revokes the chain', async () => {
    const sdk = new SitumSDK({ domain, auth: { username: org.email, password: org.password } });

    const first = await sdk.cartography.getCurrentOrganization();
    expect(first).toMatchObject({ id: org.organizationId, name: 'Renewals' });
    const firstSession = await sdk.authSession;
    const claims = decodeJwt(firstSession.jwt);
    expect((claims.exp as number) - (claims.iat as number)).toBe(60);
    expect(firstSession.isExpired()).toBe(true); // already within the client's 500 s margin
    const used = { access_token: firstSession.jwt, refresh_token: firstSession.refreshToken as string };

    // The next call renews first, then succeeds with the new token.
    const mark = t.requestLogs.length;
    const second = await sdk.cartography.getCurrentOrganization();
    expect(second).toMatchObject({ id: org.organizationId, name: 'Renewals' });
    await vi.waitFor(() =>
      expect(loggedRequestsSince(t, mark)).toEqual([
        { method: 'POST', route: REFRESH, status: 201 },
        { method: 'GET', route: CURRENT_ORGANIZATION, status: 200 },
      ]),
    );
    const secondSession = await sdk.authSession;
    expect(secondSession.jwt).not.toBe(used.access_token);
    expect(secondSession.refreshToken).not.toBe(used.refresh_token);
    expect(decodeJwt(secondSession.jwt)).toMatchObject({ sub: org.adminId, organization_uuid: org.organizationId, sid: claims.sid });

    // And again: each renewal rotates the refresh token.
    const mark2 = t.requestLogs.length;
    await expect(sdk.cartography.getCurrentOrganization()).resolves.toMatchObject({ id: org.organizationId });
    await vi.waitFor(() =>
      expect(loggedRequestsSince(t, mark2)).toEqual([
        { method: 'POST', route: REFRESH, status: 201 },
        { method: 'GET', route: CURRENT_ORGANIZATION, status: 200 },
      ]),
    );
    const newest = await sdk.authSession;
    expect(newest.refreshToken).not.toBe(secondSession.refreshToken);
    await t.http.get('/api/v1/version').set(asBearer(newest.jwt)).expect(200);

    // Someone replays the first, already used, refresh token.
    const replay = await t.http.post(REFRESH).send(used);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(UNAUTHORIZED_BODY);

    // The whole chain is revoked: the client's newest token no longer works ...
    const revoked = await t.http.get('/api/v1/version').set(asBearer(newest.jwt));
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual(UNAUTHORIZED_BODY);
    // ... and neither does its renewal: the client's next call rejects with 401.
    const error = await rejection(sdk.cartography.getCurrentOrganization());
    expect(error).toMatchObject({ isError: true, status: 401, code: 'unauthorized' });

    // A fresh login is unaffected.
    const other = new SitumSDK({ domain, auth: { username: org.email, password: org.password } });
    await expect(other.cartography.getCurrentOrganization()).resolves.toMatchObject({ id: org.organizationId });
  });
});
