import type { ReactNode } from 'react';
import { FullPageSpinner } from '../../components/FullPageSpinner';
import { useGetUserModulesQuery } from '../../lib/api/user-module-api';
import { findModule } from '../../lib/use-can-write';
import { lazyScreen } from './lazy-screen';

const UnauthorizedPage = lazyScreen(() => import('../../features/errors/pages/UnauthorizedPage'));

/**
 * Admin screens whose module the user does not hold show the Unauthorized screen instead of a list the server
 * would refuse (spec section 6: users are assigned modules; a Client account holds none of the admin ones).
 */
export function ModuleGate({ url, children }: { url: string; children: ReactNode }) {
  const { data, isLoading } = useGetUserModulesQuery();
  if (isLoading) return <FullPageSpinner fill="content" />;
  if (data?.appId != null && !findModule(data.modules, url)) return <UnauthorizedPage />;
  return <>{children}</>;
}
