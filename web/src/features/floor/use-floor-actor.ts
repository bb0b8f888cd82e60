import { staffWrite } from '../../lib/access';
import { useAppSelector } from '../../lib/hooks';
import { userIdOfToken } from '../../lib/identity';
import { useMayAccess } from '../../lib/use-access';
import type { FloorActor } from './floor-model';

/**
 * Who is acting on /BatchJob, as the floor routes' policies see it: picking (staff), assigning, cancelling,
 * packing and shipping all need write on Batch Job; read only lists waves and jobs.
 */
export function useFloorActor(): FloorActor {
  const may = useMayAccess();
  // The login answer is gone after a reload; the access token still names the user.
  const userId = useAppSelector((s) => s.auth.data?.userid ?? userIdOfToken(s.auth.accessToken));
  return { pick: may(staffWrite('BatchJob')), write: may(staffWrite('BatchJob')), userId };
}

/** Whether the user may allocate, release and keep rules on /BatchAllocation (staff with write on it). */
export function useMayAllocate(): boolean {
  return useMayAccess()(staffWrite('BatchAllocation'));
}
