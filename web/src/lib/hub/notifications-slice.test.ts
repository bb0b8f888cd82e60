import { describe, expect, it } from 'vitest';
import {
  allNotificationsRead, initialNotificationsState, notificationRead, notificationReceived, notificationsCleared,
  notificationsReducer, NOTIFICATIONS_LIMIT, selectNotifications, selectUnreadCount,
} from './notifications-slice';

const received = (name: string, at: number) =>
  notificationReceived({ target: 'ReceiveWareHousedata', subEvent: 'AddWarehouse', name, path: '/Warehouse', at });

describe('notifications slice', () => {
  it('keeps events newest first, unread, with a count', () => {
    let state = notificationsReducer(initialNotificationsState(), received('Oslo', 1));
    state = notificationsReducer(state, received('Bergen', 2));
    const view = { notifications: state };
    expect(selectNotifications(view).map((n) => n.name)).toEqual(['Bergen', 'Oslo']);
    expect(selectUnreadCount(view)).toBe(2);
    expect(new Set(state.items.map((n) => n.id)).size).toBe(2);
  });

  it(`keeps only the ${NOTIFICATIONS_LIMIT} most recent`, () => {
    let state = initialNotificationsState();
    for (let i = 0; i < NOTIFICATIONS_LIMIT + 5; i++) state = notificationsReducer(state, received(`w${i}`, i));
    expect(state.items).toHaveLength(NOTIFICATIONS_LIMIT);
    expect(state.items[0].name).toBe(`w${NOTIFICATIONS_LIMIT + 4}`);
  });

  it('marks one or all as read, and clears on sign-out', () => {
    let state = notificationsReducer(initialNotificationsState(), received('a', 1));
    state = notificationsReducer(state, received('b', 2));
    state = notificationsReducer(state, notificationRead(state.items[0].id));
    expect(selectUnreadCount({ notifications: state })).toBe(1);
    state = notificationsReducer(state, allNotificationsRead());
    expect(selectUnreadCount({ notifications: state })).toBe(0);
    expect(notificationsReducer(state, notificationsCleared()).items).toEqual([]);
  });
});
