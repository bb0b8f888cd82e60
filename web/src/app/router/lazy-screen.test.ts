import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { lazyScreen, loadOrSignal, preloadScreen, PRELOAD_ERROR_EVENT, type PreloadErrorEvent } from './lazy-screen';

describe('lazy screen loading', () => {
  it('passes a successful load through', async () => {
    await expect(loadOrSignal(async () => 'module', new EventTarget())).resolves.toBe('module');
  });
  it('dispatches the preload-error event and rethrows when nobody handles it', async () => {
    const target = new EventTarget();
    const seen: unknown[] = [];
    target.addEventListener(PRELOAD_ERROR_EVENT, (e) => seen.push((e as PreloadErrorEvent).payload));
    const failure = new Error('chunk 404');
    await expect(loadOrSignal(() => Promise.reject(failure), target)).rejects.toBe(failure);
    expect(seen).toEqual([failure]);
  });
  it('does not rethrow when a listener handles the event', async () => {
    const target = new EventTarget();
    target.addEventListener(PRELOAD_ERROR_EVENT, (e) => e.preventDefault());
    const outcome = await Promise.race([
      loadOrSignal(() => Promise.reject(new Error('x')), target).then(() => 'resolved', () => 'rejected'),
      new Promise((r) => setTimeout(() => r('pending'), 20)),
    ]);
    expect(outcome).toBe('pending');
  });
  it('fetches a screen once, whether preloaded before it renders or not', async () => {
    let loads = 0;
    const Screen = lazyScreen(async () => {
      loads += 1;
      return { default: () => null };
    });
    preloadScreen(createElement(Screen));
    preloadScreen(createElement(Screen));
    await Screen.preload();
    preloadScreen('not a screen');
    expect(loads).toBe(1);
  });
});
