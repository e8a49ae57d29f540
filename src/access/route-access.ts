import { Reflector } from '@nestjs/core';
import { ACCESS_KEY, AccessRequirement } from './decorators/access.decorator';
import { IS_PUBLIC_KEY } from './decorators/public.decorator';

/** What a route declares: `@Public()`, or what `@Access(...)` requires. */
export interface RouteAccess {
  isPublic: boolean;
  requirement: AccessRequirement | undefined;
}

/** Per handler, then per controller class (a handler inherited by two controllers may differ). */
/** A route handler or its controller class: what Nest reads decorator metadata from. */
type Handler = Parameters<Reflector['get']>[1];
type ControllerClass = Handler;

const declared = new WeakMap<Handler, WeakMap<ControllerClass, RouteAccess>>();

/**
 * The route's declaration, read from its decorators' metadata once per handler: the guards ask
 * on every request, and each metadata miss walks the prototype chains of the handler and its
 * class (docs/decisions.md, "Measurements behind the code"). Decorators are applied at class definition, so the answer
 * never changes afterwards.
 */
export function routeAccess(reflector: Reflector, handler: Handler, controller: ControllerClass): RouteAccess {
  let byClass = declared.get(handler);
  if (!byClass) declared.set(handler, (byClass = new WeakMap()));
  let access = byClass.get(controller);
  if (!access) {
    const targets = [handler, controller];
    access = {
      isPublic: reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets) === true,
      requirement: reflector.getAllAndOverride<AccessRequirement | undefined>(ACCESS_KEY, targets),
    };
    byClass.set(controller, access);
  }
  return access;
}
