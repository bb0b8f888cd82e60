import { isValidElement, lazy, type ComponentType, type ReactNode } from 'react';

/** The event Vite raises when a chunk fails to load; we raise the same one for screen chunks. */
export const PRELOAD_ERROR_EVENT = 'vite:preloadError';

export type PreloadErrorEvent = Event & { payload: unknown };

/**
 * Spec section 4: a failed lazy load dispatches a preload-error event and rethrows unless a listener handled it
 * (called preventDefault — e.g. by reloading the page to pick up a new deploy).
 */
export function loadOrSignal<T>(load: () => Promise<T>, target?: EventTarget): Promise<T> {
  return load().catch((error: unknown) => {
    const event = new Event(PRELOAD_ERROR_EVENT, { cancelable: true }) as PreloadErrorEvent;
    event.payload = error;
    (target ?? window).dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
    // Handled: the handler is taking over (reloading); render nothing meanwhile.
    return new Promise<T>(() => {});
  });
}

/** A lazy screen whose code can be fetched before it renders (`preload`, once; rendering reuses the same load). */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const once = () => (loading ??= loadOrSignal(load));
  return Object.assign(lazy(once), { preload: once });
}

/**
 * Starts fetching the code of the screen `node` is (an element of a lazyScreen), e.g. while the route's access is
 * being decided, so deciding adds no wait before the screen. A failed load has already raised its event.
 */
export function preloadScreen(node: ReactNode): void {
  const type = isValidElement(node) ? (node.type as { preload?: () => Promise<unknown> }) : undefined;
  if (typeof type?.preload === 'function') type.preload().catch(() => undefined);
}
