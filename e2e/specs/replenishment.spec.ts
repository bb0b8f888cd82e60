import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';
import { rows as dataRows } from '../support/lists.js';

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

const rows = (scope: Page | Locator = page) => dataRows(scope);
const cellTexts = (row: Locator) => row.locator('td').allInnerTexts();
const toast = (text: string | RegExp) => page.locator('.Toastify__toast--success').filter({ hasText: text }).first().waitFor();

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
/** The header's warehouse filter. */
async function chooseWarehouse(name: string) {
  await page.locator('.bolx-filters .ant-select').first().click();
  await page.keyboard.type(name.split(' ')[0]);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option-active').filter({ hasText: name }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.bolx-filters .ant-select-selection-item').filter({ hasText: name }).first().waitFor();
}
/** Units at a location in the /Move stock list (columns: warehouse, client, SKU, location, lot, pallet, expiry, on hand). */
async function stockAt(location: string, sku: string) {
  await open('/Move');
  await search('Search SKU, description, location, lot or pallet', location);
  const found = rows().filter({ hasText: location }).filter({ hasText: sku });
  await found.first().waitFor();
  // The search's answer, not the first page it replaces (which may hold some of the location's rows, not all).
  await expect.poll(async () => (await rows().allInnerTexts()).every((r) => r.includes(location))).toBe(true);
  let sum = 0;
  for (const r of await found.all()) sum += Number((await cellTexts(r))[7]);
  return sum;
}

describe('replenishment from bulk storage in the demo data', () => {
  /** The tasks each attempt generated: CI's retry runs on the same server, after its first attempt's tasks. */
  const generated: number[] = [];
  /** The pick faces earlier attempts refilled (no longer below min). */
  let refilled = 0;
  it('generates tasks for the pick faces below min, completes one, and the pick face fills while the bulk pallet empties', async () => {
    // What an earlier attempt left: the face it refilled stays full; its tasks still open are cancelled (a rule with an
    // open task gets no new one), giving their bulk stock back.
    if (generated.length) {
      const tasks = await page.evaluate(async () => {
        const res = await fetch('/Warehouse/Replenishment/GetReplenishmentTasks', {
          method: 'POST', body: JSON.stringify({ filters: {}, searchQuery: '', pageNumber: 1, pageSize: 100 }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}` },
        });
        return (await res.json()).items as { taskId: number; status: string }[];
      });
      const earlier = tasks.filter((t) => generated.includes(t.taskId));
      refilled += earlier.filter((t) => t.status === 'Completed').length;
      for (const { taskId } of earlier.filter((t) => t.status === 'Open')) {
        const status = await page.evaluate(async (taskId) => (await fetch('/Warehouse/Replenishment/CancelTask', {
          method: 'POST', body: JSON.stringify({ taskId }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}` },
        })).status, taskId);
        expect(status).toBe(200);
      }
      generated.length = 0;
    }
    const due = 4 - refilled;
    await chooseWarehouse('Newark Fulfillment Center');

    // The rules: the demo's pick faces (zone P) with min/max, four of them below min (fewer after an earlier attempt).
    await open('/ProductReplenishment');
    await search('Search SKU or location', 'P-01-01');
    await expect.poll(() => rows().filter({ hasText: 'below min' }).count()).toBe(due);
    await shot(page, 'replenishment-rules-below-min');

    // Edit Rule names the SKU by its code and description, as the list does, never by its id.
    const ruleRow = rows().filter({ hasText: 'below min' }).first();
    const ruleSku = (await cellTexts(ruleRow))[1];
    await ruleRow.getByRole('button', { name: 'Edit' }).click();
    const ruleDrawer = page.locator('.ant-drawer-content').last();
    await ruleDrawer.getByText('Edit Rule').first().waitFor();
    const chosen = ruleDrawer.locator('.ant-form-item').filter({ hasText: 'SKU' }).locator('.ant-select-selection-item');
    await expect.poll(() => chosen.innerText()).toMatch(new RegExp(`^${ruleSku} — \\S`));
    await page.waitForTimeout(600); // the drawer's slide-in
    await shot(page, 'replenishment-edit-rule');
    await ruleDrawer.getByRole('button', { name: 'Cancel', exact: true }).click();
    await ruleDrawer.waitFor({ state: 'detached' });

    // Generate: one task per pick face below min, each from a reserve (bulk) pallet.
    await page.getByText('Tasks', { exact: true }).click();
    const generate = page.getByRole('button', { name: 'Generate Tasks' });
    await generate.waitFor();
    await expect.poll(() => generate.isEnabled()).toBe(true);
    const answer = page.waitForResponse((r) => r.url().includes('/GenerateTasks'));
    await generate.click();
    generated.push(...((await (await answer).json()) as { data: { created: { taskId: number }[] } }).data.created.map((t) => t.taskId));
    await toast(`${due} replenishment ${due === 1 ? 'task' : 'tasks'} created`);
    await expect.poll(() => rows().filter({ hasText: 'Open' }).count()).toBe(due);
    await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
    await shot(page, 'replenishment-tasks-generated');

    // Columns: created, SKU, client, from, to, lot, quantity, status, completed by, actions.
    const task = rows().filter({ hasText: 'Open' }).first();
    const [, sku, , from, to, , qtyText] = await cellTexts(task);
    const quantity = Number(qtyText);
    expect(from).toMatch(/^R-01-01-\d$/);
    expect(to).toMatch(/^P-01-01-\d$/);
    expect(quantity).toBeGreaterThan(0);

    const pickBefore = await stockAt(to, sku);
    const bulkBefore = await stockAt(from, sku);
    expect(pickBefore + quantity).toBe(120); // refilled up to max

    // Complete it (with its confirmation).
    await open('/ProductReplenishment');
    await page.getByText('Tasks', { exact: true }).click();
    const row = rows().filter({ hasText: to }).filter({ hasText: 'Open' }).first();
    await row.waitFor();
    await row.getByRole('button', { name: 'Complete' }).click();
    await page.locator('.ant-popconfirm').filter({ hasText: `Move ${quantity} ${quantity === 1 ? 'unit' : 'units'} to ${to}` }).getByRole('button', { name: 'Complete' }).click();
    await toast(`Replenished ${quantity} ${quantity === 1 ? 'unit' : 'units'}`);
    await rows().filter({ hasText: to }).filter({ hasText: 'Completed' }).first().waitFor();
    await shot(page, 'replenishment-task-completed');

    // The pick face rose by the task's quantity and is no longer below min; the bulk location fell by as much.
    expect(await stockAt(to, sku)).toBe(pickBefore + quantity);
    await shot(page, 'replenishment-pick-face-stock');
    expect(await stockAt(from, sku)).toBe(bulkBefore - quantity);
    await shot(page, 'replenishment-bulk-stock');
    await open('/ProductReplenishment');
    await search('Search SKU or location', to);
    const rule = rows().filter({ hasText: to }).first();
    await expect.poll(async () => (await cellTexts(rule))[5]).toBe('120');
    await expect.poll(() => rows().filter({ hasText: 'below min' }).count()).toBe(0);
    await shot(page, 'replenishment-rule-refilled');
  });
});
