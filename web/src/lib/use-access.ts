import type { AccessNeed } from '@bolx/contracts';
import { useAppSelector } from './hooks';
import { useGetUserModulesQuery } from './api/user-module-api';
import { accountOf, mayDo, type Account } from './access';

/** The signed-in account (role and held modules), or null while its modules load. */
export function useAccount(): Account | null {
  const usertype = useAppSelector((s) => s.auth.usertype);
  const { data } = useGetUserModulesQuery();
  return accountOf(usertype, data);
}

/** `may(need)`: whether the server would allow the action; false while the account loads. */
export function useMayAccess(): (need: AccessNeed) => boolean {
  const account = useAccount();
  return (need) => mayDo(account, need);
}
