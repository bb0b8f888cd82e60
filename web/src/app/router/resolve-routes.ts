import { DEFAULT_PERMITTED_ROLE, type ResolvedRoute, type RouteItem, type RouteTable } from './route-types';

/** A route's paths: `paths`, else `path`; none means the route is skipped. */
export function pathsOf(route: RouteItem<unknown>): string[] {
  if (route.paths?.length) return route.paths;
  return route.path ? [route.path] : [];
}

const visible = (route: RouteItem<unknown>) => route.showRouteIf !== false && pathsOf(route).length > 0;

/**
 * Spec section 4, Route resolution.
 * - Unauthenticated: the anonymous and unauthorised sets render; an authorised path redirects (replace) to the
 *   route's redirectPath or else its set's fallbackPath.
 * - Authenticated: all three sets are processed; an authorised route renders when the user's roles include its
 *   permittedRole (default 'user'), otherwise the Unauthorized screen shows. An anonymous route that names a
 *   redirectPath (the sign-in page) sends a signed-in user there.
 */
export function resolveRoutes<E>(
  table: RouteTable<E>,
  session: { isAuthenticated: boolean; roles: readonly string[] },
): ResolvedRoute<E>[] {
  const out: ResolvedRoute<E>[] = [];

  for (const route of table.anonymous.routes.filter(visible)) {
    for (const path of pathsOf(route)) {
      if (session.isAuthenticated && route.redirectPath) out.push({ kind: 'redirect', set: 'anonymous', path, to: route.redirectPath, replace: true });
      else out.push({ kind: 'element', set: 'anonymous', path, route });
    }
  }

  for (const route of table.authorised.routes.filter(visible)) {
    for (const path of pathsOf(route)) {
      if (!session.isAuthenticated) {
        out.push({ kind: 'redirect', set: 'authorised', path, to: route.redirectPath ?? table.authorised.fallbackPath, replace: true });
      } else if (session.roles.includes(route.permittedRole ?? DEFAULT_PERMITTED_ROLE)) {
        out.push({ kind: 'element', set: 'authorised', path, route });
      } else {
        out.push({ kind: 'forbidden', set: 'authorised', path, route });
      }
    }
  }

  for (const route of table.unauthorised.routes.filter(visible)) {
    for (const path of pathsOf(route)) out.push({ kind: 'element', set: 'unauthorised', path, route });
  }
  return out;
}

/** The route item whose path matches (case-insensitively, as the router does). */
export function findRoute<E>(table: RouteTable<E>, pathname: string): RouteItem<E> | undefined {
  const wanted = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  for (const set of [table.authorised, table.anonymous, table.unauthorised]) {
    const hit = set.routes.find((r) => pathsOf(r).some((p) => p.toLowerCase() === wanted));
    if (hit) return hit;
  }
  return undefined;
}
