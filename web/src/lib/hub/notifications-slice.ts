import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import type { HubEventName } from '@bolx/contracts';

/** How many recent events the notifications dropdown keeps. */
export const NOTIFICATIONS_LIMIT = 20;

/** One recent hub event, as the notifications dropdown lists it. */
export interface HubNotification {
  id: string;
  target: HubEventName;
  subEvent: string;
  /** The record's name (warehouse, user, SKU code…), when the event carries one. */
  name: string | null;
  /** The screen that lists the record. */
  path: string | null;
  at: number;
  read: boolean;
}

export interface NotificationsState {
  /** Newest first, at most NOTIFICATIONS_LIMIT. */
  items: HubNotification[];
}

export const initialNotificationsState = (): NotificationsState => ({ items: [] });

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: initialNotificationsState(),
  reducers: {
    notificationReceived: {
      reducer(state, action: PayloadAction<HubNotification>) {
        state.items.unshift(action.payload);
        if (state.items.length > NOTIFICATIONS_LIMIT) state.items.length = NOTIFICATIONS_LIMIT;
      },
      prepare(entry: Omit<HubNotification, 'id' | 'at' | 'read'> & { at?: number }) {
        return { payload: { ...entry, id: nanoid(), at: entry.at ?? Date.now(), read: false } };
      },
    },
    notificationRead(state, action: PayloadAction<string>) {
      const item = state.items.find((n) => n.id === action.payload);
      if (item) item.read = true;
    },
    allNotificationsRead(state) {
      for (const item of state.items) item.read = true;
    },
    notificationsCleared: () => initialNotificationsState(),
  },
});

export const { notificationReceived, notificationRead, allNotificationsRead, notificationsCleared } = notificationsSlice.actions;
export const notificationsReducer = notificationsSlice.reducer;

export const selectNotifications = (state: { notifications: NotificationsState }) => state.notifications.items;
export const selectUnreadCount = (state: { notifications: NotificationsState }) =>
  state.notifications.items.reduce((n, item) => (item.read ? n : n + 1), 0);
