/**
 * Real-time hub constants (spec section 9; DESIGN.md, Real-time). Long-poll timeout, negotiation redirect limit
 * and the stateful-reconnect buffer do not apply: the client skips negotiation and uses WebSockets only.
 */
export const HUB_URL = '/hubs/wms';
/** Automatic reconnect delays, then stop. */
export const HUB_RECONNECT_DELAYS_MS: readonly number[] = [0, 2000, 10000, 30000];
/** The client drops a server that has sent nothing (not even a ping) for this long. */
export const HUB_SERVER_TIMEOUT_MS = 30_000;
/** The client pings the server this often. */
export const HUB_KEEP_ALIVE_MS = 15_000;
/** Several events in a burst (an import, a bulk edit) cost one reload. */
export const LIVE_RELOAD_DEBOUNCE_MS = 250;
/** A token expiring within this margin is refreshed before it is handed to the hub. */
export const HUB_TOKEN_MARGIN_MS = 30_000;
