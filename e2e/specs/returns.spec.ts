import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rows } from '../support/lists.js';
import { RMA_SCREEN } from '@bolx/contracts';
import { apiAs, type Api } from '../support/api.js';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';

// Issue 15: the RMA screen's views, menu keys, warning and placeholder; the returns screens at 1440 and 390 px.
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

const pickWarehouse = async (name: string) => {
  await page.locator('.bolx-filters .ant-select').first().click();
  await page.keyboard.type(name);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option-active').filter({ hasText: name }).waitFor();
  await page.keyboard.press('Enter');
};

describe('returns screens', () => {
  it('/RMA: header and text, the warning without a client, the table by default, key 1 manual shipping, key 2 new RMA', async () => {
    await page.goto('/RMA');
    await page.getByTestId('rma-page').waitFor();
    await page.getByText(RMA_SCREEN.header).first().waitFor();
    await page.getByText(RMA_SCREEN.text).first().waitFor();
    // Every warehouse (0) and no client chosen: the spec's warning.
    await page.getByTestId('rma-warning').filter({ hasText: RMA_SCREEN.selectWarning }).waitFor();
    expect(await page.getByTestId('rma-page').getAttribute('data-view')).toBe('dashboard');
    await shot(page, 'rma-dashboard-1440');

    await page.getByTestId('rma-menu').getByText('Manual Shipping').click();
    expect(await page.getByTestId('rma-page').getAttribute('data-view')).toBe('manual');
    await page.getByTestId('rma-menu').getByText('New RMA').click();
    expect(await page.getByTestId('rma-page').getAttribute('data-view')).toBe('rma');
    await shot(page, 'rma-new-1440');
  });

  it('the returns desk, manual returns and the report at 1440 and 390 px', async () => {
    await pickWarehouse('Newark');
    for (const [path, id, name] of [['/Returns', 'returns-page', 'returns'], ['/ManualReturns', 'manual-returns-page', 'manual-returns'], ['/Return', 'return-report', 'return-report'], ['/RMA', 'rma-page', 'rma']] as const) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(path);
      await page.getByTestId(id).waitFor();
      await page.waitForTimeout(400);
      await shot(page, `${name}-1440`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(400);
      await shot(page, `${name}-390`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});


/** An Acme order of two units of one SKU, shipped through the real routes (allocated, picked, packed, ship confirm). */
async function shippedOrder(api: Api) {
  const stock = (await api('/Warehouse/Inventory/GetStockOnHand', { filters: {}, searchQuery: 'ACME-', pageNumber: 1, pageSize: 100 })).items as
    { warehouseId: number; warehouseName: string; customerId: number; customerName: string; skuId: number; skuCode: string; available: number }[];
  const sku = stock.find((r) => r.available >= 6)!;
  const { warehouseId, customerId } = sku;
  const made = await api('/Warehouse/Order/CreateOrder', {
    warehouseId, customerId, orderType: 'Sales', referenceNumber: `PO-E2E-RMA-${Date.now() % 100000}`, orderDate: '2026-11-20',
    shipToName: 'Return Sender', shipToAddress1: '5 Elm St', shipToCity: 'Boston', shipToState: 'MA', shipToZip: '02110', shipToCountry: 'US',
    lines: [{ skuId: sku.skuId, quantity: 2 }],
  });
  const order = made.data as { orderId: number; soNumber: string };
  await api('/Warehouse/Order/AllocateOrders', { orderIds: [order.orderId] });
  const wave = await api('/Warehouse/Wave/CreateWave', { warehouseId, orderIds: [order.orderId], strategy: 'discrete' });
  const jobs = await api('/Warehouse/PickJob/GetJobs', { filters: { waveId: wave.data.wave.waveId }, pageNumber: 1, pageSize: 10 });
  for (const { jobId } of jobs.items as { jobId: number }[]) {
    await api('/Warehouse/PickJob/AssignTotes', { jobId, totes: [{ slot: 1, toteCode: 'TOTE-019' }] });
    const job = await api(`/Warehouse/PickJob/GetJob?jobId=${jobId}`);
    for (const stop of job.stops as { seq: number; locationCode: string; skuCode: string; quantity: number }[]) {
      await api('/Warehouse/PickJob/ConfirmPick', { jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: stop.skuCode, quantity: stop.quantity });
    }
  }
  const types = await api('/Warehouse/Pack/GetCartonTypes', { filters: { warehouseId }, pageNumber: 1, pageSize: 10 });
  const opened = await api('/Warehouse/Pack/OpenCarton', { orderId: order.orderId, cartonTypeId: types.items[0].cartonTypeId });
  await api('/Warehouse/Pack/PackItem', { cartonId: opened.order.cartons.at(-1).cartonId, code: sku.skuCode, quantity: 2 });
  await api('/Warehouse/Pack/CloseCarton', { cartonId: opened.order.cartons.at(-1).cartonId, weightKg: 2 });
  const shipped = await api('/Warehouse/Ship/ConfirmShipment', { warehouseId, orderIds: [order.orderId] });
  expect(shipped.data.shipped).toHaveLength(1);
  return { ...order, sku, warehouseId, customerId };
}

const pickHeader = async (nth: number, name: string) => {
  await page.locator('.bolx-filters .ant-select').nth(nth).click();
  await page.keyboard.type(name);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: name }).first().click();
};

describe('the returns journey', () => {
  let attempt = 0;
  it('an RMA for a shipped order, received at the desk: one damaged unit to quarantine, one restocked; /Return shows both; then manual shipping from /RMA', async () => {
    // The replacement's receiver and tracking number, its own per attempt: CI's retry runs on the same server, where
    // the first attempt's replacement may be listed too.
    const replacement = { name: `Return Sender ${++attempt}`, tracking: `COURIER-E2E-${attempt}` };
    const api = await apiAs(page, DEMO.admin);
    const o = await shippedOrder(api);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/RMA');
    await page.getByTestId('rma-page').waitFor();
    await pickHeader(0, o.sku.warehouseName);
    await pickHeader(1, o.sku.customerName);
    await page.getByTestId('rma-warning').waitFor({ state: 'detached' });

    // Key 2: the new RMA view. Two units back, damaged.
    await page.getByTestId('rma-menu').getByText('New RMA').click();
    await page.getByTestId('rma-order-code').fill(o.soNumber);
    await page.getByTestId('rma-order-code').press('Enter');
    await page.getByLabel(`quantity ${o.sku.skuCode}`).fill('2');
    await shot(page, 'rma-new-order-1440');
    await page.getByTestId('create-rma').click();
    await page.locator('.Toastify__toast--success', { hasText: 'created for order' }).waitFor();
    const rma = (await api('/Warehouse/RMA/GetRmas', { filters: { customerId: o.customerId }, searchQuery: o.soNumber, pageNumber: 1, pageSize: 5 })).items[0] as { rmaId: number; rmaNumber: string };
    await rows(page).filter({ hasText: rma.rmaNumber }).waitFor();

    // The return label through the RMA table (a tracking number typed by hand): the RMA is In Transit.
    await page.getByTestId(`return-label-${rma.rmaNumber}`).click();
    await page.getByTestId('tracking-number').fill('1ZE2ERETURN');
    await shot(page, 'rma-return-label-1440');
    await page.getByRole('button', { name: 'Make Label' }).click();
    await page.locator('.Toastify__toast--success', { hasText: 'Return label' }).waitFor();
    await rows(page).filter({ hasText: rma.rmaNumber }).filter({ hasText: 'In Transit' }).waitFor();

    // An order waiting for the SKU: everything free of it allocated, one short (a probe order reads what is free).
    const order = async (referenceNumber: string, quantity: number) => (await api('/Warehouse/Order/CreateOrder', {
      warehouseId: o.warehouseId, customerId: o.customerId, orderType: 'Sales', referenceNumber, orderDate: '2026-11-20', lines: [{ skuId: o.sku.skuId, quantity }],
    })).data as { orderId: number; soNumber: string };
    const probe = await order(`PO-E2E-RMA-PROBE-${Date.now() % 100000}`, 90000);
    await api('/Warehouse/Order/AllocateOrders', { orderIds: [probe.orderId] });
    const free = (await api(`/Warehouse/Order/GetOrder?orderId=${probe.orderId}`)).lines[0].allocatedQuantity as number;
    await api('/Warehouse/Order/CancelOrder', { orderId: probe.orderId });
    const waitingRef = `PO-E2E-RMA-BKO-${Date.now() % 100000}`;
    const waiting = await order(waitingRef, free + 1);
    await api('/Warehouse/Order/AllocateOrders', { orderIds: [waiting.orderId] });
    const statusOf = async () => (await api(`/Warehouse/Order/GetOrder?orderId=${waiting.orderId}`)).status as string;
    expect(['Backordered', 'Partially Allocated']).toContain(await statusOf());

    // The desk, reached through the menu: the header keeps the client chosen on /RMA.
    await page.getByRole('link', { name: 'Returns', exact: true }).click();
    await page.getByTestId('returns-page').waitFor();
    await page.locator('.bolx-filters .ant-select').nth(1).filter({ hasText: o.sku.customerName }).waitFor();
    // Scan the RMA, receive the two units one by one into the returns location.
    await page.getByTestId('return-scan').fill(rma.rmaNumber);
    await page.getByTestId('return-scan').press('Enter');
    await page.getByTestId('rma-detail').waitFor();
    await page.getByTestId('rma-detail').locator('.ant-select', { has: page.getByLabel('returns location') }).first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'RETURNS-01' }).click();
    for (let i = 0; i < 2; i++) {
      await page.getByTestId('return-item-scan').fill(o.sku.skuCode);
      await page.getByTestId('return-receive').click();
      await rows(page.getByTestId('return-items')).nth(i).waitFor();
    }
    await shot(page, 'returns-received-1440');

    // Inspected in the browser: a photo of the damaged one (a screenshot is a real PNG), its condition, then the other as new.
    const items = rows(page.getByTestId('return-items'));
    const [damaged, good] = [items.nth(0), items.nth(1)];
    const chooseIn = async (row: typeof damaged, label: string, option: string | null) => {
      await row.locator('.ant-select', { has: page.getByLabel(label, { exact: true }) }).click();
      const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      await (option ? options.filter({ hasText: option }) : options).first().click();
      // The list closes (it fades out): the next choice must not land in this one.
      await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
    };
    const photo = await page.screenshot({ clip: { x: 0, y: 0, width: 320, height: 200 } });
    await damaged.locator('input[type=file]').setInputFiles({ name: 'crushed-box.png', mimeType: 'image/png', buffer: photo });
    await damaged.locator('img[alt="crushed-box.png"]').waitFor();
    await chooseIn(damaged, 'condition', 'Damaged');
    await damaged.getByRole('button', { name: 'Inspect' }).click();
    await damaged.locator('[data-status="Inspected"]').waitFor();
    await good.getByRole('button', { name: 'Inspect' }).click();
    await good.locator('[data-status="Inspected"]').waitFor();
    // The photo viewer: the thumbnail opens the photo larger.
    // The thumbnail's "View" mask takes the click, as it does a person's.
    await damaged.locator('.ant-image', { has: page.locator('img[alt="crushed-box.png"]') }).click();
    await page.locator('.ant-image-preview-img').waitFor();
    await page.waitForTimeout(400);
    await shot(page, 'returns-photo-1440');
    await page.keyboard.press('Escape');
    await page.locator('.ant-image-preview-img').waitFor({ state: 'hidden' });

    // Dispositions in the browser: the damaged one to quarantine, the other back into stock.
    await chooseIn(damaged, 'disposition', 'Quarantine');
    await chooseIn(damaged, 'disposition location', null);
    await damaged.getByRole('button', { name: 'Disposition' }).click();
    await damaged.locator('[data-status="Disposed"]').waitFor();
    await chooseIn(good, 'disposition location', null);
    await shot(page, 'returns-dispose-1440');
    await good.getByRole('button', { name: 'Disposition' }).click();
    await good.locator('[data-status="Disposed"]').waitFor();
    // Every unit disposed: the RMA is Closed, read-only, nothing left to receive.
    await page.getByTestId('rma-finished').waitFor();
    await expect.poll(statusOf, { timeout: 30_000 }).toBe('Allocated');

    // The backorder the restock filled: Allocated on the order dashboard.
    await page.goto('/OrderDashboard');
    await rows(page).filter({ hasText: waitingRef }).locator('.ant-tag[data-status="Allocated"]').waitFor();
    await shot(page, 'returns-backorder-filled-1440');
    // Given back, so the manual shipment below finds the SKU free.
    await api('/Warehouse/Order/CancelOrder', { orderId: waiting.orderId });

    // Scanned again at the desk, the closed RMA opens read-only with its state.
    await page.goto('/Returns');
    await page.getByTestId('return-scan').fill(rma.rmaNumber);
    await page.getByTestId('return-scan').press('Enter');
    await page.getByTestId('rma-finished').filter({ hasText: `${rma.rmaNumber} is Closed: nothing is left to receive on it` }).waitFor();
    expect(await page.getByTestId('return-item-scan').count()).toBe(0);
    await page.locator(`img[alt="crushed-box.png"]`).waitFor();
    await shot(page, 'returns-closed-rma-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(400);
    await shot(page, 'returns-closed-rma-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // /Return: the client's returns by disposition, and the SKU's return rate.
    await page.goto('/Return');
    await page.getByTestId('return-report').waitFor();
    await page.getByTestId('return-rate').getByText(o.sku.skuCode).waitFor();
    for (const disposition of ['Quarantine', 'Restock']) await page.getByTestId('return-report').locator('td', { hasText: disposition }).first().waitFor();
    await shot(page, 'return-report-journey-1440');

    // Manual shipping (menu key 1): a replacement for the RMA, from stock, with a typed tracking number.
    await page.goto('/RMA');
    await page.getByTestId('rma-page').waitFor();
    if (await page.getByTestId('rma-warning').isVisible()) await pickHeader(1, o.sku.customerName);
    // The RMA's row opens on what came back: conditions, dispositions, the photo's thumbnail (the RMA readers' route).
    await rows(page).filter({ hasText: rma.rmaNumber }).locator('.ant-table-row-expand-icon').click();
    await page.locator('.ant-table-expanded-row img[alt="crushed-box.png"]').waitFor();
    await shot(page, 'rma-returned-items-1440');
    await page.getByTestId('rma-menu').getByText('Manual Shipping').click();
    await page.getByTestId('manual-shipping').waitFor();
    await page.getByTestId('manual-stock-search').fill(o.sku.skuCode);
    await page.getByTestId('manual-stock-search').press('Enter');
    await page.getByRole('button', { name: new RegExp(`^add ${o.sku.skuCode} `) }).first().click();
    await rows(page.getByTestId('manual-lines')).first().waitFor();
    await page.getByLabel('Name').fill(replacement.name);
    await page.getByLabel('Address', { exact: true }).fill('5 Elm St');
    await page.getByLabel('City').fill('Boston');
    await page.getByLabel('Postal Code').fill('02110');
    await page.getByTestId('tracking-number').fill(replacement.tracking);
    await shot(page, 'rma-manual-1440');
    await page.getByTestId('manual-ship').click();
    await page.locator('.Toastify__toast--success', { hasText: 'shipped: 1 unit' }).waitFor();
    await rows(page.getByTestId('manual-shipments')).filter({ hasText: replacement.name }).waitFor();
    const shipments = await api('/Warehouse/RMA/GetManualShipments', { filters: { customerId: o.customerId }, searchQuery: '', pageNumber: 1, pageSize: 5 });
    expect(shipments.items[0]).toMatchObject({ kind: 'manual', status: 'Shipped', shipToName: replacement.name });
    await shot(page, 'rma-manual-shipped-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(400);
    await shot(page, 'rma-manual-390');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 240_000);
});
