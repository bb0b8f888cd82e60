import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { sessionApi } from '../api/session-api';
import { useAppDispatch, useAppStore } from '../hooks';
import { loggedOut } from '../state/auth-slice';

/** How long sign-out waits for the server to revoke the session before clearing the browser anyway. */
const REVOKE_WAIT_MS = 3000;

/**
 * Logout (spec section 4): revoke the session on the server (its failure is ignored), clear every stored
 * session value, and go to the sign-in page.
 */
export function useLogout(): () => Promise<void> {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  return useCallback(async () => {
    const refreshToken = store.getState().auth.refreshtoken;
    if (refreshToken) {
      const revoke = dispatch(sessionApi.endpoints.logout.initiate({ refreshToken })).unwrap().catch(() => undefined);
      await Promise.race([revoke, new Promise((resolve) => setTimeout(resolve, REVOKE_WAIT_MS))]);
    }
    dispatch(loggedOut());
    navigate('/', { replace: true });
  }, [dispatch, store, navigate]);
}
