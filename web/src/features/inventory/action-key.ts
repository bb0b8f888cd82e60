import { useCallback, useRef } from 'react';
import { runMutation } from '../../lib/api/mutation-toast';

/** A fresh UUID (crypto.randomUUID is missing outside secure contexts, e.g. a LAN address over http). */
export function newActionKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Idempotency keys per user action: the same action on the same target (a double click, a retry after a lost
 * answer) reuses its key, so the server posts it once; `done` forgets it after an answer so the next action is new.
 */
export class ActionKeys {
  private readonly keys = new Map<string, string>();
  keyFor(action: string): string {
    let key = this.keys.get(action);
    if (!key) {
      key = newActionKey();
      this.keys.set(action, key);
    }
    return key;
  }
  done(action: string): void {
    this.keys.delete(action);
  }
}

/**
 * Runs a stock-changing mutation as one user action through runMutation: concurrent repeats of the same action
 * (a double click) share one Idempotency-Key; once answered, the next action gets a new key.
 */
export function useStockAction() {
  const keys = useRef(new ActionKeys()).current;
  return useCallback(
    async <T extends { message?: string }>(
      action: string,
      call: (idempotencyKey: string) => { unwrap(): Promise<T> },
      options?: Parameters<typeof runMutation>[1],
    ): Promise<T | undefined> => {
      try {
        return await runMutation(call(keys.keyFor(action)), options);
      } finally {
        keys.done(action);
      }
    },
    [keys],
  );
}
