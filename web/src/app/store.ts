import { configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { baseApi } from '../lib/api/base-api';
import { sessionApi } from '../lib/api/session-api';
import { sessionExpired } from '../lib/api/session-events';
import { applyRememberMe, getCookie, REMEMBER_COOKIE } from '../lib/cookies';
import { browserStore, readSession, writeSession, type KeyValueStore } from '../lib/session-storage';
import { authReducer, initialAuthState, loggedOut, type AuthState } from '../lib/state/auth-slice';
import { headerReducer, initialHeaderState } from '../lib/state/header-slice';
import { loadSettings, saveSettings, settingsReducer } from '../lib/state/settings-slice';
import { initialUiState, uiReducer } from '../lib/state/ui-slice';
import { uploadsReducer } from '../lib/state/uploads-slice';
import { hubReducer } from '../lib/hub/hub-slice';
import { notificationsReducer } from '../lib/hub/notifications-slice';
import type { AppStore } from '../lib/state/root-state';

/**
 * Side effects of session changes, kept out of the reducers: cookies on sign-in, and dropping every cached
 * answer on sign-out so the next user never sees the previous one's data.
 */
const listener = createListenerMiddleware();
listener.startListening({
  matcher: sessionApi.endpoints.login.matchFulfilled,
  effect: (action) => {
    applyRememberMe(Boolean(action.meta.arg.originalArgs.rememberMe), action.payload.username);
  },
});
listener.startListening({
  matcher: isAnyOf(loggedOut, sessionExpired),
  effect: (_action, api) => {
    api.dispatch(baseApi.util.resetApiState());
  },
});

/** Mirrors the auth state into the spec's storage keys; a null value removes its key (that is how logout clears). */
function persistAuth(auth: AuthState, store: KeyValueStore) {
  writeSession(
    {
      authtoken: auth.accessToken,
      refreshtoken: auth.refreshtoken,
      username: auth.username,
      usertype: auth.usertype,
      selectedWarehouse: auth.selectedWarehouse,
      selectedServiceManagement: auth.selectedServiceManagement,
    },
    store,
  );
}

export function createAppStore(storage: KeyValueStore = browserStore()): AppStore {
  const stored = readSession(storage);
  const online = typeof navigator === 'undefined' ? true : navigator.onLine;
  const store = configureStore({
    reducer: {
      auth: authReducer,
      header: headerReducer,
      settings: settingsReducer,
      ui: uiReducer,
      uploads: uploadsReducer,
      hub: hubReducer,
      notifications: notificationsReducer,
      [baseApi.reducerPath]: baseApi.reducer,
    },
    preloadedState: {
      auth: initialAuthState(stored, getCookie(REMEMBER_COOKIE) === 'true'),
      header: initialHeaderState(stored.authtoken ? stored.selectedWarehouse : null),
      settings: loadSettings(storage),
      ui: initialUiState(online),
    },
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(baseApi.middleware),
  });

  let lastAuth = store.getState().auth;
  let lastSettings = store.getState().settings;
  store.subscribe(() => {
    const { auth, settings } = store.getState();
    if (auth !== lastAuth) {
      lastAuth = auth;
      persistAuth(auth, storage);
    }
    if (settings !== lastSettings) {
      lastSettings = settings;
      saveSettings(settings, storage);
    }
  });
  return store;
}

export type { AppDispatch, AppStore, RootState } from '../lib/state/root-state';
