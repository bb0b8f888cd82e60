import { Suspense, useMemo } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { FullPageSpinner } from '../../components/FullPageSpinner';
import { useAppSelector } from '../../lib/hooks';
import { selectIsAuthenticated, selectWebRoles } from '../../lib/state/selectors';
import { lazyScreen } from './lazy-screen';
import { resolveRoutes } from './resolve-routes';
import { NOT_FOUND_PATH, ROUTE_TABLE, SHOW_NOT_FOUND_PAGE } from './routes';
import { ScreenTitle } from './ScreenTitle';

// The layout shell is a chunk of its own, so the sign-in page never loads it.
const MainLayout = lazyScreen(() => import('../layout/MainLayout'));
const UnauthorizedPage = lazyScreen(() => import('../../features/errors/pages/UnauthorizedPage'));

/** Renders the route table for the current session (spec section 4, Route resolution). */
export function AppRoutes() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const roles = useAppSelector(selectWebRoles);
  const resolved = useMemo(() => resolveRoutes(ROUTE_TABLE, { isAuthenticated, roles }), [isAuthenticated, roles]);

  const inLayout = resolved.filter((r) => r.set === 'authorised' && r.kind !== 'redirect');
  const outside = resolved.filter((r) => !(r.set === 'authorised' && r.kind !== 'redirect'));

  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Routes>
        {outside.map((r) =>
          r.kind === 'redirect' ? (
            <Route key={r.path} path={r.path} element={<Navigate to={r.to} replace />} />
          ) : r.kind === 'element' ? (
            <Route key={r.path} path={r.path} element={<ScreenTitle titleId={r.route.titleId}>{r.route.element}</ScreenTitle>} />
          ) : null,
        )}
        {inLayout.length > 0 && (
          <Route element={<MainLayout />}>
            {inLayout.map((r) => (
              <Route
                key={r.path}
                path={r.path}
                element={
                  r.kind === 'element' ? (
                    <ScreenTitle titleId={r.route.titleId}>{r.route.element}</ScreenTitle>
                  ) : (
                    <UnauthorizedPage />
                  )
                }
              />
            ))}
          </Route>
        )}
        <Route path="*" element={<Navigate to={SHOW_NOT_FOUND_PAGE ? NOT_FOUND_PATH : '/'} replace />} />
      </Routes>
    </Suspense>
  );
}
