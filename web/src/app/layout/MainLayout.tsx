import { Suspense, useCallback, useEffect, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Drawer } from 'antd';
import { FullPageSpinner } from '../../components/FullPageSpinner';
import { useGetUserModulesQuery } from '../../lib/api/user-module-api';
import { useMediaQuery } from '../../lib/use-media-query';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { BREAKPOINTS } from '../providers/ThemeProvider';
import { navDrawerToggled } from '../../lib/state/ui-slice';
import { CustomizerDrawer } from '../customizer/CustomizerDrawer';
import { AddDataDrawer } from './header/AddDataDrawer';
import { ChatLauncher } from './ChatLauncher';
import { AppHeader } from './header/AppHeader';
import { Sidebar } from './sidebar/Sidebar';
import { leafOfPath, toMenuNodes } from './sidebar/menu-model';
import { AppFooter } from './AppFooter';
import { ContentErrorBoundary } from './ContentErrorBoundary';
import { useLandingRedirect } from './use-landing-redirect';

/** Spec section 9: sidebar 17.5rem, collapsed 4rem, drawer 280px, below lg the sidebar is a drawer. */
export const SIDEBAR_WIDTH = '17.5rem';
export const SIDEBAR_COLLAPSED_WIDTH = '4rem';
export const NAV_DRAWER_WIDTH = 280;

/** The signed-in shell: fixed header, sidebar (drawer on small screens), content, fixed footer. */
export default function MainLayout() {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const desktop = useMediaQuery(`(min-width: ${BREAKPOINTS.lg}px)`);
  const wide = useMediaQuery(`(min-width: ${BREAKPOINTS.xl}px)`);
  const { navStyle, layout, showFooter, direction } = useAppSelector((s) => s.settings);
  const { navDrawerOpen, sidebarCollapsed } = useAppSelector((s) => s.ui);
  const { data: modules } = useGetUserModulesQuery();
  useLandingRedirect();

  // The drawer closes whenever the path changes.
  useEffect(() => {
    dispatch(navDrawerToggled(false));
  }, [dispatch, pathname]);

  const nodes = useMemo(() => toMenuNodes(modules?.modules ?? []), [modules]);
  const menuTitleOf = useCallback((path: string) => leafOfPath(nodes, path)?.label, [nodes]);

  // 'mini' starts folded; the header toggle flips whichever style is chosen.
  const collapsed = (navStyle === 'mini') !== sidebarCollapsed;
  const sidebarWidth = desktop ? (collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH) : '0px';

  return (
    <div
      className={`bolx-shell bolx-shell--${layout}${showFooter ? ' bolx-shell--with-footer' : ''}`}
      style={{ ['--bolx-sidebar-width' as string]: sidebarWidth }}
    >
      {desktop ? (
        <aside className="bolx-shell__sider">
          <Sidebar collapsed={collapsed} />
        </aside>
      ) : (
        <Drawer
          open={navDrawerOpen}
          placement={direction === 'rtl' ? 'right' : 'left'}
          width={NAV_DRAWER_WIDTH}
          closable={false}
          onClose={() => dispatch(navDrawerToggled(false))}
          styles={{ body: { padding: 0 } }}
          className="bolx-nav-drawer"
        >
          <Sidebar collapsed={false} />
        </Drawer>
      )}
      <AppHeader desktop={desktop} wide={wide} collapsed={collapsed} menuTitleOf={menuTitleOf} />
      <main className="bolx-shell__content">
        <div className="bolx-shell__inner">
          <ContentErrorBoundary key={pathname}>
            <Suspense fallback={<FullPageSpinner fill="content" />}>
              <Outlet />
            </Suspense>
          </ContentErrorBoundary>
        </div>
      </main>
      {showFooter && <AppFooter />}
      <CustomizerDrawer />
      <AddDataDrawer />
      <ChatLauncher />
    </div>
  );
}
