import { refreshAccessToken } from '../api/base-api';
import { createHubClient, type HubClient } from './hub-client';
import { HUB_TOKEN_MARGIN_MS } from './hub-constants';
import { hubEvents } from './hub-events';
import { feedNotifications } from './hub-notifications';
import { hubStatusChanged } from './hub-slice';
import { expiresWithin, tokenUserId } from './token';

/** The part of the store the hub session uses. */
export interface HubSessionStore {
  getState(): { auth: { accessToken: string | null } };
  dispatch(action: unknown): unknown;
}

/** The signed-in tab's one connection. */
let current: HubClient | null = null;

/**
 * Opens the tab's hub connection for the signed-in user and returns what ends it (sign-out). The token factory
 * reads the store on every (re)connect and refreshes a token about to expire, so a reconnect never presents a
 * stale one. Loaded on demand: the sign-in page never downloads the SignalR client.
 */
export function startHubSession(store: HubSessionStore): () => void {
  const client: HubClient = createHubClient({
    bus: hubEvents,
    async accessToken() {
      const token = store.getState().auth.accessToken;
      if (!token) throw new Error('Not signed in');
      return expiresWithin(token, HUB_TOKEN_MARGIN_MS) ? refreshAccessToken(store, token) : token;
    },
    onStatus(status, error) {
      // A connection being closed after the next one started (sign-out, then sign-in) must not report over it.
      if (current === client || current === null) store.dispatch(hubStatusChanged({ status, at: Date.now(), error }));
    },
  });
  current = client;
  const stopFeed = feedNotifications(hubEvents, (action) => store.dispatch(action), () => ({ userId: tokenUserId(store.getState().auth.accessToken) }));
  const onOnline = () => void client.reconnect();
  window.addEventListener('online', onOnline);
  void client.start();
  return () => {
    window.removeEventListener('online', onOnline);
    stopFeed();
    if (current === client) current = null;
    void client.stop();
  };
}

/** Connects again after the automatic reconnect gave up (the header's status tag). */
export function reconnectHub(): void {
  void current?.reconnect();
}
