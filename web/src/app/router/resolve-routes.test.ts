import { describe, expect, it } from 'vitest';
import { findRoute, pathsOf, resolveRoutes } from './resolve-routes';
import type { RouteTable } from './route-types';

const table: RouteTable<string> = {
  anonymous: {
    fallbackPath: '/',
    routes: [
      { id: 'signin', path: '/', element: 'SignIn', redirectPath: '/Dashboard' },
      { id: 'forgot', path: '/forget-password', element: 'Forgot' },
    ],
  },
  authorised: {
    fallbackPath: '/',
    routes: [
      { id: 'dash', path: '/Dashboard', element: 'Dashboard' },
      { id: 'admin', path: '/User', element: 'Users', permittedRole: 'admin', redirectPath: '/login-first' },
      { id: 'two', paths: ['/Returns', '/Return'], element: 'Returns' },
      { id: 'hidden', path: '/Hidden', element: 'Hidden', showRouteIf: false },
      { id: 'nopath', element: 'Nowhere' },
    ],
  },
  unauthorised: { fallbackPath: '/', routes: [{ id: '404', path: '/error-pages/error-404', element: 'NotFound' }] },
};

const byPath = (routes: ReturnType<typeof resolveRoutes<string>>) => Object.fromEntries(routes.map((r) => [r.path, r]));

describe('route resolution', () => {
  it('a route without a path is skipped, several paths give several entries', () => {
    expect(pathsOf({ id: 'x', element: null })).toEqual([]);
    const all = byPath(resolveRoutes(table, { isAuthenticated: true, roles: ['user'] }));
    expect(Object.keys(all)).not.toContain('/Hidden');
    expect(all['/Returns']).toMatchObject({ kind: 'element' });
    expect(all['/Return']).toMatchObject({ kind: 'element' });
    expect(Object.values(all).some((r) => 'route' in r && r.route.id === 'nopath')).toBe(false);
  });

  it('unauthenticated: anonymous and unauthorised routes render, authorised ones redirect with replace', () => {
    const r = byPath(resolveRoutes(table, { isAuthenticated: false, roles: [] }));
    expect(r['/']).toMatchObject({ kind: 'element' });
    expect(r['/error-pages/error-404']).toMatchObject({ kind: 'element' });
    expect(r['/Dashboard']).toEqual({ kind: 'redirect', set: 'authorised', path: '/Dashboard', to: '/', replace: true });
    expect(r['/User']).toMatchObject({ kind: 'redirect', to: '/login-first', replace: true });
  });

  it('authenticated: the permitted role renders, another role gets the Unauthorized screen', () => {
    const user = byPath(resolveRoutes(table, { isAuthenticated: true, roles: ['user'] }));
    expect(user['/Dashboard']).toMatchObject({ kind: 'element' });
    expect(user['/User']).toMatchObject({ kind: 'forbidden' });
    const admin = byPath(resolveRoutes(table, { isAuthenticated: true, roles: ['user', 'admin'] }));
    expect(admin['/User']).toMatchObject({ kind: 'element' });
  });

  it('authenticated: all three sets are processed; the sign-in page sends a signed-in user on', () => {
    const r = byPath(resolveRoutes(table, { isAuthenticated: true, roles: ['user'] }));
    expect(r['/']).toMatchObject({ kind: 'redirect', to: '/Dashboard' });
    expect(r['/forget-password']).toMatchObject({ kind: 'element' });
    expect(r['/error-pages/error-404']).toMatchObject({ kind: 'element' });
  });

  it('finds a route case-insensitively', () => {
    expect(findRoute(table, '/dashboard')?.id).toBe('dash');
    expect(findRoute(table, '/RETURN/')?.id).toBe('two');
    expect(findRoute(table, '/nothing')).toBeUndefined();
  });
});
