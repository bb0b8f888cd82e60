import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launch, newPage } from './browser.js';
import { startServer, type RunningServer } from './server.js';

export interface DemoServer {
  /** The built portal on its own fresh demo database (started before the file's tests, stopped after). */
  readonly server: RunningServer;
  /** Debian's chromium, one per spec file. */
  readonly browser: Browser;
  /** A new browser context (its own storage) on the server, at 1366×800 unless `options` say otherwise. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

/**
 * Every spec file's setup: call once at the top of the file. Starts the server and the browser before the
 * file's tests (before the file's own beforeAll hooks, which may sign in) and closes both after them.
 */
export function useDemoServer(env: Record<string, string> = {}): DemoServer {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = () => {
    if (!server || !browser) throw new Error('useDemoServer: not started yet — call it at the top of the spec file and use it inside tests or hooks');
    return { server, browser };
  };
  return {
    get server() { return started().server; },
    get browser() { return started().browser; },
    newPage: (options) => newPage(started().browser, started().server.baseURL, options),
  };
}
