import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';
import { listed, rows } from '../support/lists.js';

const demo = useDemoServer();

const drawer = (page: Page) => page.locator('.ant-drawer-content').last();
const dropdown = (page: Page) => page.locator('.ant-select-dropdown:visible');
const countOf = async (page: Page, status: string) => Number((await page.locator(`.bolx-order-counts__tile[data-status="${status}"] .bolx-order-counts__value`).innerText()).replace(/\D/g, ''));

/** Picks an option of a Select in the open drawer by its label (typed search, then Enter on the active match). */
async function choose(page: Page, label: string, search: string) {
  await drawer(page).getByLabel(label, { exact: true }).first().click();
  await page.keyboard.type(search);
  await dropdown(page).locator('.ant-select-item-option-active').filter({ hasText: search }).waitFor();
  await page.keyboard.press('Enter');
  await dropdown(page).waitFor({ state: 'hidden' });
}

/** Another client's (Delta Home Goods) order in the same warehouse as `beside`, taken in through the API as the staff account. */
async function otherClientsOrder(page: Page, beside: string, referenceNumber: string) {
  const login = await page.request.post('/Common/Auth/login', { data: { username: DEMO.staff[0], password: DEMO.staff[1] } });
  const headers = { authorization: `Bearer ${(await login.json()).accesstoken}` };
  const orders = await (await page.request.post('/Warehouse/Order/GetOrders', { headers, data: { filters: {}, searchQuery: beside, pageNumber: 1, pageSize: 1 } })).json();
  const skus = await (await page.request.post('/warehouse/Sku/GetAllSkus', { headers, data: { filters: {}, searchQuery: 'DHG-1001', pageNumber: 1, pageSize: 1 } })).json();
  const sku = skus.items[0] as { skuId: number; customerId: number };
  const res = await page.request.post('/Warehouse/Order/CreateOrder', { headers, data: {
    warehouseId: orders.items[0].warehouseId, customerId: sku.customerId, orderType: 'Sales', referenceNumber, orderDate: '2026-11-20', lines: [{ skuId: sku.skuId, quantity: 2 }],
  } });
  expect(res.status(), await res.text()).toBe(200);
}

