import { useEffect, type ReactNode } from 'react';
import { FullPageSpinner } from '../../components/FullPageSpinner';
import { screenAccess } from '../../lib/access';
import { useGetAllUserAppsQuery, useGetUserModulesQuery } from '../../lib/api/user-module-api';
import { useAccount } from '../../lib/use-access';
import { lazyScreen, preloadScreen } from './lazy-screen';

const UnauthorizedPage = lazyScreen(() => import('../../features/errors/pages/UnauthorizedPage'));
const OtherServicePage = lazyScreen(() => import('../../features/errors/pages/OtherServicePage'));

/**
 * Every app screen passes through here (routes.tsx): a module's screen shows only to an account that holds the
 * module in the chosen service, decided from the catalogue by the rule the server's policies use (lib/access), so
 * no one gets a screen the server would refuse. A screen of another of the user's services offers the switch.
 */
export function ModuleGate({ path, children }: { path: string; children: ReactNode }) {
  const { data: modules, isError: modulesFailed } = useGetUserModulesQuery();
  const { data: apps, isError: appsFailed } = useGetAllUserAppsQuery();
  const account = useAccount();
  // The screen's code loads while its access is decided, so the gate adds no wait before it.
  useEffect(() => preloadScreen(children), [children]);
  // Unable to tell (the user's modules did not load): the screen shows, and the server still decides its calls.
  if (modulesFailed) return <>{children}</>;
  if (!modules || !account) return <FullPageSpinner fill="content" />;
  const access = screenAccess(path, modules.appId, account, apps?.map((a) => a.appId) ?? (appsFailed ? [] : null));
  if (access.kind === 'pending') return <FullPageSpinner fill="content" />;
  if (access.kind === 'forbidden') return <UnauthorizedPage />;
  if (access.kind === 'otherService') return <OtherServicePage appId={access.appId} appName={access.appName} currentAppName={modules.appName} />;
  return <>{children}</>;
}
