import { lazy, type ComponentType } from 'react';

/** The event Vite raises when a chunk fails to load; we raise the same one for screen chunks. */
export const PRELOAD_ERROR_EVENT = 'vite:preloadError';

export type PreloadErrorEvent = Event & { payload: unknown };

/**
 * Spec section 4: a failed lazy load dispatches a preload-error event and rethrows unless a listener handled it
 * (called preventDefault — e.g. by reloading the page to pick up a new deploy).
 */
export function loadOrSignal<T>(load: () => Promise<T>, target: EventTarget = window): Promise<T> {
  return load().catch((error: unknown) => {
    const event = new Event(PRELOAD_ERROR_EVENT, { cancelable: true }) as PreloadErrorEvent;
    event.payload = error;
    target.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
    // Handled: the handler is taking over (reloading); render nothing meanwhile.
    return new Promise<T>(() => {});
  });
}

export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => loadOrSignal(load));
}
