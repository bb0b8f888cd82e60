import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppStore } from '../lib/hooks';
import { wentOffline, wentOnline } from '../lib/state/ui-slice';
import { NO_INTERNET_PATH } from './router/routes';

/**
 * Spec section 2 and 4: the online flag follows browser events; going offline saves the current path as
 * previousPath and shows the no-internet page; coming back online returns to previousPath.
 */
export function ConnectivityWatcher() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const store = useAppStore();
  const here = useRef('');
  here.current = location.pathname + location.search;

  useEffect(() => {
    const onOffline = () => {
      if (here.current !== NO_INTERNET_PATH) dispatch(wentOffline(here.current));
      navigate(NO_INTERNET_PATH);
    };
    const onOnline = () => {
      // Read from the store, not from a render: the online event can arrive before the offline one re-rendered.
      const to = store.getState().ui.previousPath;
      dispatch(wentOnline());
      if (to) navigate(to, { replace: true });
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    if (!navigator.onLine) onOffline();
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    };
  }, [dispatch, navigate, store]);

  return null;
}
