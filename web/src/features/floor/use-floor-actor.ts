import type { Role } from '@bolx/contracts';
import { staffWrite } from '../../lib/access';
import { useAppSelector } from '../../lib/hooks';
import { useMayAccess } from '../../lib/use-access';
import type { FloorActor } from './floor-model';

/** Who directs the floor: assigning, taking back and cancelling work is a manager's call, not a picker's. */
export const SUPERVISOR_ROLES: readonly Role[] = ['SuperAdministrator', 'Administrator', 'WarehouseManager'];

/** Who is acting on a floor screen (module BatchJob or BatchAllocation), as the floor routes' policies see it. */
export function useFloorActor(moduleKey: 'BatchJob' | 'BatchAllocation' = 'BatchJob'): FloorActor {
  const may = useMayAccess();
  const userId = useAppSelector((s) => s.auth.data?.userid ?? null);
  return {
    staff: may(staffWrite(moduleKey)),
    supervisor: may({ roles: SUPERVISOR_ROLES, module: { key: moduleKey, permission: 'write' } }),
    userId,
  };
}
