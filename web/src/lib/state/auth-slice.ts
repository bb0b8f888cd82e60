import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LoginResponse } from '@bolx/contracts';
import { toApiError, type ApiError } from '../api/api-error';
import { sessionExpired, sessionRefreshed } from '../api/session-events';
import { sessionApi } from '../api/session-api';
import type { StoredSession } from '../session-storage';

/** Spec section 3, Auth state (field names as the spec spells them). */
export interface AuthState {
  isAuthentication: boolean;
  loading: boolean;
  error: ApiError | null;
  data: LoginResponse | null;
  username: string | null;
  usertype: string | null;
  accessToken: string | null;
  refreshtoken: string | null;
  rememberMe: boolean;
  /** The warehouse id as stored ('0' = all warehouses); null until one is chosen. */
  selectedWarehouse: string | null;
  /** The selected app's name; null sends the user to ServiceSelection. */
  selectedServiceManagement: string | null;
}

/** The user counts as authenticated at start when an auth token is stored. */
export function initialAuthState(stored: StoredSession, rememberMe = false): AuthState {
  return {
    isAuthentication: Boolean(stored.authtoken),
    loading: false,
    error: null,
    data: null,
    username: stored.username,
    usertype: stored.usertype,
    accessToken: stored.authtoken,
    refreshtoken: stored.refreshtoken,
    rememberMe,
    selectedWarehouse: stored.authtoken ? stored.selectedWarehouse : null,
    selectedServiceManagement: stored.authtoken ? stored.selectedServiceManagement : null,
  };
}

const signedOut = (state: AuthState): AuthState => ({
  ...initialAuthState(
    { authtoken: null, refreshtoken: null, username: null, usertype: null, selectedWarehouse: null, selectedServiceManagement: null },
    state.rememberMe,
  ),
});

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState({
    authtoken: null, refreshtoken: null, username: null, usertype: null, selectedWarehouse: null, selectedServiceManagement: null,
  }),
  reducers: {
    loggedOut: (state) => signedOut(state),
    warehouseSelected(state, action: PayloadAction<number>) {
      state.selectedWarehouse = String(action.payload);
    },
    /** The selected warehouse is no longer one of the user's: the landing rules choose again. */
    warehouseCleared(state) {
      state.selectedWarehouse = null;
    },
    serviceSelected(state, action: PayloadAction<string | null>) {
      state.selectedServiceManagement = action.payload;
    },
    loginErrorCleared(state) {
      state.error = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionRefreshed, (state, { payload }) => {
        state.accessToken = payload.accessToken;
        state.refreshtoken = payload.refreshToken;
      })
      .addCase(sessionExpired, (state) => signedOut(state))
      .addMatcher(sessionApi.endpoints.login.matchPending, (state, action) => {
        state.loading = true;
        state.error = null;
        state.data = null;
        state.rememberMe = Boolean(action.meta.arg.originalArgs.rememberMe);
      })
      .addMatcher(sessionApi.endpoints.login.matchFulfilled, (state, { payload }) => {
        state.loading = false;
        state.isAuthentication = true;
        state.data = payload;
        state.accessToken = payload.accesstoken;
        state.refreshtoken = payload.refreshtoken;
        state.username = payload.username;
        state.usertype = payload.usertype;
        state.selectedServiceManagement = payload.appName;
        state.selectedWarehouse = null;
      })
      .addMatcher(sessionApi.endpoints.login.matchRejected, (state, action) => {
        // A second sign-in started meanwhile owns the state; an aborted duplicate changes nothing.
        if (action.meta.condition) return;
        state.loading = false;
        state.isAuthentication = false;
        state.data = null;
        state.error = toApiError(action.payload ?? action.error);
      });
  },
});

export const { loggedOut, warehouseSelected, warehouseCleared, serviceSelected, loginErrorCleared } = authSlice.actions;
export const authReducer = authSlice.reducer;