describe('orders: the Order Dashboard', () => {
  let attempt = 0;
  it('staff create an order by hand, see it counted under New, open it, hold it and release the hold; a client account sees only its own orders', async () => {
    // References of their own per attempt: a reference already used answers its order (nothing new), so CI's retry on
    // the same server would see no new order.
    const ours = `PO-E2E-ORD-${++attempt}`;
    const theirs = `PO-E2E-OTHER-${attempt}`;
    const page = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, ...DEMO.staff);
    await landOnDashboard(page);

    // The demo has no orders yet: the counts row is what loads.
    await page.goto('/OrderDashboard');
    await page.locator('.bolx-order-counts__tile[data-status="New"] .bolx-order-counts__value:not(:has(.ant-skeleton))').waitFor();
    const newBefore = await countOf(page, 'New');

    // The order form: warehouse and client, reference, a SKU line; the client's SKUs only.
    await page.getByRole('button', { name: 'New Order' }).click();
    await drawer(page).getByLabel('Reference Number', { exact: true }).waitFor();
    await choose(page, 'Client', 'Fjord Electronics');
    await drawer(page).getByLabel('Reference Number', { exact: true }).fill(ours);
    await drawer(page).getByLabel('Ship-to Name', { exact: true }).fill('Ada Lovelace');
    await drawer(page).getByLabel('City', { exact: true }).fill('Oslo');
    await choose(page, 'SKU', 'FJE-1001');
    await drawer(page).getByLabel('Quantity', { exact: true }).fill('4');
    await shot(page, 'orders-create-1440');
    await drawer(page).getByRole('button', { name: 'Save' }).click();

    // It opens in its drawer, New, with its line; the New count went up by one.
    await drawer(page).getByText(/^Order SO-/).waitFor();
    await drawer(page).locator('.ant-tag[data-status="New"]').first().waitFor();
    await drawer(page).getByText('FJE-1001').waitFor();
    await shot(page, 'orders-drawer-1440');
    await expect.poll(() => countOf(page, 'New')).toBe(newBefore + 1);

    // Hold, then release the hold: each move shows in the status and the history.
    await drawer(page).getByRole('button', { name: 'Hold', exact: true }).click();
    await drawer(page).locator('.ant-drawer-title .ant-tag[data-status="On Hold"]').waitFor();
    expect(await drawer(page).getByRole('button', { name: 'Hold', exact: true }).count()).toBe(0);
    await drawer(page).getByRole('button', { name: 'Release Hold' }).click();
    await drawer(page).locator('.ant-drawer-title .ant-tag[data-status="New"]').waitFor();
    await drawer(page).getByRole('tab', { name: 'History' }).click();
    await drawer(page).locator('.ant-timeline-item').nth(1).waitFor();
    expect(await drawer(page).locator('.ant-timeline-item').count()).toBe(2);
    await page.keyboard.press('Escape');

    // The New tile filters the list to New orders, and is marked.
    await page.locator('.bolx-order-counts__tile[data-status="New"]').click();
    await expect.poll(() => page.locator('.bolx-order-counts__tile[data-status="New"]').getAttribute('aria-pressed')).toBe('true');
    await rows(page).filter({ hasText: ours }).waitFor();
    // The unfiltered rows stay on screen until the filtered answer replaces them.
    await expect.poll(() => page.locator('.ant-table-tbody .ant-tag[data-status]:not([data-status="New"])').count()).toBe(0);
    await shot(page, 'orders-dashboard-1440');

    // Another client's order, taken in through the API.
    await otherClientsOrder(page, ours, theirs);
    await rows(page).filter({ hasText: theirs }).waitFor();
    await page.close();

    // The client account (Fjord Electronics) sees its order and never the other client's.
    const client = await demo.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(client, ...DEMO.client);
    await landOnDashboard(client);
    await client.goto('/OrderDashboard');
    await listed(client);
    await rows(client).filter({ hasText: ours }).waitFor();
    expect(await rows(client).filter({ hasText: theirs }).count()).toBe(0);
    // It takes in its own orders (OrderDashboard write), but the floor's and stock's moves are staff work.
    await client.getByRole('button', { name: 'New Order' }).waitFor();
    expect(await client.getByRole('button', { name: 'Allocate', exact: true }).count()).toBe(0);
    await shot(client, 'orders-dashboard-client-390');
  });

  let bkoAttempt = 0;
  /** The orders an attempt made (cancelled by the next attempt, if any). */
  const taken: number[] = [];
  it('allocates an order from the dashboard; what is short waits on /BKO and is filled when stock arrives', async () => {
    // References of their own per attempt: a reference already used answers its order (nothing new), so CI's retry on
    // the same server would probe with the cancelled probe and find the filled backorder.
    const probeReference = `PO-E2E-PROBE-${++bkoAttempt}`;
    const bko = `PO-E2E-BKO-${bkoAttempt}`;
    const page = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, ...DEMO.staff);
    await landOnDashboard(page);
    const login = await page.request.post('/Common/Auth/login', { data: { username: DEMO.staff[0], password: DEMO.staff[1] } });
    const headers = { authorization: `Bearer ${(await login.json()).accesstoken}` };
    const api = async (path: string, data: unknown) => {
      const res = await page.request.post(path, { headers, data });
      expect(res.status(), await res.text()).toBe(200);
      return res.json();
    };
    const skus = await api('/warehouse/Sku/GetAllSkus', { filters: {}, searchQuery: 'FJE-1002', pageNumber: 1, pageSize: 1 });
    const sku = skus.items[0] as { skuId: number; customerId: number };
    // The warehouse that serves the client and holds the SKU's stock (the first the staff account has for it).
    const { customerData } = await (await page.request.get('/Common/UserModule/GetWarehouseClient', { headers })).json();
    const warehouseId = (customerData as { customerId: number; warehouseId: number }[]).find((c) => c.customerId === sku.customerId)!.warehouseId;
    const order = async (referenceNumber: string, quantity: number) => {
      const made = await api('/Warehouse/Order/CreateOrder', {
        warehouseId, customerId: sku.customerId, orderType: 'Sales', referenceNumber, orderDate: '2026-11-20', lines: [{ skuId: sku.skuId, quantity }],
      });
      taken.push(made.data.orderId);
      return made;
    };
    // What an earlier attempt's orders hold of the SKU (CI's retry runs on the same server: the backorder filled
    // there holds every unit that was free) is given back first, so this attempt finds it free again.
    for (const orderId of taken.splice(0)) await page.request.post('/Warehouse/Order/CancelOrder', { headers, data: { orderId } });

    // What is free of the SKU, and where: a probe order takes it all, is read and cancelled (giving it back).
    const probe = (await order(probeReference, 90000)).data;
    await api('/Warehouse/Order/AllocateOrders', { orderIds: [probe.orderId] });
    const probed = await (await page.request.get(`/Warehouse/Order/GetOrder?orderId=${probe.orderId}`, { headers })).json();
    const free = probed.lines[0].allocatedQuantity as number;
    const locationId = probed.lines[0].allocations[0].locationId as number;
    await api('/Warehouse/Order/CancelOrder', { orderId: probe.orderId });

    // An order for three more than is free, allocated from the dashboard's bulk action: Backordered.
    const wanted = (await order(bko, free + 3)).data;
    await page.goto('/OrderDashboard');
    await listed(page);
    const row = rows(page).filter({ hasText: bko });
    await row.locator('.ant-checkbox-input').check();
    await page.locator('.bolx-table__batch').getByRole('button', { name: /^Allocate/ }).click();
    await page.locator('.ant-modal-content').waitFor();
    await shot(page, 'orders-allocate-answer-1440');
    await page.keyboard.press('Escape');
    await row.locator('.ant-tag[data-status="Backordered"]').waitFor();

    // /BKO lists the line, three short.
    await page.goto('/BKO');
    await listed(page);
    const waiting = rows(page).filter({ hasText: bko });
    await waiting.waitFor();
    await shot(page, 'backorders-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'backorders-390');

    // Three found at the place the stock is: the backorder is filled by itself, and the order is Allocated.
    await api('/Warehouse/Adjustment/CreateAdjustment', { warehouseId, customerId: sku.customerId, skuId: sku.skuId, locationId, lot: '', quantityChange: 3, reasonCode: 'FOUND' });
    await expect.poll(async () => (await (await page.request.get(`/Warehouse/Order/GetOrder?orderId=${wanted.orderId}`, { headers })).json()).status, { timeout: 20_000 }).toBe('Allocated');
    await page.reload();
    await listed(page).catch(() => undefined);
    expect(await rows(page).filter({ hasText: bko }).count()).toBe(0);
  });
});

