import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AccessRequirement } from './decorators/access.decorator';
import { routeAccess } from './route-access';

export interface RouteDeclaration {
  method: string;
  /** Path relative to the controller prefix, e.g. `auth/apikeys/:id`. */
  path: string;
  /** `public`, or the scope followed by its extra conditions, e.g. `write role=ADMIN_ORG`. */
  access: string | null;
}

function describe(requirement: AccessRequirement | undefined, isPublic: boolean): string | null {
  if (isPublic) return 'public';
  if (!requirement) return null;
  return [
    requirement.scope,
    requirement.role ? `role=${requirement.role}` : '',
    requirement.userCredentials ? 'user-credentials' : '',
    requirement.tokenExchange ? 'token-exchange' : '',
    requirement.stream ? 'stream' : '',
    requirement.gatewayKey ? 'gateway-key' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const joinPath = (...parts: Array<string | string[] | undefined>): string =>
  parts
    .flatMap((part) => (Array.isArray(part) ? part[0] : part) ?? '')
    .join('/')
    .split('/')
    .filter(Boolean)
    .join('/');

/**
 * Lists every route with what it requires, and refuses to start when a route declares
 * neither `@Public()` nor `@Access(...)`: routes are closed by default, and undeclared ones
 * are a bug to catch before serving.
 */
@Injectable()
export class RouteDeclarations implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  list(): RouteDeclaration[] {
    return this.scan()
      .map(({ method, path, requirement, isPublic }) => ({ method, path, access: describe(requirement, isPublic) }))
      .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  }

  /**
   * What each route requires, keyed by `METHOD /prefix/path` as the router names it
   * (`PUT /api/v1/buildings/:id`); `null` for public routes. PUT routes answer PATCH too.
   */
  requirementsByRoute(prefix: string): Map<string, AccessRequirement | null> {
    const byRoute = new Map<string, AccessRequirement | null>();
    for (const { method, path, requirement, isPublic } of this.scan()) {
      const url = `/${joinPath(prefix, path)}`;
      const value = isPublic ? null : (requirement ?? null);
      byRoute.set(`${method} ${url}`, value);
      if (method === 'PUT') byRoute.set(`PATCH ${url}`, value);
    }
    return byRoute;
  }

  private scan(): Array<{ method: string; path: string; requirement: AccessRequirement | undefined; isPublic: boolean }> {
    const routes: Array<{ method: string; path: string; requirement: AccessRequirement | undefined; isPublic: boolean }> = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype;
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!controller || !instance) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (methodPath === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        routes.push({
          method,
          path: joinPath(Reflect.getMetadata(PATH_METADATA, controller) as string | undefined, methodPath),
          ...routeAccess(this.reflector, handler, controller),
        });
      }
    }
    return routes;
  }

  onApplicationBootstrap(): void {
    const undeclared = this.list().filter((route) => route.access === null);
    if (undeclared.length > 0) {
      throw new Error(`Routes without @Public() or @Access(): ${undeclared.map((route) => `${route.method} ${route.path}`).join(', ')}`);
    }
  }
}
