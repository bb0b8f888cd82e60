import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { openTab, shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';

const DECODERS = existsSync('/usr/bin/zbarimg') && existsSync('/usr/bin/pdftoppm') && existsSync('/usr/bin/pdftotext');
if (!DECODERS) throw new Error('The shipping journey needs zbarimg (zbar-tools) and pdftoppm/pdftotext (poppler-utils)');

const demo = useDemoServer();
const tmp = mkdtempSync(join(tmpdir(), 'bolx-e2e-ship-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Api = (path: string, data?: unknown, method?: 'PUT') => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function apiAs(page: Page, [username, password]: readonly [string, string]): Promise<Api> {
  const login = await page.request.post('/Common/Auth/login', { data: { username, password } });
  const headers = { authorization: `Bearer ${(await login.json()).accesstoken}` };
  return async (path, data, method) => {
    const res = method ? await page.request.fetch(path, { method, headers, data }) : data === undefined ? await page.request.get(path, { headers }) : await page.request.post(path, { headers, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return res.json();
  };
}

const RATES = {
  currency: 'USD', dimDivisor: 5000, fuelSurchargeBp: 1250, residentialSurchargeMinor: 450,
  zones: [{ postalPrefix: '1', zone: 2 }, { postalPrefix: '9', zone: 8 }],
  services: [
    { code: 'GROUND', name: 'Ground', transitDays: 3, cutoff: '23:59', brackets: [{ maxKg: 10, pricesMinor: { 2: 1000, 8: 2000 } }, { maxKg: 30, pricesMinor: { 2: 2500, 8: 4000 } }] },
    { code: 'EXPRESS', name: 'Express', transitDays: 1, cutoff: '23:59', brackets: [{ maxKg: 30, pricesMinor: { 2: 4000, 8: 6000 } }] },
  ],
};

/** The carrier accounts the journey made, attempt by attempt. */
const accountsMade: { id: number; fields: { accountName: string; properties: { propertyId: number; value: string }[] } }[] = [];

/**
 * Two orders of a demo client with a rate-table carrier account, packed through the real routes (released as a
 * wave, picked stop by stop, packed into one carton each): what the shipping desk finds waiting.
 */
async function packedOrders(api: Api, accountName: string) {
  // The accounts earlier attempts made (CI's retry runs on the same server) are switched off first: the rate shop
  // takes the cheapest service of the client's active accounts, theirs price the same, and a tie goes to the older.
  for (const old of accountsMade.splice(0)) await api(`/Warehouse/Customer/UpdateIntegrationCarrier?CarrierCustomerId=${old.id}`, { ...old.fields, isActive: false }, 'PUT');

  const stock = (await api('/Warehouse/Inventory/GetStockOnHand', { filters: {}, searchQuery: 'FJE-100', pageNumber: 1, pageSize: 50 })).items as
    { warehouseId: number; warehouseName: string; customerId: number; skuId: number; available: number }[];
  const skus = [...new Map(stock.filter((r) => r.available >= 2).map((r) => [r.skuId, r])).values()].slice(0, 2);
  expect(skus.length).toBe(2);
  const { warehouseId, warehouseName, customerId } = skus[0];

  // A carrier account of a type the client has none of yet, priced from a rate table.
  const carriers = await api(`/Warehouse/Customer/GetAllCustomerCarrier?customerId=${customerId}`);
  const used = new Set((carriers.items as { integrationId: number }[]).map((i) => i.integrationId));
  const type = (carriers.integrations as { integrationId: number; integrationName: string }[]).find((i) => !used.has(i.integrationId))!;
  const props = await api(`/Warehouse/Customer/GetCarrierIntegrationProperties?integrationId=${type.integrationId}`) as { uniqueid: number; propertyKey: string }[];
  const fields = { accountName, properties: props.map((p) => ({ propertyId: p.uniqueid, value: `e2e-${p.propertyKey}` })) };
  const account = await api('/Warehouse/Customer/CreateIntegrationCarrier', { customerId, integrationId: type.integrationId, ...fields });
  const carrierAccountId: number = account.data.uniqueid;
  accountsMade.push({ id: carrierAccountId, fields });
  await api('/Warehouse/Shipping/SaveRateTable', { carrierAccountId, definition: RATES });

  const orders: { orderId: number; soNumber: string }[] = [];
  for (const [i, sku] of skus.entries()) {
    const made = await api('/Warehouse/Order/CreateOrder', {
      warehouseId, customerId, orderType: 'Sales', referenceNumber: `PO-E2E-SHIP-${i + 1}-${Date.now() % 100000}`, orderDate: '2026-11-20', carrierAccountId,
      shipToName: `Parcel Receiver ${i + 1}`, shipToAddress1: '1 Main St', shipToCity: 'New York', shipToState: 'NY', shipToZip: '10001', shipToCountry: 'US',
      lines: [{ skuId: sku.skuId, quantity: 1 }],
    });
    orders.push(made.data);
  }
  await api('/Warehouse/Order/AllocateOrders', { orderIds: orders.map((o) => o.orderId) });
  const wave = await api('/Warehouse/Wave/CreateWave', { warehouseId, orderIds: orders.map((o) => o.orderId), strategy: 'discrete' });
  const jobs = await api('/Warehouse/PickJob/GetJobs', { filters: { waveId: wave.data.wave.waveId }, pageNumber: 1, pageSize: 10 });
  for (const [j, { jobId }] of (jobs.items as { jobId: number }[]).entries()) {
    await api('/Warehouse/PickJob/AssignTotes', { jobId, totes: [{ slot: 1, toteCode: `TOTE-01${j}` }] });
    const job = await api(`/Warehouse/PickJob/GetJob?jobId=${jobId}`);
    for (const stop of job.stops as { seq: number; locationCode: string; skuCode: string; lot: string; quantity: number }[]) {
      await api('/Warehouse/PickJob/ConfirmPick', { jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: stop.skuCode, ...(stop.lot ? { lot: stop.lot } : {}), quantity: stop.quantity });
    }
  }
  const types = await api('/Warehouse/Pack/GetCartonTypes', { filters: { warehouseId }, pageNumber: 1, pageSize: 10 });
  for (const o of orders) {
    const opened = await api('/Warehouse/Pack/OpenCarton', { orderId: o.orderId, cartonTypeId: types.items[0].cartonTypeId });
    const cartonId = opened.order.cartons.at(-1).cartonId;
    for (const line of opened.order.lines as { skuCode: string; lot?: string; pickedQuantity: number }[]) {
      await api('/Warehouse/Pack/PackItem', { cartonId, code: line.skuCode, ...(line.lot ? { lot: line.lot } : {}), quantity: line.pickedQuantity });
    }
    await api('/Warehouse/Pack/CloseCarton', { cartonId, weightKg: 2.5 });
  }
  return { warehouseName, orders };
}

/** A downloaded PDF's text and the Code 128 values on its first pages, read at 200 dpi. */
async function readPdf(download: Download, name: string): Promise<{ text: string; codes: string[] }> {
  const dir = mkdtempSync(join(tmp, `${name}-`));
  const pdf = join(dir, 'doc.pdf');
  await download.saveAs(pdf);
  execFileSync('pdftoppm', ['-r', '200', '-f', '1', '-l', '4', '-png', pdf, join(dir, 'page')]);
  const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).map((f) => join(dir, f));
  let out = '';
  try {
    out = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Scode128.enable', ...pages], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? '');
  }
  return { text: execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }), codes: out.split('\n').filter(Boolean) };
}

/** The administrator's header says All Warehouses: the dashboard asks which one (a day is closed per warehouse). */
async function chooseWarehouse(page: Page, name: string) {
  await page.locator('.bolx-shipping__warehouse').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).first().click();
}

