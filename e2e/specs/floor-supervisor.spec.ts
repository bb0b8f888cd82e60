import { describe, expect, it } from 'vitest';
import type { APIRequestContext, Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';
import { listed, rows } from '../support/lists.js';

const demo = useDemoServer();
const WAREHOUSE = 'Dallas Distribution Hub';

/** Allocated orders of one client in the Dallas warehouse, taken in and allocated through the API as the manager. */
async function allocatedOrders(request: APIRequestContext, count: number, prefix: string): Promise<string[]> {
  const login = await request.post('/Common/Auth/login', { data: { username: DEMO.manager[0], password: DEMO.manager[1] } });
  const headers = { authorization: `Bearer ${(await login.json()).accesstoken}` };
  const stock = await (await request.post('/Warehouse/Inventory/GetStockOnHand', { headers, data: { filters: {}, searchQuery: '', pageNumber: 1, pageSize: 500 } })).json() as {
    items: { warehouseId: number; warehouseName: string; customerId: number; skuId: number; lot: string; available: number }[];
  };
  // Loose, untracked stock of one client in the warehouse: enough of each SKU for every order's line.
  const here = stock.items.filter((s) => s.warehouseName === WAREHOUSE && s.lot === '' && s.available >= count);
  const customerId = here[0].customerId;
  // The demo's own allocated orders in the warehouse are held first, so the release is of these orders alone.
  const held = await request.post('/Warehouse/Order/HoldOrders', { headers, data: { filters: { warehouseId: here[0].warehouseId, status: 'Allocated' }, reason: 'e2e: release these orders alone' } });
  expect(held.status(), await held.text()).toBe(200);
  const skus = [...new Set(here.filter((s) => s.customerId === customerId).map((s) => s.skuId))];
  const soNumbers: string[] = [];
  const orderIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await request.post('/Warehouse/Order/CreateOrder', { headers, data: {
      warehouseId: here[0].warehouseId, customerId, orderType: 'Sales', referenceNumber: `${prefix}-${i + 1}`, orderDate: '2026-11-20',
      lines: [{ skuId: skus[i % skus.length], quantity: 1 }, { skuId: skus[(i + 1) % skus.length], quantity: 1 }],
    } });
    expect(res.status(), await res.text()).toBe(200);
    const order = (await res.json()).data as { orderId: number; soNumber: string };
    orderIds.push(order.orderId);
    soNumbers.push(order.soNumber);
  }
  const allocated = await (await request.post('/Warehouse/Order/AllocateOrders', { headers, data: { orderIds } })).json() as { done: unknown[] };
  expect(allocated.done).toHaveLength(count);
  return soNumbers;
}

const modal = (page: Page) => page.locator('.ant-modal-content:visible').last();

