import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';
import { listed, rows as dataRows } from '../support/lists.js';

const demo = useDemoServer();
let page: Page;
let managerPage: Page | undefined;

beforeAll(async () => {
  page = await demo.newPage();
  await signIn(page, ...DEMO.admin);
  await landOnDashboard(page);
});
afterAll(async () => {
  await managerPage?.context().close();
  await page?.context().close();
});

const drawer = () => page.locator('.ant-drawer-content').last();
const rows = (scope: Page | Locator = page) => dataRows(scope);
const dropdown = () => page.locator('.ant-select-dropdown:visible');
const toast = (text: string | RegExp) => page.locator('.Toastify__toast--success').filter({ hasText: text }).first().waitFor();
const drawerClosed = () => page.locator('.ant-drawer-content').waitFor({ state: 'detached' });

/** Runs steps as the demo manager, in their own session: nobody approves what they requested or counted. */
async function asManager(steps: () => Promise<void>) {
  const admin = page;
  if (!managerPage) {
    managerPage = await demo.newPage();
    await signIn(managerPage, ...DEMO.manager);
    await landOnDashboard(managerPage, { warehouse: 'Newark' });
  }
  page = managerPage;
  try {
    await steps();
  } finally {
    page = admin;
  }
}

/** A Select of the report filters, by its label. */
async function pickOption(label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click({ force: true });
  await dropdown().locator('.ant-select-item-option').filter({ hasText: option }).first().click();
}
async function open(path: string) {
  await page.goto(path);
  await page.locator('.bolx-table-page').waitFor();
  await page.locator('.bolx-table__placeholder').first().waitFor({ state: 'detached' });
}
async function search(placeholder: string, text: string) {
  await page.getByPlaceholder(placeholder).fill(text);
  await page.waitForTimeout(400);
  await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
}
/** A Select in the open drawer, by its label: type to search, take the first match. */
async function choose(label: string, option: string, typed = option) {
  await drawer().locator('.ant-select').filter({ has: page.getByLabel(label, { exact: true }) }).click();
  await page.keyboard.type(typed);
  await dropdown().locator('.ant-select-item-option-active').filter({ hasText: option }).waitFor();
  await page.keyboard.press('Enter');
  await drawer().locator('.ant-select-selection-item').filter({ hasText: option }).first().waitFor();
}
const cellTexts = async (row: Locator) => row.locator('td').allInnerTexts();
/** On hand of the stock list's row with this SKU (column order: warehouse, client, SKU, location, lot, pallet, expiry, on hand). */
async function onHandOf(sku: string, location: string) {
  const row = rows().filter({ hasText: sku }).filter({ hasText: location }).filter({ hasText: 'Newark' }).first();
  await row.waitFor();
  return Number((await cellTexts(row))[7]);
}

/**
 * On hand of the SKU at a Newark location, read through the API (0 when it holds none): what a journey starts from.
 * A journey's figures are relative to it: CI's retry of a journey runs on the same server, after its first attempt
 * moved, counted or adjusted there already.
 */
