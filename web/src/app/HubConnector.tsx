import { useEffect } from 'react';
import { hubReset } from '../lib/hub/hub-slice';
import { notificationsCleared } from '../lib/hub/notifications-slice';
import { useAppSelector, useAppStore } from '../lib/hooks';

/**
 * One real-time hub connection per signed-in tab: opened on sign-in (or at start with a stored session), closed
 * on logout or when the session ends, and the connection state and recent events forgotten with it.
 */
export function HubConnector() {
  const store = useAppStore();
  const signedIn = useAppSelector((s) => s.auth.isAuthentication && Boolean(s.auth.accessToken));

  useEffect(() => {
    if (!signedIn) return;
    let cancelled = false;
    let stop: (() => void) | null = null;
    import('../lib/hub/hub-session')
      .then(({ startHubSession }) => {
        if (!cancelled) stop = startHubSession(store);
      })
      .catch((error: unknown) => console.warn('[hub] the real-time client did not load', error));
    return () => {
      cancelled = true;
      stop?.();
      store.dispatch(notificationsCleared());
      store.dispatch(hubReset());
    };
  }, [signedIn, store]);

  return null;
}
