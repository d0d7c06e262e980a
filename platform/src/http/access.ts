import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type Role, roles } from '@portal/contracts/accounts/roles';
import { forbidden, unauthenticated } from '../domain/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: signed-in holders of these roles (every role when absent). */
    roles?: readonly Role[];
  }
}

/**
 * Lets through only a verified session holding one of the route's roles (`config.roles`, every
 * role by default). It runs on request, before the body is read, so a stranger learns nothing
 * from validation errors and makes the server parse nothing.
 */
async function signedInOnly(request: FastifyRequest): Promise<void> {
  if (!request.session) throw unauthenticated('auth.required');
  const allowed = request.routeOptions.config.roles ?? roles;
  if (!allowed.includes(request.session.role)) throw forbidden('auth.roleRefused');
}

/**
 * Safe by default (fastify/demo's autohooks): an API mounts its routes in two scopes only, the one
 * explicitly public scope and the signed-in scope, where every route needs a session and may
 * narrow it with `config.roles`. A route registered anywhere else stops the service at start.
 */
export async function mountRoutes(
  app: FastifyInstance,
  scopes: { publicRoutes: FastifyPluginAsync; signedInRoutes: FastifyPluginAsync },
): Promise<void> {
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    if (!this.hasDecorator('routeAccess')) {
      throw new Error(
        `${route.method} ${route.url} is outside the public and signed-in scopes: mount it in one (platform/src/http/access.ts).`,
      );
    }
  });
  await app.register(async (scope) => {
    scope.decorate('routeAccess', 'public');
    await scope.register(scopes.publicRoutes);
  });
  await app.register(async (scope) => {
    scope.decorate('routeAccess', 'signedIn');
    scope.addHook('onRequest', signedInOnly);
    await scope.register(scopes.signedInRoutes);
  });
}
