import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's chromium only: never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = new URL('../artifacts', import.meta.url).pathname;

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function newPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 800 }, ...options });
  return context.newPage();
}

/** Keeps a screenshot of the viewport (what the user sees; the shell is fixed) as a test artifact: e2e/artifacts/. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  // Transitions finished first: a button just enabled is otherwise caught mid-fade, looking disabled.
  await page.screenshot({ path, fullPage: false, animations: 'disabled' });
  return path;
}

/**
 * Opens a tab of an antd tab bar by its name: directly when it is shown, else through the bar's "more" menu, where
 * antd puts the tabs a narrow screen has no room for.
 */
export async function openTab(page: Page, name: string) {
  const tab = page.getByRole('tab', { name });
  const [box, bar] = await Promise.all([tab.boundingBox(), page.locator('.ant-tabs-nav-wrap').first().boundingBox()]);
  if (box && bar && box.x >= bar.x && box.x + box.width <= bar.x + bar.width + 1) {
    await tab.click();
    return;
  }
  await page.locator('.ant-tabs-nav-more').first().hover();
  await page.locator('.ant-tabs-dropdown-menu-item', { hasText: name }).click();
}
