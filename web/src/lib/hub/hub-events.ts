import type { HubEventMap, HubEventName } from '@bolx/contracts';

export type HubHandler<K extends HubEventName> = (arg: HubEventMap[K]) => void;

/**
 * The tab's hub events, apart from the connection: lists and the notifications feed subscribe here whether or
 * not a connection is open, and the connection forwards what the server sends. Subscriptions outlive
 * reconnects; `resync` tells subscribers that events may have been missed (the connection was down).
 */
export interface HubEventBus {
  on<K extends HubEventName>(name: K, handler: HubHandler<K>): () => void;
  emit(name: HubEventName, arg: unknown): void;
  /** The event names with a subscriber; the connection registers a hub method for each. */
  names(): HubEventName[];
  /** Called with each event name that gets its first subscriber. */
  onNewName(listener: (name: HubEventName) => void): () => void;
  onResync(listener: () => void): () => void;
  resync(): void;
}

export function createHubEventBus(onHandlerError: (error: unknown) => void = logHandlerError): HubEventBus {
  const handlers = new Map<HubEventName, Set<(arg: unknown) => void>>();
  const newNameListeners = new Set<(name: HubEventName) => void>();
  const resyncListeners = new Set<() => void>();
  const safely = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      onHandlerError(error); // one broken subscriber must not starve the others
    }
  };
  const add = <T>(set: Set<T>, item: T) => {
    set.add(item);
    return () => void set.delete(item);
  };

  return {
    on(name, handler) {
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        for (const listener of newNameListeners) safely(() => listener(name));
      }
      return add(set, handler as (arg: unknown) => void);
    },
    emit(name, arg) {
      for (const handler of [...(handlers.get(name) ?? [])]) safely(() => handler(arg));
    },
    names: () => [...handlers.keys()],
    onNewName: (listener) => add(newNameListeners, listener),
    onResync: (listener) => add(resyncListeners, listener),
    resync() {
      for (const listener of [...resyncListeners]) safely(listener);
    },
  };
}

function logHandlerError(error: unknown) {
  console.error('[hub] an event handler failed', error);
}

/** The tab's one event bus. */
export const hubEvents = createHubEventBus();
