import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAppStore } from './app/store';
import { PRELOAD_ERROR_EVENT } from './app/router/lazy-screen';
import './styles/global.css';

/**
 * A chunk that fails to load after a new deploy is stale: reload once to get the new files. A second failure in
 * the same tab is left to the error boundary, so a real outage cannot cause a reload loop.
 */
const RELOADED_FLAG = 'bolx.reloadedAfterPreloadError';
let reloadWhenOnline = false;
window.addEventListener(PRELOAD_ERROR_EVENT, (event) => {
  // Offline: the no-internet page is showing; load the screen again once the connection is back.
  if (!navigator.onLine) {
    event.preventDefault();
    if (!reloadWhenOnline) {
      reloadWhenOnline = true;
      window.addEventListener('online', () => window.location.reload(), { once: true });
    }
    return;
  }
  if (sessionStorage.getItem(RELOADED_FLAG)) return;
  sessionStorage.setItem(RELOADED_FLAG, '1');
  event.preventDefault();
  window.location.reload();
});
window.addEventListener('load', () => setTimeout(() => sessionStorage.removeItem(RELOADED_FLAG), 10_000));

const store = createAppStore();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
