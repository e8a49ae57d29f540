import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/errors/api-error';
import { ACCESS_KEY, AccessRequirement } from '../decorators/access.decorator';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator';
import { checkAccess } from '../access-policy';
import { Principal } from '../principal';

/** The global permission guard: the one place that decides whether a caller may use a route. */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    const requirement = this.reflector.getAllAndOverride<AccessRequirement | undefined>(ACCESS_KEY, targets);
    const principal = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>().user;
    if (!principal) throw ApiError.unauthorized();
    if (!requirement) throw ApiError.forbidden('This route declares no access requirement');
    const denial = checkAccess(principal, requirement);
    if (denial) throw ApiError.forbidden(denial);
    return true;
  }
}
