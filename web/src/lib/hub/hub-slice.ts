import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Spec section 4, Real-time connection states (the @microsoft/signalr HubConnectionState values). */
export const HUB_STATUSES = ['Disconnected', 'Connecting', 'Connected', 'Reconnecting', 'Disconnecting'] as const;
export type HubStatus = (typeof HUB_STATUSES)[number];

export interface HubState {
  status: HubStatus;
  /** When the status last changed (ms since epoch); null before the first connection. */
  since: number | null;
  /** The last connection failure, for the tooltip; failures are otherwise only logged (spec section 8). */
  lastError: string | null;
}

export const initialHubState = (): HubState => ({ status: 'Disconnected', since: null, lastError: null });

const hubSlice = createSlice({
  name: 'hub',
  initialState: initialHubState(),
  reducers: {
    hubStatusChanged(state, action: PayloadAction<{ status: HubStatus; at: number; error?: string | null }>) {
      const { status, at, error } = action.payload;
      if (state.status !== status) state.since = at;
      state.status = status;
      // A working connection forgets the last failure; a failure keeps its text until then.
      if (status === 'Connected') state.lastError = null;
      else if (error) state.lastError = error;
    },
    hubReset: () => initialHubState(),
  },
});

export const { hubStatusChanged, hubReset } = hubSlice.actions;
export const hubReducer = hubSlice.reducer;

export const selectHubStatus = (state: { hub: HubState }) => state.hub.status;
