import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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
/** The warehouse's day (Ontario, CA: Los Angeles time), which the run's period is counted in. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
async function pick(testId: string, text: string, scope = modal()) {
  await scope.getByTestId(testId).first().click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

describe('billing a client on /Billing', () => {
  it('sets a rate card, enters an accessorial, runs the month, adjusts, finalises, traces a line and shows it to the client', async () => {
    await page.locator('.bolx-filters .ant-select').first().click();
    await page.keyboard.type('Ontario');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option-active').filter({ hasText: 'Ontario West Coast DC' }).waitFor();
    await page.keyboard.press('Enter');
    await page.goto('/Billing');
    await page.getByTestId('run-billing').waitFor();

    // A rate card from the first of the month: receiving per unit 0.10, relabelling 2.50 each.
    await page.getByTestId('new-rate-card').click();
    await pick('billing-customer', 'Fjord Electronics');
    const day = today();
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
    await pick('billing-customer', 'Fjord Electronics');
    await modal().getByLabel('Rate card name (e.g. Relabel)').fill('Relabel');
    await modal().getByLabel('Description').fill('Relabelled 4 cartons');
    await modal().getByLabel('Quantity / minutes').fill('4');
    await modal().getByRole('button', { name: 'Add' }).click();
    await toast(/Relabelled 4 cartons: 10.00 to bill/);

    // The live accrual already says what the invoice would.
    await page.getByText('Unbilled Accrual').click();
    await page.getByTestId('unbilled-card').filter({ hasText: 'Fjord Electronics' }).first().waitFor();
    await shot(page, 'billing-unbilled');

    // Run the month so far: a background job fills the draft.
    await page.getByTestId('run-billing').click();
    await pick('billing-customer', 'Fjord Electronics');
    await modal().getByTestId('period-from').fill(`${day.slice(0, 8)}01`);
    await modal().getByTestId('period-to').fill(day);
    await modal().getByRole('button', { name: 'Run' }).click();
    await toast(/Billing Fjord Electronics/);
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
    await pick('summary-customer', 'Fjord Electronics', page.locator('body'));
    await page.getByTestId('summary-current').waitFor();
    await shot(page, 'billing-summary');

    // The client account sees its own final invoice.
    const client = await demo.newPage();
    await signIn(client, ...DEMO.client);
    await landOnDashboard(client);
    await client.goto('/Billing');
    await rows(client).filter({ hasText: number }).first().waitFor();
    await shot(client, 'billing-client');
    await client.setViewportSize({ width: 390, height: 844 });
    await shot(client, 'billing-client-390');
    await client.context().close();
  }, 120_000);
});