describe('parcel shipping', () => {
  let attempt = 0;
  it('packs two orders, rate-shops one and labels it, bulk-labels the other, ships both and closes the day; labels and manifest read back; 1440 and 390 px', async () => {
    const page = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    const api = await apiAs(page, DEMO.admin);
    // A carrier account of its own per attempt: CI's retry runs on the same server, where the first attempt's account
    // has its shipments and its closed day's manifest too.
    const account = `E2E Parcel ${++attempt}`;
    const { warehouseName, orders } = await packedOrders(api, account);
    const tracking = async (soNumber: string) => ((await api('/Warehouse/Shipping/GetShipments', { searchQuery: '', filters: {}, pageSize: 100 })).items as { soNumber: string; shipmentId: number }[])
      .find((s) => s.soNumber === soNumber);

    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page, { warehouse: warehouseName });
    await page.goto('/ShippingDashboard');
    await page.getByRole('heading', { name: 'Shipping Dashboard' }).first().waitFor();
    await chooseWarehouse(page, warehouseName);
    const group = page.getByTestId('carrier-group').filter({ hasText: account });
    await group.getByText(orders[1].soNumber).waitFor();
    await group.getByText('Cut-off 23:59').waitFor();
    await shot(page, 'shipping-waiting-1440');

    // Rate shop the first: Ground is the cheapest; label with it and the label PDF downloads.
    const row = (so: string) => group.locator('.ant-table-tbody tr.ant-table-row', { hasText: so });
    await row(orders[0].soNumber).getByTestId('rate-one').click();
    await page.getByTestId('rate-reason').getByText('Cheapest service').waitFor();
    await shot(page, 'shipping-rate-shop-1440');
    const [label] = await Promise.all([page.waitForEvent('download'), page.getByTestId('label-with').click()]);
    const first = await readPdf(label, 'label-1');
    const firstShipment = await api(`/Warehouse/Shipping/GetShipment?shipmentId=${(await tracking(orders[0].soNumber))!.shipmentId}`);
    expect(first.codes).toEqual(firstShipment.trackingNumbers);
    expect(first.text).toContain('Parcel Receiver 1');
    expect(first.text).toContain('Ground');

    // The second through the bulk action.
    await row(orders[1].soNumber).locator('.ant-checkbox-input').check();
    const [bulk] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bulk-label-print').click()]);
    const second = await readPdf(bulk, 'label-2');
    const secondShipment = await api(`/Warehouse/Shipping/GetShipment?shipmentId=${(await tracking(orders[1].soNumber))!.shipmentId}`);
    expect(second.codes).toEqual(secondShipment.trackingNumbers);

    // Both labelled: ship them together.
    for (const o of orders) await row(o.soNumber).getByText('Labelled').waitFor();
    for (const o of orders) await row(o.soNumber).locator('.ant-checkbox-input').check();
    await shot(page, 'shipping-labelled-1440');
    await page.getByTestId('bulk-ship').click();
    await page.locator('.Toastify__toast--success', { hasText: '2 shipments shipped' }).waitFor();
    await page.getByRole('tab', { name: /Shipped today/ }).click();
    for (const o of orders) await page.getByTestId('shipped-today').getByText(o.soNumber).waitFor();
    await shot(page, 'shipping-shipped-1440');

    // End of day: the account's two shipments on one manifest, downloaded as PDF.
    await page.getByRole('tab', { name: 'End of day' }).click();
    const card = page.getByTestId('close-card').filter({ hasText: account });
    await card.getByText('2 shipments · 2 packages').waitFor();
    await shot(page, 'shipping-close-1440');
    await card.getByTestId('close-day').click();
    const [manifest] = await Promise.all([page.waitForEvent('download'), page.locator('.ant-popconfirm').getByRole('button', { name: 'Close day' }).click()]);
    const read = await readPdf(manifest, 'manifest');
    for (const tn of [...firstShipment.trackingNumbers, ...secondShipment.trackingNumbers]) expect(read.text).toContain(tn);
    expect(read.text).toMatch(/Totals: 2 shipments, 2 packages/);
    await page.getByTestId('manifests').getByText(account).waitFor();
    await shot(page, 'shipping-manifests-1440');
    expect((await api(`/Warehouse/Shipping/GetShipment?shipmentId=${firstShipment.shipmentId}`)).status).toBe('Closed');

    // The handheld width: the same screen, tables scrolling inside their cards.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/ShippingDashboard');
    await chooseWarehouse(page, warehouseName);
    await page.getByTestId('shipping-dashboard').waitFor();
    await shot(page, 'shipping-waiting-390');
    // Five tabs do not fit 390 px: antd moves the last ones into the bar's "more" menu.
    await openTab(page, 'End of day');
    await page.getByTestId('manifests').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'shipping-close-390');
  }, 180_000);
});
