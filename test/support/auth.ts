import { randomUUID } from 'node:crypto';
import { ApiPermission } from '../../src/access/permissions';
import { OrganizationsService } from '../../src/organizations/organizations.service';
import { TestApp } from './test-app';

export const asBasic = (email: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`,
});
export const asBearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const asApiKey = (key: string, email?: string) => ({ 'X-API-KEY': key, ...(email ? { 'X-API-EMAIL': email } : {}) });

export interface TestOrganization {
  organizationId: string;
  adminId: string;
  email: string;
  password: string;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomUUID().slice(0, 8)}@example.test`;

/** An organization and its ADMIN_ORG, created the way the CLI does it. */
export async function createOrganization(t: TestApp, name = 'Test organization'): Promise<TestOrganization> {
  const email = uniqueEmail('admin');
  const password = `pw-${randomUUID()}`;
  const created = await t.app.get(OrganizationsService).createWithAdmin({ name, adminEmail: email, adminPassword: password });
  return { organizationId: created.organization_id, adminId: created.admin_user_id, email, password };
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

export async function passwordTokens(t: TestApp, email: string, password: string): Promise<TokenPair> {
  const response = await t.http.post('/api/v1/auth/access_tokens').set(asBasic(email, password)).expect(201);
  return response.body as TokenPair;
}

export interface CreatedApiKey {
  id: string;
  apikey: string;
  permission: ApiPermission;
}

export async function createApiKey(t: TestApp, accessToken: string, permission: ApiPermission, description = ''): Promise<CreatedApiKey> {
  const response = await t.http.post('/api/v1/auth/apikeys').set(asBearer(accessToken)).send({ permission, description }).expect(201);
  return response.body as CreatedApiKey;
}

export function decodeJwt(token: string): Record<string, unknown> {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