async function onHandNow(sku: string, location: string): Promise<number> {
  const items = await page.evaluate(async (searchQuery) => {
    const res = await fetch('/Warehouse/Inventory/GetStockOnHand', {
      method: 'POST', body: JSON.stringify({ filters: {}, searchQuery, pageNumber: 1, pageSize: 100 }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}` },
    });
    return (await res.json()).items as { warehouseName: string; skuCode: string; locationCode: string; onHand: number }[];
  }, location);
  return items.filter((r) => r.skuCode === sku && r.locationCode === location && r.warehouseName.includes('Newark')).reduce((n, r) => n + r.onHand, 0);
}

// A-01-01-1 of Newark holds Acme stock in the demo data; D-04-04-1 is past the filled positions, so empty (until
// these journeys move, count and adjust stock there).
const FROM = 'A-01-01-1';
const TO = 'D-04-04-1';
let sku = '';
let fromBefore = 0;

describe('inventory operations as an administrator', () => {
  it('shows real stock tiles and open receipts on the dashboard', async () => {
    const receipts = page.locator('.bolx-kpi', { hasText: 'Open Receipts' });
    await expect.poll(async () => receipts.locator('.bolx-kpi__value').innerText()).toMatch(/^\d+$/);
    await shot(page, 'inventory-dashboard');
  });

  it('shows one occupancy: the warehouse card’s figures are the dashboard’s', async () => {
    const manager = await demo.newPage();
    try {
      await signIn(manager, ...DEMO.manager);
      await manager.waitForURL('**/WarehouseSelection');
      const card = manager.locator('.ant-card', { hasText: 'Newark' }).first();
      const [, used, total] = /([\d,]+) of ([\d,]+) locations used/.exec(await card.locator('.bolx-warehouse-card__bottom').innerText()) ?? [];
      const percent = await card.locator('.ant-progress-text').innerText();
      expect(Number(total.replace(/,/g, ''))).toBeGreaterThan(0);
      await shot(manager, 'inventory-occupancy-card');
      await card.click();
      await manager.waitForURL('**/Dashboard');
      const tile = manager.locator('.bolx-kpi', { hasText: 'Locations Used' });
      await expect.poll(() => tile.locator('.bolx-kpi__value').innerText()).toBe(used);
      await tile.getByText(`of ${total} · ${percent} occupied`).waitFor();
      await shot(manager, 'inventory-occupancy-dashboard');
    } finally {
      await manager.context().close();
    }
  });

  it('moves demo stock between locations and the stock-on-hand list follows', async () => {
    await open('/Move');
    await search('Search SKU, description, location, lot or pallet', FROM);
    const row = rows().filter({ hasText: FROM }).filter({ hasText: 'Newark' }).first();
    await row.waitFor();
    const cells = await cellTexts(row);
    sku = cells[2];
    fromBefore = Number(cells[7]);
    expect(fromBefore).toBeGreaterThanOrEqual(5);
    const toBefore = await onHandNow(sku, TO);
    await shot(page, 'inventory-move-list');

    await row.getByRole('button', { name: /Move/ }).click();
    await drawer().getByText('Move Stock').first().waitFor();
    // More than is available is refused with the figure, and the typed 999 stays: never clamped to a smaller move.
    await drawer().getByLabel('Quantity').fill('999');
    await drawer().getByLabel('To Location').fill(TO.toLowerCase());
    await page.keyboard.press('Enter');
    await drawer().getByText(/^Only \d+ units? (is|are) available$/).waitFor();
    expect(await drawer().getByLabel('Quantity').inputValue()).toBe('999');
    await shot(page, 'inventory-move-over-available');
    await drawer().getByLabel('Quantity').fill('5');
    await drawer().getByLabel('To Location').fill('NO-SUCH-LOC');
    await page.keyboard.press('Enter');
    await drawer().getByText('No active location with this code in the warehouse').waitFor();
    // The refused code stays selected in its box, so the scanner's next code replaces it (typed, as a scanner does).
    await page.keyboard.type(TO.toLowerCase());
    expect(await drawer().getByLabel('To Location').inputValue()).toBe(TO.toLowerCase());
    await shot(page, 'inventory-move-drawer');
    await page.keyboard.press('Enter'); // a scanner ends with Enter
    await toast(/moved|Moved/);
    await drawerClosed();

    await expect.poll(() => onHandOf(sku, FROM)).toBe(fromBefore - 5);
    await search('Search SKU, description, location, lot or pallet', TO);
    await expect.poll(() => onHandOf(sku, TO)).toBe(toBefore + 5);
  });

  it('counts the location blind, recounts the variance, approves it and the stock is adjusted', async () => {
    // Two more than the location holds are counted (it holds the 5 moved in above, on a fresh server).
    const counted = String((await onHandNow(sku, TO)) + 2);
    await open('/CycleCount');
    await shot(page, 'inventory-cycle-count-list');
    await page.getByRole('button', { name: 'New Count' }).click();
    await drawer().getByText('New Cycle Count').first().waitFor();
    await choose('Warehouse', 'Newark Fulfillment Center', 'Newark');
    await choose('Client', 'Acme Outdoor Gear', 'Acme');
    await drawer().getByLabel('From Location').fill(TO);
    await drawer().getByLabel('To Location').fill(TO);
    await shot(page, 'inventory-cycle-count-create');
    await drawer().getByRole('button', { name: 'Create Count' }).click();
    await toast(/count/i);

    // The new count's sheet opens: blind, so no expected column while counting.
    const line = rows(drawer()).filter({ hasText: sku });
    await line.waitFor();
    await expect.poll(() => drawer().locator('.ant-table-thead').innerText()).not.toContain('Expected');
    await line.getByLabel(/^Counted/).fill(counted);
    await shot(page, 'inventory-cycle-count-sheet');
    await drawer().getByRole('button', { name: 'Save Counts' }).click();
    await toast('Counts saved: lines with a variance need a recount');
    await drawerClosed();

    const count = rows().first();
    await count.getByText('Recount').first().waitFor();
    const countNo = (await count.getByRole('button', { name: /CC/ }).getAttribute('aria-label')) ?? '';
    await count.getByRole('button', { name: /CC/ }).click();
    await rows(drawer()).filter({ hasText: sku }).getByLabel(/^Recount/).fill(counted);
    await drawer().getByRole('button', { name: 'Save Recounts' }).click();
    await toast(/saved|Counts/i);
    await drawerClosed();

    await rows().first().getByText('Counted').first().waitFor();
    await rows().first().getByRole('button', { name: /CC/ }).click();
    const reviewed = rows(drawer()).filter({ hasText: sku });
    await reviewed.waitFor();
    await expect.poll(() => drawer().locator('.ant-table-thead').innerText()).toContain('Variance');
    await reviewed.getByText('+2').waitFor();
    // The administrator counted it: no plain Approve. As Super Administrator they may override, giving a reason.
    await drawer().getByText('As Super Administrator you may still approve it', { exact: false }).waitFor();
    expect(await drawer().getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    // Beside the destructive Cancel Count, the drawer's harmless way out says Close.
    expect(await drawer().locator('.bolx-form-drawer__footer').getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    await drawer().locator('.bolx-form-drawer__footer').getByRole('button', { name: 'Close', exact: true }).waitFor();
    await page.waitForTimeout(600); // the drawer's slide-in
    await shot(page, 'inventory-cycle-count-own-approval');
    await drawer().getByRole('button', { name: 'Approve with Override' }).click();
    const modal = page.locator('.ant-modal-content');
    await modal.getByRole('button', { name: 'Approve and Post' }).click();
    await modal.getByText('Please give the reason for approving a count you counted').waitFor();
    await modal.getByLabel('Reason for approving your own count').fill('Only administrator on site; recount watched by the shift lead');
    await shot(page, 'inventory-cycle-count-override');
    await modal.getByRole('button', { name: 'Approve and Post' }).click();
    await toast(`Cycle count ${countNo} approved by override: 1 difference posted (+2 units)`);
    await drawerClosed();
    await rows().filter({ hasText: countNo }).first().getByText('Approved').waitFor();
    // The count's history keeps who overrode and why.
    await rows().filter({ hasText: countNo }).first().getByRole('button', { name: /CC/ }).click();
    const approvedEntry = drawer().getByTestId('count-history-entry').filter({ hasText: 'Approved' });
    await approvedEntry.getByText('Only administrator on site; recount watched by the shift lead').waitFor();
    await page.waitForTimeout(600);
    await shot(page, 'inventory-cycle-count-history');
    await drawer().locator('.bolx-form-drawer__footer').getByRole('button', { name: 'Close', exact: true }).click();
    await drawerClosed();

    await open('/Move');
    await search('Search SKU, description, location, lot or pallet', TO);
    await expect.poll(() => onHandOf(sku, TO)).toBe(Number(counted));
  });

  it('holds an adjustment above the client threshold as Pending until a manager approves it', async () => {
    const before = await onHandNow(sku, TO);
    await open('/Adjustment');
    await page.getByRole('button', { name: 'New Adjustment' }).click();
    await drawer().getByText('New Adjustment').first().waitFor();
    await choose('Warehouse', 'Newark Fulfillment Center', 'Newark');
    await choose('Client', 'Acme Outdoor Gear', 'Acme');
    await choose('SKU', sku);
    await drawer().getByLabel('Location').fill(TO);
    await drawer().getByLabel('Quantity (+/−)').fill('150');
    await choose('Reason', 'Found');
    await shot(page, 'inventory-adjustment-create');
    await drawer().getByRole('button', { name: 'Save' }).click();
    await page.locator('.Toastify__toast--info').filter({ hasText: /pending/i }).first().waitFor();
    await drawerClosed();

    const pending = rows().filter({ hasText: sku }).filter({ hasText: '+150' }).first();
    await pending.getByText('Pending').waitFor();
    // The requester cannot decide it: another manager does.
    await pending.getByText('Your request', { exact: true }).waitFor();
    await expect(pending.getByRole('button', { name: /Approve/ }).count()).resolves.toBe(0);

    // Within the threshold it posts at once, and is listed too.
    await page.getByRole('button', { name: 'New Adjustment' }).click();
    await drawer().getByText('New Adjustment').first().waitFor();
    await choose('Warehouse', 'Newark Fulfillment Center', 'Newark');
    await choose('Client', 'Acme Outdoor Gear', 'Acme');
    await choose('SKU', sku);
    await drawer().getByLabel('Location').fill(TO);
    await drawer().getByLabel('Quantity (+/−)').fill('3');
    await choose('Reason', 'Found');
    await drawer().getByRole('button', { name: 'Save' }).click();
    await toast('Adjusted by +3 units');
    await drawerClosed();
    await rows().filter({ hasText: sku }).filter({ hasText: '+3' }).first().getByText('Posted').waitFor();
    await shot(page, 'inventory-adjustment-list');

    await asManager(async () => {
      await open('/Adjustment');
      const theirs = rows().filter({ hasText: sku }).filter({ hasText: '+150' }).first();
      await theirs.getByText('Pending').waitFor();
      await shot(page, 'inventory-adjustment-manager');
      await theirs.getByRole('button', { name: /Approve/ }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
      await toast(/approved/i);
      await rows().filter({ hasText: sku }).filter({ hasText: '+150' }).first().getByText('Approved').waitFor();
    });

    await open('/Move');
    await search('Search SKU, description, location, lot or pallet', TO);
    const all = rows().filter({ hasText: sku }).filter({ hasText: TO });
    await expect.poll(async () => {
      let sum = 0;
      for (const r of await all.all()) sum += Number((await cellTexts(r))[7]);
      return sum;
    }).toBe(before + 150 + 3);
  });

  it('shows pallets, replenishment, expiry and the inventory reports', async () => {
    await open('/MovePallet');
    await rows().first().waitFor();
    await search('Search pallet or location', 'PLT-NJ1-00003');
    const pallet = rows().filter({ hasText: 'PLT-NJ1-00003' }).first();
    // Onto D-04-04-2, or off it to D-04-04-3 when it is there already: CI's retry finds the pallet where the first
    // attempt moved it.
    await pallet.waitFor();
    const to = (await pallet.innerText()).includes('D-04-04-2') ? 'D-04-04-3' : 'D-04-04-2';
    await pallet.getByRole('button', { name: /Move Pallet/ }).click();
    await drawer().getByLabel('To Location').fill(to);
    await page.waitForTimeout(400);
    await shot(page, 'inventory-move-pallet-drawer');
    await page.keyboard.press('Enter');
    await toast('Moved pallet PLT-NJ1-00003');
    await drawerClosed();
    await rows().filter({ hasText: 'PLT-NJ1-00003' }).filter({ hasText: to }).first().waitFor();
    await shot(page, 'inventory-move-pallet');

    await open('/ProductReplenishment');
    await shot(page, 'inventory-replenishment-rules');
    await page.getByText('Tasks', { exact: true }).click();
    await page.getByRole('button', { name: 'Generate Tasks' }).waitFor();
    await shot(page, 'inventory-replenishment-tasks');

    await open('/ProductExpire');
    // The heading is the screen's title (the menu's and the browser tab's), not a second spelling of it.
    expect(await page.locator('.bolx-table__title h3').innerText()).toBe('Product Expiry');
    expect(await page.title()).toBe('Product Expiry | BOLX-WMS');
    await rows().first().waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'inventory-expire');

    // /InventoryReports on the report pattern: stock on hand now by SKU, then by location, lot and pallet; the other reports.
    await page.goto('/InventoryReports');
    await page.getByText('Stock on hand · now').waitFor();
    await rows().first().waitFor();
    await page.getByTestId('report-chart').locator('canvas').waitFor();
    expect(await page.locator('.bolx-report__totals td').first().innerText()).toBe('Total');
    await shot(page, 'inventory-reports-sku');
    for (const [group, name] of [['By location', 'location'], ['By pallet', 'pallet']] as const) {
      await pickOption('Group by', group);
      await page.locator('.bolx-report__filters .ant-select-selection-item').getByText(group).waitFor();
      await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await rows().first().waitFor();
      await shot(page, `inventory-reports-${name}`);
    }
    for (const [report, name] of [['Availability', 'availability'], ['Stock aging', 'aging'], ['Stock as of a date', 'as-of']] as const) {
      await pickOption('Report', report);
      await page.getByText(new RegExp(`^${report} · `)).waitFor();
      await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await rows().first().waitFor();
      await shot(page, `inventory-reports-${name}`);
    }
  });
});

describe('inventory as a client account', () => {
  it('sees its own stock read-only', async () => {
    const client = await demo.newPage();
    await signIn(client, ...DEMO.client);
    await landOnDashboard(client);
    await client.goto('/InventoryReports');
    await listed(client);
    const customers = await dataRows(client).locator('td:nth-child(4)').allInnerTexts();
    expect(new Set(customers)).toEqual(new Set(['Fjord Electronics']));
    await shot(client, 'inventory-client-reports');
    await client.context().close();
  });
});
