import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiAs } from '../support/api.js';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';
import { rows } from '../support/lists.js';

const demo = useDemoServer();
let page: Page;

beforeAll(async () => {
  page = await demo.newPage();
  await signIn(page, ...DEMO.admin);
  await landOnDashboard(page);
});
afterAll(async () => {
  await page?.context().close();
});

const toast = (text: string | RegExp) => page.locator('.Toastify__toast--success').filter({ hasText: text }).first().waitFor();
const modal = () => page.locator('.ant-modal-content:visible').last();
/**
 * The client billed and its warehouse, with the warehouse's time zone (the run's period is counted in its days): the
 * demo client account's, and for CI's retry another. A client's month at a warehouse is billed once (a rate card
 * version may not overlap another from the same day; a receipt goes on one invoice), and the retry runs on the same
 * server, after the first attempt billed its client's month.
 */
const BILLED = [
  { warehouse: 'Ontario West Coast DC', client: 'Fjord Electronics', timeZone: 'America/Los_Angeles' },
  { warehouse: 'Newark Fulfillment Center', client: 'Acme Outdoor Gear', timeZone: 'America/New_York' },
] as const;
/** The day in a warehouse's time zone. */
const today = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
async function pick(testId: string, text: string, scope = modal()) {
  await scope.getByTestId(testId).first().click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

/**
 * A client made ready to bill at a warehouse as the demo makes Fjord Electronics at Ontario: a receipt today (an RO
 * received as expected at the dock, put away and finalized) and a client account that reads its billing. Answers the
 * account's sign-in.
 */
async function billableClient({ warehouse, client: name, timeZone }: (typeof BILLED)[number], username: string): Promise<readonly [string, string]> {
  const api = await apiAs(page, DEMO.admin);
  const { warehouseData, customerData } = await api('/Common/UserModule/GetWarehouseClient') as
    { warehouseData: { warehouseId: number; warehouseName: string }[]; customerData: { customerId: number; customerName: string; warehouseId: number }[] };
  const warehouseId = warehouseData.find((w) => w.warehouseName === warehouse)!.warehouseId;
  const customerId = customerData.find((c) => c.customerName === name && c.warehouseId === warehouseId)!.customerId;
  const [sku] = (await api('/warehouse/Sku/GetAllSkus', { filters: { customerId }, searchQuery: '', pageNumber: 1, pageSize: 1 })).items as { skuId: number }[];
  const ro = (await api('/Warehouse/Receiving/CreateReceivingOrder', {
    warehouseId, customerId, supplier: 'E2E Billing Supplier', expectedDeliveryDate: today(timeZone), lines: [{ skuId: sku.skuId, expectedQuantity: 5 }],
  })).data as { receivingOrderId: number };
  const dock = (await api(`/Warehouse/Receiving/GetDockLocations?warehouseId=${warehouseId}`) as { locationId: number; locationType: string }[]).find((l) => l.locationType === 'dock')!;
  await api('/Warehouse/Receiving/ReceiveAsExpected', { receivingOrderId: ro.receivingOrderId, locationId: dock.locationId, putaway: true, finalize: true });
  type Node = { moduleId: number; moduleKey: string; childModules: Node[] };
  const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.childModules)]);
  const options = await api('/Warehouse/User/GetModuleWarehouseUsers') as { modules: { appId: number; modules: Node[] }[] };
  const wms = flatten(options.modules.find((a) => a.appId === 1)!.modules);
  const modules = ['Dashboard', 'Billing'].map((key) => ({ moduleId: wms.find((m) => m.moduleKey === key)!.moduleId, permission: 'read' }));
  const password = 'billing-client-pass';
  await api('/Warehouse/User/CreateUser', {
    username, email: `${username}@example.com`, firstName: 'Bea', lastName: 'Billing', usertype: 'Client', customerId, modules, password, confirmPassword: password,
  });
  return [username, password];
}

