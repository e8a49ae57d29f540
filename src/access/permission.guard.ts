import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error';
import { checkAccess } from './access-policy';
import { Principal } from './principal';
import { routeAccess } from './route-access';

/** The global permission guard: the one place that decides whether a caller may use a route. */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const { isPublic, requirement } = routeAccess(this.reflector, context.getHandler(), context.getClass());
    if (isPublic) return true;
    const principal = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>().user;
    if (!principal) throw ApiError.unauthorized();
    if (!requirement) throw ApiError.forbidden('This route declares no access requirement');
    const denial = checkAccess(principal, requirement);
    if (denial) throw ApiError.forbidden(denial);
    return true;
  }
}
