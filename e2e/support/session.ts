import type { Page } from 'playwright-core';

export const DEMO = {
  admin: ['admin', 'bolx-demo-admin'],
  manager: ['manager', 'bolx-demo-manager'],
  staff: ['staff', 'bolx-demo-staff'],
  client: ['client', 'bolx-demo-client'],
} as const;

export async function signIn(page: Page, username: string, password: string, options: { remember?: boolean } = {}): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email/Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (options.remember) await page.getByText('Remember me').click();
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Follows the redirects after login to the dashboard, choosing Warehouse Management and the first warehouse
 * (or the one named) when asked. The sign-in route passes through /Dashboard before the landing rules run, so this waits for
 * what each screen shows rather than for a URL.
 */
export async function landOnDashboard(page: Page, options: { warehouse?: string } = {}): Promise<void> {
  const serviceCard = page.locator('.ant-card', { hasText: 'Warehouse Management' });
  const warehouseCard = (options.warehouse ? page.locator('.ant-card', { hasText: options.warehouse }) : page.locator('.ant-card')).first();
  const kpi = page.locator('.bolx-kpi__value').first();
  for (;;) {
    await page.locator('.bolx-kpi__value, .ant-card').first().waitFor();
    const path = new URL(page.url()).pathname;
    if (path === '/Dashboard' && (await kpi.isVisible())) return;
    if (path === '/ServiceSelection') await serviceCard.first().click();
    else if (path === '/WarehouseSelection') await warehouseCard.click();
    await page.waitForTimeout(100);
  }
}

/** Signs in and follows the landing rules to the dashboard. */
export async function signInToDashboard(page: Page, username: string, password: string): Promise<void> {
  await signIn(page, username, password);
  await landOnDashboard(page);
}

/**
 * Picks an option of a header filter (the warehouse and client selects). The option list filters and re-renders
 * while it is typed into, so a click can land on a row being replaced and choose nothing: it is tried again.
 */
export async function headerFilter(page: Page, label: string, option: string): Promise<void> {
  const select = page.locator(`.ant-select[aria-label="${label}"]`);
  for (let attempt = 1; ; attempt++) {
    await select.click();
    await page.keyboard.type(option.slice(0, 6));
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
    try {
      await select.filter({ hasText: option }).waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** Chooses a warehouse in the header and returns its id. */
export async function chooseWarehouse(page: Page, name: string): Promise<number> {
  await headerFilter(page, 'Warehouse', name);
  return Number(await page.evaluate(() => sessionStorage.getItem('selectedWarehouse') ?? localStorage.getItem('selectedWarehouse')));
}