describe('billing a client on /Billing', () => {
  let attempt = 0;
  it('sets a rate card, enters an accessorial, runs the month, adjusts, finalises, traces a line and shows it to the client', async () => {
    const run = ++attempt;
    const billed = BILLED[run - 1];
    const { warehouse, client } = billed;
    const account = run === 1 ? DEMO.client : await billableClient(billed, `billing.client${run}`);
    await page.locator('.bolx-filters .ant-select').first().click();
    await page.keyboard.type(warehouse.split(' ')[0]);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option-active').filter({ hasText: warehouse }).waitFor();
    await page.keyboard.press('Enter');
    await page.goto('/Billing');
    await page.getByTestId('run-billing').waitFor();

    // A rate card from the first of the month: receiving per unit 0.10, relabelling 2.50 each.
    await page.getByTestId('new-rate-card').click();
    // A client served first from another warehouse is offered here too (Delta Home Goods: Newark, then Ontario).
    if (warehouse.startsWith('Ontario')) await pick('billing-customer', 'Delta Home Goods');
    await pick('billing-customer', client);
    const day = today(billed.timeZone);
    await modal().getByTestId('effective-from').fill(`${day.slice(0, 8)}01`);
    await pick('rate-type', 'Receiving per unit');
    await modal().getByTestId('rate-amount').first().fill('0.10');
    await modal().getByTestId('add-rate').click();
    await modal().getByTestId('rate-type').nth(1).click();
    await page.keyboard.type('Accessorial: Accessorial');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Accessorial: Accessorial' }).first().click();
    await modal().getByPlaceholder('Qualifier (type, name)').nth(1).fill('Relabel');
    await modal().getByTestId('rate-amount').nth(1).fill('2.50');
    await shot(page, 'billing-rate-card');
    await modal().getByRole('button', { name: 'Save' }).click();
    await toast(/Rate card version 1 saved/);

    await page.getByTestId('add-accessorial').click();
    await pick('billing-customer', client);
    await modal().getByLabel('Rate card name (e.g. Relabel)').fill('Relabel');
    await modal().getByLabel('Description').fill('Relabelled 4 cartons');
    await modal().getByLabel('Quantity / minutes').fill('4');
    await modal().getByRole('button', { name: 'Add' }).click();
    await toast(/Relabelled 4 cartons: 10.00 to bill/);

    // The live accrual already says what the invoice would.
    await page.getByText('Unbilled Accrual').click();
    await page.getByTestId('unbilled-card').filter({ hasText: client }).first().waitFor();
    await shot(page, 'billing-unbilled');

    // Run the month so far: a background job fills the draft.
    await page.getByTestId('run-billing').click();
    await pick('billing-customer', client);
    await modal().getByTestId('period-from').fill(`${day.slice(0, 8)}01`);
    await modal().getByTestId('period-to').fill(day);
    await modal().getByRole('button', { name: 'Run' }).click();
    await toast(`Billing ${client}`);
    const drawer = page.locator('.ant-drawer-content:visible').last();
    await expect.poll(async () => drawer.getByTestId('finalize-invoice').isEnabled(), { timeout: 30_000 }).toBe(true);
    await drawer.getByText('Relabelled 4 cartons').first().waitFor();
    // The demo's receipts for the client this month are billed per unit (the ledger's receipt rows).
    await drawer.getByText('Receiving per unit').first().waitFor();
    await shot(page, 'billing-draft');

    await drawer.getByTestId('add-manual-line').click();
    await modal().getByLabel('Description').fill('Goodwill discount');
    await modal().getByLabel('Quantity (negative: a discount)').fill('-1');
    await modal().getByLabel('Rate').fill('1.00');
    await modal().getByLabel('Reason').fill('Late dispatch');
    await modal().getByRole('button', { name: 'Add' }).click();
    await toast(/Line added: Goodwill discount/);
    await drawer.getByTestId('finalize-invoice').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await toast(/Invoice INV-\d{6} is final/);
    const number = (await page.locator('.Toastify__toast--success').filter({ hasText: /INV-\d{6}/ }).first().innerText()).match(/INV-\d{6}/)![0];
    await drawer.getByTestId('invoice-pdf').click();
    await shot(page, 'billing-final');

    // Trace a line in /InvoiceAudit.
    await drawer.getByText('Audit this invoice').click();
    await page.getByTestId('audit-lines').waitFor();
    await page.getByTestId('audit-lines').locator('.ant-table-row-expand-icon').first().click();
    await page.getByTestId('line-sources').first().waitFor();
    await shot(page, 'billing-invoice-audit');
    // The receiving line's source opens its receiving order's lines on /ROReportDetails.
    const ro = page.getByTestId('line-sources').first().getByRole('link', { name: /^RO-\d{6}$/ }).first();
    const roNumber = await ro.innerText();
    await ro.click();
    await page.waitForURL(/\/ROReportDetails\?roNumber=RO-/);
    await rows(page).filter({ hasText: roNumber }).first().waitFor();
    await expect.poll(async () => (await rows(page).allInnerTexts()).every((r) => r.includes(roNumber))).toBe(true);
    await shot(page, 'billing-audit-to-ro');

    await page.goto('/BillingSummary');
    await pick('summary-customer', client, page.locator('body'));
    await page.getByTestId('summary-current').waitFor();
    await shot(page, 'billing-summary');

    // The client account sees its own final invoice.
    const clientPage = await demo.newPage();
    await signIn(clientPage, ...account);
    await landOnDashboard(clientPage, { warehouse });
    await clientPage.goto('/Billing');
    await rows(clientPage).filter({ hasText: number }).first().waitFor();
    await shot(clientPage, 'billing-client');
    await clientPage.setViewportSize({ width: 390, height: 844 });
    await shot(clientPage, 'billing-client-390');
    await clientPage.context().close();
  }, 120_000);
});
