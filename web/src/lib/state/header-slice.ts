import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { WarehouseClientResponse } from '@bolx/contracts';
import { toApiError, type ApiError } from '../api/api-error';
import { sessionExpired } from '../api/session-events';
import { userModuleApi } from '../api/user-module-api';
import { ALL, parseWarehouseId, resolveCustomer } from './header-filters';
import { loggedOut, warehouseCleared, warehouseSelected } from './auth-slice';

/** Spec section 3, Header state. */
export interface HeaderState {
  /** The warehouses and customers of the header filters. */
  data: WarehouseClientResponse | null;
  loading: boolean;
  error: ApiError | null;
  warehouseSelectedIDs: number | null;
  /** 0 = ALL. */
  clientsSelectedIDs: number;
  customerName: string;
  /** Set once the header data is loaded; cleared when the default app changes so it is loaded again. */
  skipHeaderCall: boolean;
  /** Forgot flow: when the reset link expires (ms since epoch), and the server's non-zero "sent" marker (not an account id). */
  expiryTime: number | null;
  userId: number | null;
  resetLinkError: string | null;
  resetLinkMessage: string | null;
}

export function initialHeaderState(storedWarehouse: string | null = null): HeaderState {
  return {
    data: null,
    loading: false,
    error: null,
    warehouseSelectedIDs: parseWarehouseId(storedWarehouse),
    clientsSelectedIDs: ALL,
    customerName: '',
    skipHeaderCall: false,
    expiryTime: null,
    userId: null,
    resetLinkError: null,
    resetLinkMessage: null,
  };
}

/** Reset links are valid for an hour; the screen shows it and the state keeps it for the forgot flow. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

function reselectCustomer(state: HeaderState) {
  const next = resolveCustomer(state.data?.customerData ?? [], state.warehouseSelectedIDs, state.clientsSelectedIDs);
  state.clientsSelectedIDs = next.id;
  state.customerName = next.name;
}

/** RTK Query refetches a cached entry (tag invalidation, `refetch`) without a subscription of its own. */
const isRefresh = (arg: unknown) => (arg as { subscribe?: boolean } | undefined)?.subscribe === false;

const headerSlice = createSlice({
  name: 'header',
  initialState: initialHeaderState(),
  reducers: {
    customerSelected(state, action: PayloadAction<{ id: number; name: string }>) {
      state.clientsSelectedIDs = action.payload.id;
      state.customerName = action.payload.id === ALL ? '' : action.payload.name;
    },
    customerCleared(state) {
      state.clientsSelectedIDs = ALL;
      state.customerName = '';
    },
    headerCallRequested(state) {
      state.skipHeaderCall = false;
    },
    /** Forgot flow, spec section 4: userId 0 means not found — the error is set and the id cleared. */
    resetLinkSent(state, action: PayloadAction<{ userId: number; message: string; invalidMessage: string; now: number }>) {
      const { userId, message, invalidMessage, now } = action.payload;
      if (userId === 0) {
        state.resetLinkError = invalidMessage;
        state.resetLinkMessage = null;
        state.userId = null;
        state.expiryTime = null;
      } else {
        state.resetLinkError = null;
        state.resetLinkMessage = message;
        state.userId = userId;
        state.expiryTime = now + RESET_LINK_TTL_MS;
      }
    },
    resetLinkFailed(state, action: PayloadAction<string>) {
      state.resetLinkError = action.payload;
      state.resetLinkMessage = null;
      state.userId = null;
    },
    resetLinkCleared(state) {
      state.resetLinkError = null;
      state.resetLinkMessage = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(warehouseSelected, (state, { payload }) => {
        state.warehouseSelectedIDs = payload;
        reselectCustomer(state);
      })
      .addCase(warehouseCleared, (state) => {
        state.warehouseSelectedIDs = null;
        reselectCustomer(state);
      })
      .addCase(loggedOut, () => initialHeaderState())
      .addCase(sessionExpired, () => initialHeaderState())
      .addMatcher(userModuleApi.endpoints.getWarehouseClient.matchPending, (state, action) => {
        // Spec section 4, Server calls: on start loading is set and the error and previous result cleared.
        state.loading = true;
        state.error = null;
        // A background refresh of lists on screen (a live event, or a write that changed them: RTK refetches
        // without subscribing) keeps them until the answer comes, so the dropdowns never blank out.
        if (!(isRefresh(action.meta.arg) && state.data)) state.data = null;
      })
      .addMatcher(userModuleApi.endpoints.getWarehouseClient.matchFulfilled, (state, { payload }) => {
        state.loading = false;
        state.data = payload;
        state.skipHeaderCall = true;
        reselectCustomer(state);
      })
      .addMatcher(userModuleApi.endpoints.getWarehouseClient.matchRejected, (state, action) => {
        if (action.meta.condition) return;
        state.loading = false;
        state.data = null;
        state.error = toApiError(action.payload ?? action.error);
      })
      .addMatcher(userModuleApi.endpoints.setDefaultApp.matchFulfilled, (state) => {
        state.skipHeaderCall = false;
      });
  },
});

export const { customerSelected, customerCleared, headerCallRequested, resetLinkSent, resetLinkFailed, resetLinkCleared } =
  headerSlice.actions;
export const headerReducer = headerSlice.reducer;
