import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';

const demo = useDemoServer();
let page: Page;

beforeAll(async () => {
  page = await demo.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await signIn(page, ...DEMO.admin);
  await landOnDashboard(page);
});
afterAll(async () => {
  await page?.context().close();
});

const settled = () => page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
const pickOption = async (label: string, option: string) => {
  await page.getByRole('combobox', { name: label, exact: true }).click({ force: true });
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
};

describe('the report screens', () => {
  it('/OrderReports: a chart, a table with totals, another report and grouping, an Excel and a CSV export', async () => {
    await page.goto('/OrderReports');
    await page.getByText('Orders received, processed and shipped ·').waitFor();
    await settled();
    await page.getByTestId('report-chart').locator('canvas').waitFor();
    await page.locator('.bolx-report__totals').first().waitFor();
    expect(await page.locator('.bolx-report__totals td').first().innerText()).toBe('Total');
    await shot(page, 'reports-orders-1440');

    await pickOption('Report', 'Lines, units and backorders per order');
    await page.getByText('Lines, units and backorders per order ·').waitFor();
    await pickOption('Date range', 'Last 12 months');
    await settled();
    await shot(page, 'reports-order-profile-1440');

    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Excel' }).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^order-profile-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
    const text = readFileSync(await csv.path(), 'utf8');
    expect(text.split('\r\n')[0]).toContain('Client,Orders,Lines,Units');
    expect(text).toContain('Total,');
  });

  it('a saved view comes back with its filters', async () => {
    await page.getByLabel('View name').fill('Yearly profile');
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.locator('.Toastify__toast--success').filter({ hasText: 'View Yearly profile saved' }).first().waitFor();
    await page.goto('/OrderReports');
    await pickOption('Report', 'Lines, units and backorders per order');
    await pickOption('Saved views', 'Yearly profile');
    await expect.poll(() => page.locator('.bolx-report__filters').innerText()).toContain('Last 12 months');
  });

  it('a range over 2 years is refused naming the limit, runs as a job, and its file downloads when done', async () => {
    await page.goto('/OrderReports');
    await page.getByText('Orders received, processed and shipped ·').waitFor();
    await pickOption('Date range', 'Custom range');
    const ends = page.locator('.ant-picker-range input');
    await ends.nth(0).click();
    await ends.nth(0).fill('2022-01-01');
    await ends.nth(0).press('Enter');
    await ends.nth(1).fill('2025-12-31');
    await ends.nth(1).press('Enter');
    const job = page.getByTestId('report-job');
    await job.getByText('A report covers at most 2 years (731 days)').waitFor();
    await job.getByRole('button', { name: 'Run as job' }).click();
    const ready = job.getByRole('button', { name: /Download orders-per-day-2022-01-01-to-2025-12-31\.xlsx/ });
    await ready.waitFor({ timeout: 20_000 });
    await shot(page, 'reports-job-1440');
    const [file] = await Promise.all([page.waitForEvent('download'), ready.click()]);
    expect(file.suggestedFilename()).toBe('orders-per-day-2022-01-01-to-2025-12-31.xlsx');
  });

  it('E-mail this report: a weekly subscription is listed and cancelled', async () => {
    await page.goto('/OrderReports');
    await page.getByText('Orders received, processed and shipped ·').waitFor();
    await page.getByRole('button', { name: 'E-mail this report' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.ant-select').first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Weekly' }).first().click();
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await page.locator('.Toastify__toast--success').filter({ hasText: 'will be e-mailed every week' }).first().waitFor();
    const listed = page.locator('.bolx-report__subscriptions');
    await listed.getByText('Every Monday at 06:00').waitFor();
    await shot(page, 'reports-subscriptions-1440');
    await listed.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await listed.waitFor({ state: 'detached' });
  });

  it('/ProductivityReport and /Labor open with their reports', async () => {
    await page.goto('/ProductivityReport');
    await page.getByText('Productivity by user ·').waitFor();
    await settled();
    await shot(page, 'reports-productivity-1440');
    await page.goto('/Labor');
    await page.getByText('Labour time by user and day ·').waitFor();
    await shot(page, 'reports-labor-1440');
  });

  it('/InventoryReports: stock on hand now with totals and a chart, a search, another grouping, and the exports read back', async () => {
    await page.goto('/InventoryReports');
    await page.getByText('Stock on hand · now').waitFor();
    await settled();
    // A snapshot takes no date range.
    expect(await page.getByRole('combobox', { name: 'Date range', exact: true }).count()).toBe(0);
    await page.getByTestId('report-chart').locator('canvas').waitFor();
    const rows = page.locator('.bolx-report__table tr.ant-table-row');
    await rows.first().waitFor();
    const first = (await rows.first().locator('td').first().innerText()).trim();
    await page.getByLabel('Search the rows').fill(first);
    await expect.poll(async () => (await rows.locator('td:first-child').allInnerTexts()).every((v) => v.includes(first))).toBe(true);
    await page.getByLabel('Search the rows').fill('');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
    const text = readFileSync(await csv.path(), 'utf8');
    expect(text.split('\r\n')[0]).toContain('SKU,Description,Warehouse,Client,Locations,On hand,Allocated,Available');
    expect(text).toContain('Total,');
    await pickOption('Group by', 'By client');
    await page.locator('.bolx-report__filters .ant-select-selection-item').getByText('By client').waitFor();
    await settled();
    await shot(page, 'reports-inventory-by-client-1440');
    await pickOption('Report', 'Stock aging');
    await page.getByText('Stock aging · now').waitFor();
    await settled();
    await shot(page, 'reports-inventory-aging-1440');
    await pickOption('Report', 'Stock as of a date');
    await pickOption('Date range', 'Last month');
    await page.getByText(/^Stock as of a date · as of \d{4}-\d{2}-\d{2}$/).waitFor();
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Excel' }).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^stock-as-of-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.xlsx$/);
  });

  it('/InboundReports: receiving orders by status, receipts per day with a chart, a PDF export', async () => {
    await page.goto('/InboundReports');
    await page.getByText('Receiving orders by status · now').waitFor();
    await settled();
    await page.getByTestId('report-chart').locator('canvas').waitFor();
    expect(await page.locator('.bolx-report__table tr.ant-table-row td:first-child').allInnerTexts()).toEqual(['Open', 'Receiving', 'Received', 'Closed', 'Cancelled']);
    await shot(page, 'reports-inbound-status-1440');
    await pickOption('Report', 'Receipts per day');
    await page.getByText(/^Receipts per day · \d{4}-\d{2}-\d{2} to /).waitFor();
    await settled();
    await page.getByTestId('report-chart').locator('canvas').waitFor();
    expect(await page.locator('.bolx-report__totals td').first().innerText()).toBe('Total');
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PDF' }).click()]);
    expect(readFileSync(await pdf.path()).subarray(0, 5).toString()).toBe('%PDF-');
    await shot(page, 'reports-inbound-receipts-1440');
    await pickOption('Report', 'Received against expected');
    await page.getByText(/^Received against expected · /).waitFor();
    await settled();
    await shot(page, 'reports-inbound-accuracy-1440');
  });

  it('fits a 390 px phone', async () => {
    const small = await demo.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(small, ...DEMO.admin);
    await landOnDashboard(small);
    await small.goto('/OrderReports');
    await small.getByText('Orders received, processed and shipped ·').waitFor();
    await small.getByTestId('report-chart').locator('canvas').waitFor();
    await shot(small, 'reports-orders-390');
    for (const [path, line, name] of [['/InventoryReports', 'Stock on hand · now', 'inventory'], ['/InboundReports', 'Receiving orders by status · now', 'inbound']] as const) {
      await small.goto(path);
      await small.getByText(line).waitFor();
      await small.getByTestId('report-chart').locator('canvas').waitFor();
      await small.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await shot(small, `reports-${name}-390`);
    }
    await small.context().close();
  });
});
