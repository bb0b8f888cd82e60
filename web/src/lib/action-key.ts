import { useCallback, useRef } from 'react';
import { toApiError } from './api/api-error';
import { runMutation } from './api/mutation-toast';

/**
 * Idempotency-Keys of user actions: a stock-moving or document-making call carries its action's key, so the same
 * action sent again (a double click or Enter, a retry after an answer that never came) takes effect once on the
 * server, which answers the repeat with the first answer.
 */

/** A fresh UUID (crypto.randomUUID is missing outside secure contexts, e.g. a LAN address over http). */
export function newActionKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The Idempotency-Key of one user action and the body it was made for. */
export interface ActionKey {
  key: string;
  body: string;
}

/**
 * The key for submitting `body`: the pending action's key when it is the same body again (a retry after no answer,
 * which the server then replays), else a fresh one. Once the server has answered, the caller forgets the action.
 */
export function actionKeyFor(pending: ActionKey | null, body: string): ActionKey {
  return pending && pending.body === body ? pending : { key: newActionKey(), body };
}

/**
 * The pending actions of a screen, by name (`move:12`, `confirm`): an action keeps its key while unanswered and
 * sent again with the same body; once the server answered (anything but no answer at all), the next is new.
 */
export class ActionKeys {
  private readonly pending = new Map<string, ActionKey>();

  keyFor(action: string, body: unknown): string {
    const next = actionKeyFor(this.pending.get(action) ?? null, JSON.stringify(body));
    this.pending.set(action, next);
    return next.key;
  }

  /** `answered`: false when no answer came (status 0: the network, a timeout), so a repeat may replay it. */
  settle(action: string, answered: boolean): void {
    if (answered) this.pending.delete(action);
  }
}

/** Whether a failed call was answered by the server: status 0 is no answer (the request may have taken effect). */
export const wasAnswered = (error: { status: number }) => error.status !== 0;

/** One action's key for a form or screen: `begin(body)` gives it, `settle(answered)` forgets it once answered. */
export function useActionKey() {
  const keys = useRef(new ActionKeys()).current;
  const begin = useCallback((body: unknown) => keys.keyFor('', body), [keys]);
  const settle = useCallback((answered: boolean) => keys.settle('', answered), [keys]);
  return { begin, settle };
}

type KeyedCall = <B, T>(action: string, body: B, call: (keyed: B & { idempotencyKey: string }) => { unwrap(): Promise<T> }) => Promise<T>;

/**
 * Sends a call as one user action: `body` with its action's key. The same action with the same body before an
 * answer (Enter twice, a retry after the network lost the answer) shares the key; the call's failure is thrown.
 */
export function useKeyedCall(): KeyedCall {
  const keys = useRef(new ActionKeys()).current;
  return useCallback<KeyedCall>(async (action, body, call) => {
    let answered = true;
    try {
      return await call({ ...body, idempotencyKey: keys.keyFor(action, body) }).unwrap();
    } catch (raw) {
      answered = wasAnswered(toApiError(raw));
      throw raw;
    } finally {
      keys.settle(action, answered);
    }
  }, [keys]);
}

/**
 * A mutation as one user action (useKeyedCall) through runMutation: its message toasted, a failure toasted and
 * answered as undefined.
 */
export function useKeyedAction() {
  const send = useKeyedCall();
  return useCallback(
    <B, T extends { message?: string }>(
      action: string,
      body: B,
      call: (keyed: B & { idempotencyKey: string }) => { unwrap(): Promise<T> },
      options?: Parameters<typeof runMutation>[1],
    ): Promise<T | undefined> => runMutation({ unwrap: () => send(action, body, call) }, options),
    [send],
  );
}
