import { describe, expect, it } from 'vitest';
import { RouteMethods, routePatternToRegExp } from './method-not-allowed';

describe('routePatternToRegExp', () => {
  it('matches concrete paths of a route pattern, with or without a trailing slash, and nothing longer', () => {
    const pattern = routePatternToRegExp('/api/v1/buildings/:id/paths');
    expect(pattern.test('/api/v1/buildings/12/paths')).toBe(true);
    expect(pattern.test('/api/v1/buildings/12/paths/')).toBe(true);
    expect(pattern.test('/api/v1/buildings/12/paths/x')).toBe(false);
    expect(pattern.test('/api/v1/buildings/paths')).toBe(false);
  });

  it('treats dots and other regular-expression characters literally', () => {
    expect(routePatternToRegExp('/api/docs.json').test('/api/docsXjson')).toBe(false);
  });
});

describe('RouteMethods', () => {
  const routes = new RouteMethods();
  routes.add('/api/v1/buildings/:id', ['GET', 'HEAD']);
  routes.add('/api/v1/buildings/:id', 'PUT');
  routes.add('/api/v1/buildings/:id', 'PATCH');
  routes.add('/api/v1/buildings/:id', 'DELETE');
  routes.add('/api/v1/geofences/search', 'GET');
  routes.add('*', 'OPTIONS');

  it('lists every method served at a path, in a stable order, HEAD with GET', () => {
    expect(routes.allowedAt('/api/v1/buildings/7')).toEqual(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);
    expect(routes.allowedAt('/api/v1/geofences/search')).toEqual(['GET', 'HEAD']);
  });

  it('knows nothing of a path no route serves; a catch-all route does not count', () => {
    expect(routes.allowedAt('/api/v1/nowhere')).toEqual([]);
  });
});
