import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteDeclaration, RouteDeclarations } from '../../src/access/route-declarations';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Every route and what it requires, written out by hand from the controllers. Adding a route,
 * or changing what one requires, must come with a change here (and a review of it).
 *
 * access: `public`, or the scope followed by its extra conditions
 * (`role=...`, `user-credentials`, `token-exchange`, `stream`), as RouteDeclarations describes them.
 */
const DECLARED_ROUTES: RouteDeclaration[] = [
  { method: 'GET', path: 'audit', access: 'read role=ADMIN_ORG' },
  { method: 'POST', path: 'auth/access_tokens', access: 'authenticated token-exchange' },
  { method: 'GET', path: 'auth/apikeys', access: 'read user-credentials' },
  { method: 'POST', path: 'auth/apikeys', access: 'write user-credentials' },
  { method: 'DELETE', path: 'auth/apikeys/:id', access: 'write user-credentials' },
  { method: 'PUT', path: 'auth/apikeys/:id', access: 'write user-credentials' },
  { method: 'POST', path: 'auth/refresh_access_tokens', access: 'public' },
  { method: 'DELETE', path: 'auth/session', access: 'authenticated user-credentials' },
  { method: 'GET', path: 'auth/session', access: 'authenticated user-credentials' },
  { method: 'POST', path: 'auth/session', access: 'authenticated token-exchange' },
  { method: 'POST', path: 'auth/stream_tickets', access: 'authenticated' },
  { method: 'GET', path: 'buildings', access: 'cartography:read' },
  { method: 'POST', path: 'buildings', access: 'cartography:write' },
  { method: 'POST', path: 'buildings/:buildingId/directions', access: 'cartography:read' },
  { method: 'GET', path: 'buildings/:buildingId/floors', access: 'cartography:read' },
  { method: 'GET', path: 'buildings/:buildingId/paths', access: 'cartography:read' },
  { method: 'POST', path: 'buildings/:buildingId/paths', access: 'authenticated' },
  { method: 'PUT', path: 'buildings/:buildingId/paths', access: 'cartography:write' },
  { method: 'GET', path: 'buildings/:buildingId/pois', access: 'cartography:read' },
  { method: 'DELETE', path: 'buildings/:id', access: 'cartography:write' },
  { method: 'GET', path: 'buildings/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'buildings/:id', access: 'cartography:write' },
  { method: 'GET', path: 'devices', access: 'read' },
  { method: 'POST', path: 'devices', access: 'write role=ADMIN_ORG' },
  { method: 'DELETE', path: 'devices/:id', access: 'write role=ADMIN_ORG' },
  { method: 'GET', path: 'devices/:id', access: 'read' },
  { method: 'PUT', path: 'devices/:id', access: 'write role=ADMIN_ORG' },
  { method: 'DELETE', path: 'devices/:id/navigation', access: 'positions:write' },
  { method: 'GET', path: 'devices/:id/navigation', access: 'cartography:read' },
  { method: 'PUT', path: 'devices/:id/navigation', access: 'positions:write' },
  { method: 'GET', path: 'floors', access: 'cartography:read' },
  { method: 'POST', path: 'floors', access: 'cartography:write' },
  { method: 'DELETE', path: 'floors/:id', access: 'cartography:write' },
  { method: 'GET', path: 'floors/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'floors/:id', access: 'cartography:write' },
  { method: 'GET', path: 'floors/:id/heatmap', access: 'read' },
  { method: 'POST', path: 'gateways/:hardware_id/observations', access: 'positions:write gateway-key' },
  { method: 'GET', path: 'geofences', access: 'cartography:read' },
  { method: 'POST', path: 'geofences', access: 'cartography:write' },
  { method: 'DELETE', path: 'geofences/:id', access: 'cartography:write' },
  { method: 'GET', path: 'geofences/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'geofences/:id', access: 'cartography:write' },
  { method: 'GET', path: 'geofences/:id/occupants', access: 'read' },
  { method: 'POST', path: 'geofences/:id/restore', access: 'cartography:write' },
  { method: 'DELETE', path: 'geofences/:id/rules', access: 'cartography:write' },
  { method: 'GET', path: 'geofences/:id/rules', access: 'read' },
  { method: 'PUT', path: 'geofences/:id/rules', access: 'cartography:write' },
  { method: 'GET', path: 'geofences/:id/visits', access: 'read' },
  { method: 'GET', path: 'geofences/search', access: 'cartography:read' },
  { method: 'GET', path: 'geofencing/analytics', access: 'read' },
  { method: 'GET', path: 'geofencing/analytics/search', access: 'read' },
  { method: 'GET', path: 'geofencing/contains', access: 'read' },
  { method: 'POST', path: 'geofencing/evaluate', access: 'read' },
  { method: 'GET', path: 'geofencing/events', access: 'read' },
  { method: 'GET', path: 'geofencing/events/:id', access: 'read' },
  { method: 'GET', path: 'geofencing/events/stream', access: 'read stream' },
  { method: 'GET', path: 'geofencing/occupancy', access: 'read' },
  { method: 'GET', path: 'geofencing/occupancy/history', access: 'read' },
  { method: 'GET', path: 'geofencing/settings', access: 'read' },
  { method: 'PUT', path: 'geofencing/settings', access: 'cartography:write role=ADMIN_ORG' },
  { method: 'POST', path: 'geofencing/simulate', access: 'read' },
  { method: 'GET', path: 'groups', access: 'read' },
  { method: 'POST', path: 'groups', access: 'write role=ADMIN_ORG' },
  { method: 'DELETE', path: 'groups/:id', access: 'write role=ADMIN_ORG' },
  { method: 'GET', path: 'groups/:id', access: 'read' },
  { method: 'PUT', path: 'groups/:id', access: 'write role=ADMIN_ORG' },
  { method: 'GET', path: 'health/live', access: 'public' },
  { method: 'GET', path: 'health/ready', access: 'public' },
  { method: 'POST', path: 'images', access: 'cartography:write' },
  { method: 'GET', path: 'images/:id', access: 'cartography:read' },
  { method: 'GET', path: 'infrastructure', access: 'cartography:read' },
  { method: 'PUT', path: 'infrastructure', access: 'cartography:write' },
  { method: 'POST', path: 'infrastructure/ble', access: 'cartography:write' },
  { method: 'DELETE', path: 'infrastructure/ble/:id', access: 'cartography:write' },
  { method: 'GET', path: 'infrastructure/ble/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'infrastructure/ble/:id', access: 'cartography:write' },
  { method: 'GET', path: 'infrastructure/gateways', access: 'cartography:read' },
  { method: 'POST', path: 'infrastructure/gateways', access: 'cartography:write' },
  { method: 'PUT', path: 'infrastructure/gateways', access: 'cartography:write' },
  { method: 'DELETE', path: 'infrastructure/gateways/:id', access: 'cartography:write' },
  { method: 'GET', path: 'infrastructure/gateways/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'infrastructure/gateways/:id', access: 'cartography:write' },
  { method: 'GET', path: 'infrastructure/gateways/:id/health', access: 'cartography:read' },
  { method: 'GET', path: 'infrastructure/radio_model', access: 'cartography:read' },
  { method: 'GET', path: 'infrastructure/reference_points', access: 'cartography:read' },
  { method: 'POST', path: 'infrastructure/reference_points', access: 'cartography:write' },
  { method: 'PUT', path: 'infrastructure/reference_points', access: 'cartography:write' },
  { method: 'DELETE', path: 'infrastructure/reference_points/:id', access: 'cartography:write' },
  { method: 'GET', path: 'infrastructure/reference_points/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'infrastructure/reference_points/:id', access: 'cartography:write' },
  { method: 'GET', path: 'infrastructure/tracking', access: 'cartography:read' },
  { method: 'PUT', path: 'infrastructure/tracking', access: 'cartography:write' },
  { method: 'POST', path: 'infrastructure/wifi', access: 'cartography:write' },
  { method: 'DELETE', path: 'infrastructure/wifi/:id', access: 'cartography:write' },
  { method: 'GET', path: 'infrastructure/wifi/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'infrastructure/wifi/:id', access: 'cartography:write' },
  { method: 'GET', path: 'organizations/current_organization', access: 'authenticated' },
  { method: 'PUT', path: 'organizations/current_organization', access: 'write role=ADMIN_ORG' },
  { method: 'GET', path: 'paths', access: 'cartography:read' },
  { method: 'POST', path: 'paths', access: 'authenticated' },
  { method: 'GET', path: 'poi_categories', access: 'cartography:read' },
  { method: 'POST', path: 'poi_categories', access: 'cartography:write' },
  { method: 'DELETE', path: 'poi_categories/:id', access: 'cartography:write' },
  { method: 'GET', path: 'poi_categories/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'poi_categories/:id', access: 'cartography:write' },
  { method: 'GET', path: 'pois', access: 'cartography:read' },
  { method: 'POST', path: 'pois', access: 'cartography:write' },
  { method: 'POST', path: 'pois_bulk', access: 'cartography:write' },
  { method: 'DELETE', path: 'pois/:id', access: 'cartography:write' },
  { method: 'GET', path: 'pois/:id', access: 'cartography:read' },
  { method: 'PUT', path: 'pois/:id', access: 'cartography:write' },
  { method: 'GET', path: 'realtime/building/:building_id', access: 'read' },
  { method: 'GET', path: 'realtime/organization/:organization_uuid', access: 'read' },
  { method: 'GET', path: 'realtime/positions', access: 'read' },
  { method: 'POST', path: 'realtime/positions', access: 'positions:write' },
  { method: 'POST', path: 'realtime/scans', access: 'positions:write' },
  { method: 'GET', path: 'realtime/stream', access: 'read stream' },
  { method: 'GET', path: 'reports/geofencing_sessions_matches.csv', access: 'read' },
  { method: 'GET', path: 'reports/geofencing_sessions_matches.json', access: 'read' },
  { method: 'GET', path: 'reports/geofencing_stay_time.csv', access: 'read' },
  { method: 'GET', path: 'reports/geofencing_stay_time.json', access: 'read' },
  { method: 'GET', path: 'reports/positioning_time.csv', access: 'read' },
  { method: 'GET', path: 'reports/positioning_time.json', access: 'read' },
  { method: 'GET', path: 'reports/user_positions.csv', access: 'read' },
  { method: 'GET', path: 'reports/user_positions.json', access: 'read' },
  { method: 'GET', path: 'reports/visitors.csv', access: 'read' },
  { method: 'GET', path: 'reports/visitors.json', access: 'read' },
  { method: 'GET', path: 'users', access: 'read' },
  { method: 'POST', path: 'users', access: 'write role=ADMIN_ORG' },
  { method: 'DELETE', path: 'users/:id', access: 'write role=ADMIN_ORG' },
  { method: 'GET', path: 'users/:id', access: 'read' },
  { method: 'PUT', path: 'users/:id', access: 'write' },
  { method: 'GET', path: 'users/me', access: 'read' },
  { method: 'PUT', path: 'users/me/password', access: 'write user-credentials' },
  { method: 'GET', path: 'version', access: 'authenticated' },
  { method: 'GET', path: 'webhooks', access: 'write' },
  { method: 'POST', path: 'webhooks', access: 'write role=ADMIN_ORG' },
  { method: 'DELETE', path: 'webhooks/:id', access: 'write role=ADMIN_ORG' },
  { method: 'GET', path: 'webhooks/:id', access: 'write' },
  { method: 'PUT', path: 'webhooks/:id', access: 'write role=ADMIN_ORG' },
  { method: 'GET', path: 'webhooks/:id/deliveries', access: 'write' },
  { method: 'POST', path: 'webhooks/:id/deliveries/:deliveryId/retry', access: 'write role=ADMIN_ORG' },
  { method: 'POST', path: 'webhooks/:id/replay', access: 'write role=ADMIN_ORG' },
  { method: 'POST', path: 'webhooks/:id/rotate_secret', access: 'write role=ADMIN_ORG' },
  { method: 'POST', path: 'webhooks/:id/test', access: 'write role=ADMIN_ORG' },
];

/** The URL a client calls: `/api/v1/...`, except the probes; `:id` becomes a random UUID. */
function urlOf(route: RouteDeclaration): string {
  const path = route.path.replace(/:[A-Za-z_]+/g, () => randomUUID());
  return path.startsWith('health/') ? `/${path}` : `/api/v1/${path}`;
}

const label = (route: RouteDeclaration) => `${route.method} ${route.path} (${route.access})`;
// PATCH is a synonym of PUT on every resource (contract section 1): the server adds it to each PUT route.
const patchSynonyms = DECLARED_ROUTES.filter((route) => route.method === 'PUT').map((route) => ({ ...route, method: 'PATCH' }));
const protectedRoutes = [...DECLARED_ROUTES, ...patchSynonyms].filter((route) => route.access !== 'public');
const publicRoutes = DECLARED_ROUTES.filter((route) => route.access === 'public');

describe('route declarations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  function send(route: RouteDeclaration, url: string) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const test = t.http[method](url);
    return ['POST', 'PUT', 'PATCH'].includes(route.method) ? test.send({}) : test;
  }

  it('lists every route with what it requires, exactly as declared here', () => {
    expect(t.app.get(RouteDeclarations).list()).toEqual(DECLARED_ROUTES);
  });

  it.each(protectedRoutes.map((route) => [label(route), route] as const))('refuses %s without credentials: 401', async (_name, route) => {
    for (const url of [urlOf(route), `${urlOf(route)}/`]) {
      const response = await send(route, url);
      expect(response.status, `${route.method} ${url}`).toBe(401);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body, `${route.method} ${url}`).toEqual({ status: 401, code: 'unauthorized', message: expect.any(String), errors: [] });
    }
  });

  it.each(publicRoutes.map((route) => [label(route), route] as const))('serves %s without credentials', async (_name, route) => {
    const response = await send(route, urlOf(route));
    expect(response.status).not.toBe(401);
    expect(response.status).not.toBe(403);
    expect(response.status).toBeLessThan(500);
    expect(response.body.code).not.toBe('route_not_found');
  });
});
