import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';

const ToastHost = lazy(() => import('./ToastHost'));

/**
 * Mounts the toast container on the first screen that can toast — every screen but sign-in, which shows its
 * errors inline — so react-toastify stays out of the sign-in route. Once mounted it stays.
 */
export function LazyToastHost() {
  const { pathname } = useLocation();
  const [needed, setNeeded] = useState(false);
  if (!needed && pathname !== '/') setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}
