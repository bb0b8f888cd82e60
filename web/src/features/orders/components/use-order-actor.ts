import { STAFF_ROLES } from '@bolx/contracts';
import { useAccount, useMayAccess } from '../../../lib/use-access';
import type { OrderActor } from '../order-model';

const MODULE = 'OrderDashboard';

/** Who is acting on the Order Dashboard, as the order routes' policies see it. */
export function useOrderActor(): OrderActor {
  const may = useMayAccess();
  const account = useAccount();
  return {
    staff: may({ roles: STAFF_ROLES, module: { key: MODULE, permission: 'write' } }),
    canWrite: may({ module: { key: MODULE, permission: 'write' } }),
    isClient: account?.role === 'Client',
    buildsKits: may({ roles: STAFF_ROLES, module: { key: 'KitDashboard', permission: 'write' } }),
  };
}
