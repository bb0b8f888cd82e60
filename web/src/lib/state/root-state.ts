import type { Dispatch, Store, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { baseApi } from '../api/base-api';
import type { HubState } from '../hub/hub-slice';
import type { NotificationsState } from '../hub/notifications-slice';
import type { AuthState } from './auth-slice';
import type { HeaderState } from './header-slice';
import type { SettingsState } from './settings-slice';
import type { UiState } from './ui-slice';
import type { UploadsState } from './uploads-slice';

/**
 * The store's shape, declared here so hooks, selectors and features type against it without importing the shell:
 * app/store.ts assembles the store (its createAppStore returns an AppStore, so a slice declared here and missing
 * there fails to compile).
 */
export interface RootState {
  auth: AuthState;
  header: HeaderState;
  settings: SettingsState;
  ui: UiState;
  uploads: UploadsState;
  hub: HubState;
  notifications: NotificationsState;
  [baseApi.reducerPath]: ReturnType<typeof baseApi.reducer>;
}

export type AppDispatch = ThunkDispatch<RootState, undefined, UnknownAction> & Dispatch<UnknownAction>;

export interface AppStore extends Store<RootState, UnknownAction> {
  dispatch: AppDispatch;
}
