import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { landOnDashboard, signIn } from '../support/session.js';

const demo = useDemoServer();

/** Signs in with remember-me (tokens in localStorage) and waits for the dashboard. */
async function signedInOnDashboard(username: string, password: string): Promise<Page> {
  const page = await demo.newPage();
  await signIn(page, username, password, { remember: true });
  await landOnDashboard(page);
  return page;
}

const storedToken = (page: Page, key: string) =>
  page.evaluate((k) => localStorage.getItem(k) ?? sessionStorage.getItem(k), key);

describe('session', () => {
  it('refreshes an expired access token once for concurrent 401s, and retries them', async () => {
    const page = await signedInOnDashboard('staff', 'bolx-demo-staff');
    const oldRefresh = await storedToken(page, 'refreshtoken');
    // Forced expiry: a token the server cannot verify answers 401 on every call the reloaded screen makes.
    await page.evaluate(() => {
      const store = localStorage.getItem('authtoken') ? localStorage : sessionStorage;
      store.setItem('authtoken', 'expired.' + store.getItem('authtoken'));
    });
    const refreshes: string[] = [];
    const unauthorized: string[] = [];
    page.on('request', (r) => r.url().includes('/Common/Auth/refresh-token') && refreshes.push(r.url()));
    page.on('response', (r) => r.status() === 401 && unauthorized.push(r.url()));
    await page.reload();
    await page.waitForURL('**/Dashboard');
    await expect.poll(() => storedToken(page, 'refreshtoken')).not.toBe(oldRefresh);
    await page.locator('.bolx-kpi__value').first().waitFor();
    expect(unauthorized.length).toBeGreaterThan(1);
    expect(refreshes).toHaveLength(1);
    expect(await storedToken(page, 'authtoken')).not.toMatch(/^expired\./);
    await page.context().close();
  });

  it('signs out when the refresh fails', async () => {
    const page = await signedInOnDashboard('staff', 'bolx-demo-staff');
    await page.evaluate(() => {
      const store = localStorage.getItem('authtoken') ? localStorage : sessionStorage;
      store.setItem('authtoken', 'expired');
      store.setItem('refreshtoken', 'revoked');
    });
    await page.reload();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('Sign in to BOLX').waitFor();
    expect(await storedToken(page, 'authtoken')).toBeNull();
    await page.context().close();
  });
});

describe('offline', () => {
  it('shows the no-internet page when the connection drops and returns to the same screen when it is back', async () => {
    const page = await signedInOnDashboard('staff', 'bolx-demo-staff');
    await page.goto('/Profile');
    await page.locator('form').first().waitFor();
    await page.context().setOffline(true);
    await page.waitForURL('**/error-pages/nointernet');
    await shot(page, 'session-no-internet');
    await page.context().setOffline(false);
    await page.waitForURL('**/Profile');
    await page.context().close();
  });
});

describe('header filters', () => {
  it('narrows the customer filter to the warehouse, with ALL when there are several', async () => {
    const page = await signedInOnDashboard('admin', 'bolx-demo-admin');
    const data = await page.evaluate(async () => {
      const res = await fetch('/Common/UserModule/GetWarehouseClient', { headers: { authorization: `Bearer ${localStorage.getItem('authtoken')}` } });
      return (await res.json()) as { warehouseData: { warehouseId: number; warehouseName: string }[]; customerData: { warehouseId: number; customerName: string }[] };
    });
    const ontario = data.warehouseData.find((w) => w.warehouseName.includes('Ontario'))!;
    const servedByOntario = [...new Set(data.customerData.filter((c) => c.warehouseId === ontario.warehouseId).map((c) => c.customerName))];
    const everyCustomer = new Set(data.customerData.map((c) => c.customerName));
    expect(servedByOntario.length).toBeLessThan(everyCustomer.size);

    const openDropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    const optionsOf = async (label: string) => {
      await page.locator(`.ant-select[aria-label="${label}"]`).click();
      await openDropdown.locator('.ant-select-item-option').first().waitFor();
      const texts = await openDropdown.locator('.ant-select-item-option').allInnerTexts();
      await page.keyboard.press('Escape');
      await openDropdown.waitFor({ state: 'hidden' });
      return texts;
    };
    // All warehouses: ALL first, then the customers (the list scrolls past 7 options, so check the first ones).
    const before = await optionsOf('Client');
    expect(before[0]).toBe('ALL');
    expect(before.slice(1).every((name) => everyCustomer.has(name))).toBe(true);

    await page.locator('.ant-select[aria-label="Warehouse"]').click();
    await openDropdown.locator('.ant-select-item-option', { hasText: 'Ontario' }).click();
    await openDropdown.waitFor({ state: 'hidden' });
    const after = await optionsOf('Client');
    const expected = servedByOntario.length > 1 ? ['ALL', ...servedByOntario.sort((a, b) => a.localeCompare(b))] : servedByOntario;
    expect(after).toEqual(expected);
    await shot(page, 'session-header-filters');
    await page.context().close();
  });
});

describe('customizer', () => {
  it('keeps RTL and the chosen sidebar colour across a reload, with the drawer on the left in RTL', async () => {
    const page = await signedInOnDashboard('staff', 'bolx-demo-staff');
    await page.getByLabel('Customize').click();
    await page.getByText('Theme Customizer').waitFor();
    await page.getByLabel('Sidebar Colors 5', { exact: true }).click();
    await page.getByLabel('RTL', { exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await shot(page, 'session-customizer-rtl');
    await page.reload();
    await page.waitForURL('**/Dashboard');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('bolx.customizer') ?? '{}'));
    expect(saved).toMatchObject({ direction: 'rtl', sidebarPresetId: 5 });
    await page.getByLabel('Customize').click();
    const drawer = page.locator('.ant-drawer-left .ant-drawer-content');
    await drawer.waitFor();
    await page.context().close();
  });
});
