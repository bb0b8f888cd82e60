/**
 * The browser storage of a signed-in session (spec section 3, browser storage keys). Everything the session
 * keeps goes through here, so logout can clear exactly these keys and nothing is spelled twice.
 */
export const STORAGE_KEYS = {
  authtoken: 'authtoken',
  refreshtoken: 'refreshtoken',
  username: 'username',
  usertype: 'usertype',
  selectedWarehouse: 'selectedWarehouse',
  selectedServiceManagement: 'selectedServiceManagement',
} as const;
export type StorageKey = keyof typeof STORAGE_KEYS;

/** The subset of the Web Storage API we use; tests pass an in-memory one. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const memory = new Map<string, string>();
const memoryStore: KeyValueStore = {
  getItem: (k) => memory.get(k) ?? null,
  setItem: (k, v) => void memory.set(k, v),
  removeItem: (k) => void memory.delete(k),
};

export function browserStore(): KeyValueStore {
  return typeof localStorage === 'undefined' ? memoryStore : localStorage;
}

export interface StoredSession {
  authtoken: string | null;
  refreshtoken: string | null;
  username: string | null;
  usertype: string | null;
  selectedWarehouse: string | null;
  selectedServiceManagement: string | null;
}

export function readSession(store: KeyValueStore = browserStore()): StoredSession {
  const get = (k: StorageKey) => store.getItem(STORAGE_KEYS[k]);
  return {
    authtoken: get('authtoken'),
    refreshtoken: get('refreshtoken'),
    username: get('username'),
    usertype: get('usertype'),
    selectedWarehouse: get('selectedWarehouse'),
    selectedServiceManagement: get('selectedServiceManagement'),
  };
}

/** Writes the given values; null removes the key. */
export function writeSession(values: Partial<StoredSession>, store: KeyValueStore = browserStore()): void {
  for (const [key, value] of Object.entries(values) as [StorageKey, string | null | undefined][]) {
    if (value === undefined) continue;
    if (value === null) store.removeItem(STORAGE_KEYS[key]);
    else store.setItem(STORAGE_KEYS[key], value);
  }
}

export function clearSession(store: KeyValueStore = browserStore()): void {
  for (const key of Object.values(STORAGE_KEYS)) store.removeItem(key);
}
