import { useCallback, useRef } from 'react';
import { actionKeyFor, type ActionKey } from '../inbound-model';

/**
 * One Idempotency-Key per user action for a stock-moving call: `begin(body)` gives the key (the same one when the
 * same body is sent again before any answer came), `settle(answered)` forgets the action once the server answered.
 */
export function useActionKey() {
  const pending = useRef<ActionKey | null>(null);
  const begin = useCallback((body: unknown) => {
    pending.current = actionKeyFor(pending.current, JSON.stringify(body));
    return pending.current.key;
  }, []);
  const settle = useCallback((answered: boolean) => {
    if (answered) pending.current = null;
  }, []);
  return { begin, settle };
}
