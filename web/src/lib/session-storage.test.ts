import { describe, expect, it } from 'vitest';
import { clearSession, readSession, STORAGE_KEYS, writeSession } from './session-storage';

const memory = () => {
  const m = new Map<string, string>();
  return { m, store: { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) } };
};

describe('session storage', () => {
  it("uses the spec's keys", () => {
    expect(Object.values(STORAGE_KEYS)).toEqual(['authtoken', 'refreshtoken', 'username', 'usertype', 'selectedWarehouse', 'selectedServiceManagement']);
  });
  it('writes, removes on null, and clears every key', () => {
    const { m, store } = memory();
    writeSession({ authtoken: 'a', refreshtoken: 'r', selectedWarehouse: '0' }, store);
    expect(readSession(store)).toMatchObject({ authtoken: 'a', refreshtoken: 'r', selectedWarehouse: '0', username: null });
    writeSession({ selectedWarehouse: null }, store);
    expect(m.has('selectedWarehouse')).toBe(false);
    m.set('unrelated', 'kept');
    clearSession(store);
    expect([...m.keys()]).toEqual(['unrelated']);
  });
});
