import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Transient shell state: the online flag (spec section 4, follows browser events), the path to return to when
 * the connection is back, and which panels are open. Nothing here is persisted.
 */
export interface UiState {
  online: boolean;
  previousPath: string | null;
  customizerOpen: boolean;
  addDataOpen: boolean;
  /** The chat assistant's pop-up. */
  chatOpen: boolean;
  /** The small-screen navigation drawer. */
  navDrawerOpen: boolean;
  /** The desktop sidebar folded to its 4rem width. */
  sidebarCollapsed: boolean;
}

export const initialUiState = (online = true): UiState => ({
  online,
  previousPath: null,
  customizerOpen: false,
  addDataOpen: false,
  chatOpen: false,
  navDrawerOpen: false,
  sidebarCollapsed: false,
});

const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState(),
  reducers: {
    wentOffline(state, action: PayloadAction<string>) {
      state.online = false;
      // A repeated offline event (already on the no-internet page) keeps the first path to go back to.
      if (state.previousPath === null) state.previousPath = action.payload;
    },
    wentOnline(state) {
      state.online = true;
      state.previousPath = null;
    },
    customizerToggled(state, action: PayloadAction<boolean | undefined>) {
      state.customizerOpen = action.payload ?? !state.customizerOpen;
    },
    addDataToggled(state, action: PayloadAction<boolean | undefined>) {
      state.addDataOpen = action.payload ?? !state.addDataOpen;
    },
    chatToggled(state, action: PayloadAction<boolean | undefined>) {
      state.chatOpen = action.payload ?? !state.chatOpen;
    },
    navDrawerToggled(state, action: PayloadAction<boolean | undefined>) {
      state.navDrawerOpen = action.payload ?? !state.navDrawerOpen;
    },
    sidebarCollapseToggled(state) {
      state.sidebarCollapsed = !state.sidebarCollapsed;
    },
  },
});

export const { wentOffline, wentOnline, customizerToggled, addDataToggled, chatToggled, navDrawerToggled, sidebarCollapseToggled } =
  uiSlice.actions;
export const uiReducer = uiSlice.reducer;