describe('the floor supervisor: /BatchAllocation, /BatchJob and the order drawer', () => {
  let attempt = 0;
  it('releases allocated orders as a cluster wave, sees the wave and its job live, assigns the job (another screen follows), and cancels it', async () => {
    const page = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    // References of their own per attempt: a reference already used answers its order (nothing new), so CI's retry
    // on the same server would allocate none.
    await allocatedOrders(page.request, 4, `E2E-FLOOR-${++attempt}`);
    await signIn(page, ...DEMO.manager);
    await landOnDashboard(page, { warehouse: WAREHOUSE });

    // A second screen on the jobs list, as the administrator: it follows the manager's moves without a reload.
    const watcher = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(watcher, ...DEMO.admin);
    await landOnDashboard(watcher, { warehouse: WAREHOUSE });

    await page.goto('/BatchAllocation');
    await page.getByText('Orders this rule matches').waitFor();
    await shot(page, 'floor-allocation-1440');
    await page.getByTestId('release-wave').click();
    await modal(page).getByText('Cluster', { exact: true }).waitFor();
    await shot(page, 'floor-release-1440');
    await modal(page).getByRole('button', { name: 'Release', exact: true }).click();
    await modal(page).getByTestId('release-result').getByText(/4 orders released in 1 job, 0 refused/).waitFor();
    await modal(page).locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    await watcher.goto('/BatchJob');
    await watcher.getByTestId('batchjob-tabs').getByText('Jobs', { exact: true }).click();
    await listed(watcher);

    // The wave with its progress; its link opens its jobs.
    await page.goto('/BatchJob');
    await listed(page);
    const wave = rows(page).first();
    await wave.locator('.ant-tag[data-status="Open"]').waitFor();
    expect(await wave.innerText()).toMatch(/Cluster[\s\S]*4[\s\S]*0 \/ 1[\s\S]*0 \/ 8/);
    await shot(page, 'floor-waves-1440');
    await wave.locator('.bolx-floor-link').click();
    await page.getByTestId('wave-filter').waitFor();
    await listed(page);
    const job = rows(page).first();
    await job.locator('.ant-tag[data-status="Open"]').waitFor();

    // Assign it: the job shows Assigned to the manager here and on the administrator's screen.
    await job.getByRole('button', { name: 'Assign' }).click();
    await modal(page).getByTestId('assign-user').click();
    await page.keyboard.type('Morgan');
    await page.keyboard.press('Enter');
    await modal(page).getByRole('button', { name: 'Assign' }).click();
    await job.locator('.ant-tag[data-status="Assigned"]').waitFor();
    await job.getByText('manager', { exact: true }).waitFor();
    // Assigned to the manager: the manager may pick it.
    await job.getByTestId('pick-job').waitFor();
    await rows(watcher).first().locator('.ant-tag[data-status="Assigned"]').waitFor();
    await shot(page, 'floor-jobs-1440');

    // Cancel it: Cancelled, and nothing more is offered on it.
    await job.getByRole('button', { name: 'Cancel job' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Cancel job' }).click();
    await job.locator('.ant-tag[data-status="Cancelled"]').waitFor();
    await expect.poll(() => job.getByRole('button').count()).toBe(0);
    await rows(watcher).first().locator('.ant-tag[data-status="Cancelled"]').waitFor();
  });

  // Retried once: in three CI runs (never on this machine, alone or beside the PostgreSQL lane) the drawer's release
  // did not turn the order Released. A failing attempt logs the release's answer and what the drawer showed.
  it('releases one order from its drawer on a 390 px screen, which then offers Pick on its job', { retry: 1 }, async ({ task }) => {
    const page = await demo.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const [so] = await allocatedOrders(page.request, 1, `E2E-FLOOR-ONE-${task.result?.retryCount ?? 0}`);
    await signIn(page, ...DEMO.manager);
    await landOnDashboard(page, { warehouse: WAREHOUSE });
    await page.goto('/OrderDashboard');
    await listed(page);
    await page.locator('.bolx-order-open', { hasText: so }).first().click();
    const drawer = page.locator('.ant-drawer-content').last();
    await drawer.locator('.ant-drawer-title .ant-tag[data-status="Allocated"]').waitFor();
    await drawer.getByTestId('order-release').click();
    const answer = page.waitForResponse((r) => r.url().includes('/CreateWave'), { timeout: 30_000 });
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Release' }).click();
    const released = await answer.then(async (r) => `${r.status()} ${await r.text()}`, (err: Error) => `no answer: ${err.message}`);
    await drawer.locator('.ant-drawer-title .ant-tag[data-status="Released"]').waitFor().catch(async (err: Error) => {
      await shot(page, 'floor-order-drawer-390-failed');
      const said = `the release answered ${released.slice(0, 600)}; the drawer's status: ${await drawer.locator('.ant-drawer-title .ant-tag').allInnerTexts()}`;
      console.error(`floor-supervisor: ${said}`);
      throw new Error(`${err.message.split('\n')[0]}: ${said}`);
    });
    await drawer.getByTestId('order-pick').waitFor();
    await drawer.getByTestId('order-packing-slip').waitFor();
    await shot(page, 'floor-order-drawer-390');

    // /BatchJob on the handheld: the lists scroll inside their card, the buttons wrap.
    await page.goto('/BatchJob');
    await listed(page);
    await page.getByTestId('take-next-job').waitFor();
    await shot(page, 'floor-waves-390');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });
});
