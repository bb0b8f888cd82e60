import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';
import { listed, rows } from '../support/lists.js';

const demo = useDemoServer();

const drawer = (page: Page) => page.locator('.ant-drawer-content').last();
const dropdown = (page: Page) => page.locator('.ant-select-dropdown:visible');
const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify__toast--success').filter({ hasText: text }).first();

/**
 * Picks an option of a Select in the open drawer by its label: types the search, waits until the match is the
 * active option and takes it with Enter (a click can land on a list the server search is re-rendering).
 */
async function choose(page: Page, label: string, search: string) {
  await drawer(page).getByLabel(label, { exact: true }).click();
  await page.keyboard.type(search);
  await dropdown(page).locator('.ant-select-item-option-active').filter({ hasText: search }).waitFor();
  await page.keyboard.press('Enter');
  await dropdown(page).waitFor({ state: 'hidden' });
}

describe('inbound: receiving orders, receipts at the dock, putaway and the RO reports', () => {
  // Names of their own per attempt: CI's retry runs on the same server, where the first attempt's are taken (a
  // pallet, a username, a SKU code) or found twice (a supplier, a reference).
  const attempts = { admin: 0, receiver: 0, expired: 0 };
  it('an admin creates an RO, receives it with a pallet at the dock (a lot is refused for a SKU that tracks none), puts it away where suggested, finalizes, and the reports show it', async () => {
    const run = ++attempts.admin;
    const [uploader, pallet] = [`E2E Upload Co ${run}`, `PLT-E2E-${run}`];
    const page = await demo.newPage();
    // Every stock-moving call carries its own Idempotency-Key, so a double submit never posts twice.
    const keys: string[] = [];
    page.on('request', (req) => {
      if (/\/Warehouse\/Receiving\/(ReceiveItem|Putaway)$/i.test(new URL(req.url()).pathname)) keys.push(req.headers()['idempotency-key'] ?? '');
    });
    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page);

    // The list: seeded ROs with their status tags, filters and paging.
    await page.goto('/InBound');
    await listed(page);
    expect(await page.locator('.ant-table-tbody .ant-tag[data-status]').count()).toBeGreaterThan(0);
    await shot(page, 'inbound-list');

    // Upload from CSV: a bad row refuses the file and names the row; a good file creates the RO.
    await page.getByRole('button', { name: 'Upload RO' }).click();
    await drawer(page).getByLabel('Supplier', { exact: true }).waitFor();
    await choose(page, 'Warehouse', 'Ontario West Coast DC');
    await choose(page, 'Client', 'Fjord Electronics');
    const file = drawer(page).locator('input[type=file]');
    const csv = (sku: string) => Buffer.from(`Supplier,Expected Delivery Date,Reference Number,SKU,Expected Quantity\n${uploader},2026-12-20,PO-UP-${run},FJE-1002,5\n${uploader},2026-12-20,PO-UP-${run},${sku},3\n`);
    await file.setInputFiles({ name: 'ro.csv', mimeType: 'text/csv', buffer: csv('NOPE-1') });
    await drawer(page).getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-errors').filter({ hasText: "No SKU of this client matches 'NOPE-1'" }).waitFor();
    expect(await page.getByTestId('upload-errors').locator('tr.ant-table-row').first().innerText()).toMatch(/^3\s+SKU/);
    await shot(page, 'inbound-upload-errors');
    await file.setInputFiles({ name: 'ro.csv', mimeType: 'text/csv', buffer: csv('FJE-1003') });
    await drawer(page).getByRole('button', { name: 'Upload', exact: true }).click();
    await toast(page, /uploaded successfully/).waitFor();
    await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
    await rows(page).filter({ hasText: uploader }).waitFor();

    // Create: warehouse, client, supplier, expected delivery date, reference and one SKU line.
    await page.getByRole('button', { name: 'New Receiving Order' }).click();
    await drawer(page).getByLabel('Supplier', { exact: true }).waitFor();
    await choose(page, 'Warehouse', 'Ontario West Coast DC');
    await choose(page, 'Client', 'Fjord Electronics');
    await drawer(page).getByLabel('Supplier', { exact: true }).fill('E2E Nordic Audio');
    await drawer(page).getByLabel('Expected Delivery Date', { exact: true }).click();
    await page.keyboard.type('2026-12-15');
    await page.keyboard.press('Enter');
    await drawer(page).getByLabel('Reference Number', { exact: true }).fill(`PO-E2E-${run}`);
    await choose(page, 'SKU', 'FJE-1001');
    await drawer(page).getByLabel('Expected Quantity', { exact: true }).fill('12');
    await shot(page, 'inbound-create');
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await toast(page, /Receiving order RO-\d{6} created successfully/).waitFor();

    // The new RO's detail opens with the scanner station focused.
    await page.locator('.bolx-ro-detail').waitFor();
    const roNumber = (await page.locator('.bolx-ro-detail__title').innerText()).trim();
    expect(roNumber).toMatch(/^RO-\d{6}$/);
    expect(await page.locator('.bolx-ro-detail__titlebar [data-status]').innerText()).toBe('Open');
    const scan = page.getByTestId('scan-input');
    await expect.poll(() => scan.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => page.locator('.bolx-ro-receive .ant-select-selection-item').first().innerText()).toContain('DOCK-01');

    // An unknown code: a clear failure, and the scan box keeps the focus for the next try.
    await scan.fill('NOPE-404');
    await scan.press('Enter');
    await page.getByTestId('receive-feedback').locator('.ant-alert-error').filter({ hasText: "No SKU of Fjord Electronics matches 'NOPE-404'" }).waitFor();
    await expect.poll(() => scan.evaluate((el) => el === document.activeElement)).toBe(true);

    // Fjord Electronics tracks no lots: a lot is refused, naming what to do, and nothing is received.
    await page.getByLabel('Good Quantity', { exact: true }).fill('12');
    await page.getByLabel('Lot', { exact: true }).fill('L-E2E-01');
    await scan.fill('FJE-1001');
    await scan.press('Enter');
    await page.getByTestId('receive-feedback').locator('.ant-alert-error').filter({ hasText: 'SKU FJE-1001 does not track lots: leave the lot empty' }).waitFor();
    expect(await page.locator('.bolx-ro-detail__titlebar [data-status]').innerText()).toBe('Open');
    await page.getByLabel('Lot', { exact: true }).fill('');

    // Receive 12 good units on a pallet into the dock; Enter in the scan box posts it.
    await page.getByLabel('Pallet', { exact: true }).fill(pallet);
    await scan.fill('FJE-1001');
    await scan.press('Enter');
    await page.getByTestId('receive-feedback').locator('.ant-alert-success').filter({ hasText: 'Received 12 good of FJE-1001 into DOCK-01' }).waitFor();
    expect(await scan.inputValue()).toBe('');
    await expect.poll(() => scan.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => page.locator('.bolx-ro-detail__titlebar [data-status]').innerText()).toBe('Receiving');
    const line = page.locator('.bolx-ro-detail__lines tr.ant-table-row').first();
    await expect.poll(() => line.innerText()).toMatch(/FJE-1001[\s\S]*12\s+12\s+0\s+0\s+0\s+0\s+12/);
    await shot(page, 'inbound-receive');

    // Put away: the pallet waiting at the dock, to the first suggested location.
    await page.getByRole('tab', { name: 'Put Away' }).click();
    const suggestion = page.getByTestId('putaway-suggestion').first();
    await suggestion.waitFor();
    const target = (await suggestion.locator('strong').innerText()).trim();
    expect(await page.locator('.bolx-ro-putaway').innerText()).toContain(pallet);
    await shot(page, 'inbound-putaway');
    await page.locator('.bolx-ro-putaway').getByRole('button', { name: 'Put Away' }).click();
    await page.getByTestId('putaway-feedback').locator('.ant-alert-success').filter({ hasText: `Put away 12 units of FJE-1001 to ${target}` }).waitFor();
    await expect.poll(() => line.innerText()).toMatch(/12\s+0\s*$/);

    expect(keys.length).toBe(4); // the refused scan, the refused lot, the receipt, the putaway
    expect(keys.every((k) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(k))).toBe(true);
    expect(new Set(keys).size).toBe(4);

    // Finalize with its confirmation: everything is put away, so the RO closes.
    await page.getByRole('button', { name: 'Finalize' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Finalize' }).click();
    await toast(page, `Receiving order ${roNumber} finalized`).waitFor();
    await expect.poll(() => page.locator('.bolx-ro-detail__titlebar [data-status]').innerText()).toMatch(/Received|Closed/);
    await page.getByRole('tab', { name: /^Putaways/ }).click();
    await page.locator('.bolx-ro-detail__history tr.ant-table-row').filter({ hasText: target }).waitFor();
    await shot(page, 'inbound-finalized');

    // The RO summary report shows it, searched by its number.
    await page.goto('/ROReport');
    await listed(page);
    await page.locator('.bolx-table__card').getByPlaceholder(/^Search/).fill(roNumber);
    await rows(page).filter({ hasText: roNumber }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain('E2E Nordic Audio');
    await shot(page, 'inbound-ro-report');

    await page.goto('/ROReportDetails');
    await listed(page);
    await shot(page, 'inbound-ro-report-details');

    await page.goto('/ROInward');
    await rows(page).filter({ hasText: pallet }).first().waitFor();
    await shot(page, 'inbound-ro-inward');

    // /InboundReports on the report pattern: the orders per status now (this one finalized among them), the lists below.
    await page.goto('/InboundReports');
    await page.getByText('Receiving orders by status · now').waitFor();
    const statusRow = (status: string) => rows(page).filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${status}$`) }) });
    await statusRow('Open').waitFor();
    expect(await statusRow('Open').locator('td').nth(1).innerText()).toMatch(/^\d+$/);
    expect(Number((await statusRow('Received').locator('td').nth(1).innerText()).replace(/\D/g, '')) + Number((await statusRow('Closed').locator('td').nth(1).innerText()).replace(/\D/g, ''))).toBeGreaterThan(0);
    await page.getByTestId('report-chart').locator('canvas').waitFor();
    await page.locator('.bolx-inbound-reports__card').first().waitFor();
    await shot(page, 'inbound-reports-hub');
    await page.close();
  });

  it('editing an open RO shows its lines with their SKUs and quantities, and Save keeps them', async () => {
    const page = await demo.newPage();
    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page);
    await page.goto('/InBound');
    await listed(page);
    // Not an uploaded order: the first journey's.
    await rows(page).filter({ has: page.locator('[data-status="Open"]'), hasNotText: 'E2E Upload Co' }).first().locator('a').first().click();
    await page.locator('.bolx-ro-detail').waitFor();
    const lineRows = page.locator('.bolx-ro-detail__lines tr.ant-table-row');
    await lineRows.first().waitFor();
    const lines = await lineRows.evaluateAll((trs) => trs.map((tr) => {
      const cells = Array.from(tr.querySelectorAll('td')).map((td) => (td as HTMLElement).innerText.trim());
      return { sku: cells[1].split('\n')[0], expected: cells[2].replace(/\D/g, '') };
    }));
    expect(lines.length).toBeGreaterThan(1);

    await page.getByRole('button', { name: 'Edit' }).click();
    const form = drawer(page);
    await form.getByLabel('Supplier', { exact: true }).waitFor();
    // Every existing line shows its SKU and its expected quantity, none blank.
    const shown = form.locator('.bolx-ro-form__line');
    await expect.poll(() => shown.count()).toBe(lines.length);
    for (const [i, line] of lines.entries()) {
      expect(await shown.nth(i).locator('.ant-select-selection-item').innerText()).toContain(line.sku);
      expect(await shown.nth(i).locator('input.ant-input-number-input').inputValue()).toBe(line.expected);
    }
    await shot(page, 'inbound-edit');

    // Change the last line's quantity and save: the order keeps every line, with the new figure.
    const qty = shown.last().locator('input.ant-input-number-input');
    await qty.fill('77');
    await form.getByRole('button', { name: 'Save' }).click();
    await toast(page, /Receiving order RO-\d{6} updated successfully/).waitFor();
    await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
    await expect.poll(() => lineRows.count()).toBe(lines.length);
    await expect.poll(() => lineRows.last().locator('td').nth(2).innerText()).toBe('77');
    await page.close();
  });

  it('a hardware scanner receives carton after carton: lot and expiry clear after each receipt unless pinned', async () => {
    const page = await demo.newPage();
    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page);
    // An RO of two lot-tracked SKUs of Cascade Pet Supply at Ontario, made through the API.
    const roId = await page.evaluate(async () => {
      const headers = { authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}`, 'content-type': 'application/json' };
      const { warehouseData, customerData } = await (await fetch('/Common/UserModule/GetWarehouseClient', { headers })).json();
      const warehouseId = warehouseData.find((w: { warehouseName: string }) => w.warehouseName === 'Ontario West Coast DC').warehouseId;
      const customerId = customerData.find((c: { customerName: string; warehouseId: number }) => c.customerName === 'Cascade Pet Supply' && c.warehouseId === warehouseId).customerId;
      const skus = await (await fetch('/warehouse/Sku/GetAllSkus', { method: 'POST', headers, body: JSON.stringify({ filters: { customerId }, searchQuery: 'CPS-100', pageNumber: 1, pageSize: 50 }) })).json();
      const skuId = (code: string) => skus.items.find((x: { skuCode: string }) => x.skuCode === code).skuId;
      const res = await fetch('/Warehouse/Receiving/CreateReceivingOrder', {
        method: 'POST', headers,
        body: JSON.stringify({ warehouseId, customerId, supplier: 'E2E Scanner Co', expectedDeliveryDate: '2026-12-20',
          lines: [{ skuId: skuId('CPS-1004'), expectedQuantity: 10 }, { skuId: skuId('CPS-1005'), expectedQuantity: 10 }] }),
      });
      return (await res.json()).data.receivingOrderId as number;
    });
    await page.goto(`/InBound?roid=${roId}`);
    await page.locator('.bolx-ro-detail').waitFor();
    const scan = page.getByTestId('scan-input');
    const lot = page.getByLabel('Lot', { exact: true });
    const expiry = page.getByLabel('Expiry Date', { exact: true });
    const feedback = page.getByTestId('receive-feedback');
    await expect.poll(() => scan.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => page.locator('.bolx-ro-receive .ant-select-selection-item').first().innerText()).toContain('DOCK-01');
    /** What a scanner does: types the code into the focused box and sends Enter. */
    const scanCode = async (code: string) => {
      await expect.poll(() => scan.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    };

    // Carton 1: its lot and expiry typed, then scanned. After the receipt both are cleared for the next carton.
    await lot.fill('L-SCAN-A');
    await expiry.fill('2027-06-30');
    await scan.click();
    await scanCode('CPS-1004');
    await feedback.locator('.ant-alert-success').filter({ hasText: 'CPS-1004' }).waitFor();
    expect(await lot.inputValue()).toBe('');
    expect(await expiry.inputValue()).toBe('');
    expect(await scan.inputValue()).toBe('');

    // Carton 2, a wrong code: nothing received, its lot and expiry stay for the corrected scan.
    await lot.fill('L-SCAN-B');
    await expiry.fill('2027-07-31');
    await scan.click();
    await scanCode('NOPE-404');
    await feedback.locator('.ant-alert-error').filter({ hasText: 'NOPE-404' }).waitFor();
    expect(await lot.inputValue()).toBe('L-SCAN-B');
    expect(await expiry.inputValue()).toBe('2027-07-31');

    // Pin the lot (the scan box takes the focus back), then two cartons of that lot: the lot stays, the expiry clears.
    const pinLot = page.getByRole('button', { name: 'Pin Lot' });
    expect(await pinLot.getAttribute('aria-pressed')).toBe('false');
    await pinLot.click();
    expect(await pinLot.getAttribute('aria-pressed')).toBe('true');
    await scanCode('CPS-1005'); // the wrong code is still selected in the box: the scan replaces it
    await feedback.locator('.ant-alert-success').filter({ hasText: 'CPS-1005' }).waitFor();
    expect(await lot.inputValue()).toBe('L-SCAN-B');
    expect(await expiry.inputValue()).toBe('');
    await shot(page, 'inbound-scan-pinned');
    await expiry.fill('2027-07-31');
    await scan.click();
    await scanCode('CPS-1005');
    await expect.poll(() => page.locator('.bolx-ro-detail__lines tr.ant-table-row').last().innerText()).toMatch(/CPS-1005[\s\S]*10\s+2\s/);
    expect(await lot.inputValue()).toBe('L-SCAN-B');

    // Unpinned again, the next receipt clears the lot too.
    await page.getByRole('button', { name: 'Pin Lot' }).click();
    expect(await pinLot.getAttribute('aria-pressed')).toBe('false');
    await expiry.fill('2027-07-31');
    await scan.click();
    await scanCode('CPS-1005');
    await expect.poll(() => page.locator('.bolx-ro-detail__lines tr.ant-table-row').last().innerText()).toMatch(/CPS-1005[\s\S]*10\s+3\s/);
    await expect.poll(() => lot.inputValue()).toBe('');

    // What was posted: each receipt carries the lot and expiry of its own carton, never the one before.
    const postedReceipts = () => page.evaluate(async (id) => {
      const headers = { authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}` };
      const order = await (await fetch(`/Warehouse/Receiving/GetReceivingOrderById?receivingOrderId=${id}`, { headers })).json();
      return (order.receipts as { skuCode: string; lot: string; expiryDate: string | null; receiptId: number }[])
        .sort((a, b) => a.receiptId - b.receiptId).map((r) => `${r.skuCode} ${r.lot} ${r.expiryDate}`);
    }, roId);
    const firstFour = ['CPS-1004 L-SCAN-A 2027-06-30', 'CPS-1005 L-SCAN-B 2027-07-31', 'CPS-1005 L-SCAN-B 2027-07-31', 'CPS-1005 L-SCAN-B 2027-07-31'];
    expect(await postedReceipts()).toEqual(firstFour);

    // A burst, as a scanner sends it: three codes and Enters without waiting for the answers. None is dropped:
    // the ones that arrive while a receipt is posting wait their turn, each with the lot it was scanned with.
    await page.getByRole('button', { name: 'Pin Lot' }).click();
    await page.getByRole('button', { name: 'Pin Expiry Date' }).click();
    await lot.fill('L-BURST');
    await expiry.fill('2027-08-31');
    await scan.click();
    for (let n = 0; n < 3; n++) {
      await page.keyboard.type('CPS-1004');
      await page.keyboard.press('Enter');
    }
    // Three receipts post one after another: give them more than the poll's default second on a busy machine.
    await expect.poll(() => postedReceipts(), { timeout: 15_000 }).toEqual([...firstFour, ...Array(3).fill('CPS-1004 L-BURST 2027-08-31')]);
    await expect.poll(() => page.getByTestId('scans-waiting').count()).toBe(0);
    expect(await scan.inputValue()).toBe('');

    // The same code again, typed while the receipt before it is posting and entered after its answer: the answer
    // leaves the box alone (it used to clear a box holding the code just received, and that scan was lost).
    let answer!: () => void;
    const held = new Promise<void>((resolve) => { answer = resolve; });
    await page.route('**/ReceiveItem', async (route) => { await held; await route.continue(); });
    await page.keyboard.type('CPS-1004');
    await page.keyboard.press('Enter');
    await page.keyboard.type('CPS-1004');
    const answered = page.waitForResponse((r) => r.url().includes('/ReceiveItem'));
    answer();
    await answered;
    await expect.poll(() => page.locator('.bolx-ro-receive .ant-btn-primary .anticon-loading').count()).toBe(0);
    expect(await scan.inputValue()).toBe('CPS-1004');
    await page.unroute('**/ReceiveItem');
    await page.keyboard.press('Enter');
    await expect.poll(() => postedReceipts(), { timeout: 15_000 }).toEqual([...firstFour, ...Array(5).fill('CPS-1004 L-BURST 2027-08-31')]);
    expect(await scan.inputValue()).toBe('');
    await page.close();
  });

  it('a receiver without the Location module still picks a dock and receives', async () => {
    const run = ++attempts.receiver;
    const [username, supplier] = [`receiver${run}`, `E2E Receiver Co ${run}`];
    // The admin makes a Warehouse Staff user holding InBound (write) and Dashboard only: no Location module; and an
    // RO of two Fjord Electronics lines for them to receive (8 units).
    const admin = await demo.newPage();
    await signIn(admin, ...DEMO.admin);
    await landOnDashboard(admin);
    const created = await admin.evaluate(async ({ username, supplier }) => {
      const headers = { authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}`, 'content-type': 'application/json' };
      const { warehouseData, customerData } = await (await fetch('/Common/UserModule/GetWarehouseClient', { headers })).json();
      const warehouseId = warehouseData.find((w: { warehouseName: string }) => w.warehouseName === 'Ontario West Coast DC').warehouseId;
      const customerId = customerData.find((c: { customerName: string; warehouseId: number }) => c.customerName === 'Fjord Electronics' && c.warehouseId === warehouseId).customerId;
      type Node = { moduleId: number; moduleKey: string; childModules: Node[] };
      const options = await (await fetch('/Warehouse/User/GetModuleWarehouseUsers', { headers })).json();
      const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.childModules)]);
      const wms = flatten(options.modules.find((a: { appId: number }) => a.appId === 1).modules);
      const id = (key: string) => wms.find((m) => m.moduleKey === key)!.moduleId;
      const res = await fetch('/Warehouse/User/CreateUser', {
        method: 'POST', headers,
        body: JSON.stringify({ username, email: `${username}@example.com`, firstName: 'Rae', lastName: 'Receiver', usertype: 'Warehouse Staff',
          warehouses: [warehouseId], customers: [customerId], modules: [{ moduleId: id('InBound'), permission: 'write' }, { moduleId: id('Dashboard'), permission: 'read' }],
          password: 'receiver-pass-1', confirmPassword: 'receiver-pass-1' }),
      });
      const skus = await (await fetch('/warehouse/Sku/GetAllSkus', { method: 'POST', headers, body: JSON.stringify({ filters: { customerId }, searchQuery: 'FJE-100', pageNumber: 1, pageSize: 50 }) })).json();
      const skuId = (code: string) => skus.items.find((x: { skuCode: string }) => x.skuCode === code).skuId;
      const ro = await fetch('/Warehouse/Receiving/CreateReceivingOrder', {
        method: 'POST', headers,
        body: JSON.stringify({ warehouseId, customerId, supplier, expectedDeliveryDate: '2026-12-20',
          lines: [{ skuId: skuId('FJE-1002'), expectedQuantity: 5 }, { skuId: skuId('FJE-1003'), expectedQuantity: 3 }] }),
      });
      return [res.status, ro.status];
    }, { username, supplier });
    expect(created).toEqual([200, 200]);
    await admin.context().close();

    const page = await demo.newPage();
    await signIn(page, username, 'receiver-pass-1');
    await landOnDashboard(page);
    await page.goto('/InBound');
    await listed(page);
    await rows(page).filter({ hasText: supplier }).locator('a').first().click();
    await page.locator('.bolx-ro-detail').waitFor();
    // The docks come from the receiving module's own read; the Location module's list is closed to this user.
    await expect.poll(() => page.locator('.bolx-ro-receive .ant-select-selection-item').first().innerText()).toContain('DOCK-01');
    const other = await page.evaluate(async () => (await fetch('/Warehouse/Location/GetOtherLocations', {
      method: 'POST', headers: { authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}`, 'content-type': 'application/json' }, body: '{}',
    })).status);
    expect(other).toBe(403);
    await page.locator('.bolx-ro-receive .ant-select').first().click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    // Polled: the list is measured and filled while the dropdown opens.
    await expect.poll(() => options.allInnerTexts()).toEqual(['DOCK-01 (dock)', 'DOCK-02 (dock)', 'PACK-01 (staging)', 'STAGE-01 (staging)']);
    await shot(page, 'inbound-receiver-docks');
    await page.keyboard.press('Escape');
    const scan = page.getByTestId('scan-input');
    await page.getByLabel('Good Quantity', { exact: true }).fill('2');
    await scan.fill('FJE-1002');
    await scan.press('Enter');
    await page.getByTestId('receive-feedback').locator('.ant-alert-success').filter({ hasText: 'Received 2 good of FJE-1002 into DOCK-01' }).waitFor();
    await shot(page, 'inbound-receiver-received');

    // The rest as expected, in one request: the confirmation says what arrives; put away at once and finalized
    // (the 2 scanned units still wait at the dock, so the order is finalized, not yet closed).
    const roNumber = (await page.locator('.bolx-ro-detail__title').innerText()).trim();
    await page.getByRole('button', { name: 'Receive as Expected' }).click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.filter({ hasText: '2 lines (6 units) arrive as the order expects them' }).waitFor();
    await expect.poll(() => dialog.locator('.ant-select-selection-item').innerText()).toContain('DOCK-01');
    await page.waitForTimeout(500); // the dialog's opening animation, for the screenshot
    await shot(page, 'inbound-receive-as-expected');
    await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
    await toast(page, `Received 6 units on 2 lines of ${roNumber} as expected and put away; the order is finalized`).waitFor();
    await expect.poll(() => page.locator('.bolx-ro-detail__titlebar [data-status]').innerText()).toBe('Received');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'inbound-receive-as-expected-done-390');
    await page.context().close();
  });

  it('an expired lot asks for confirmation at the scan, and only quarantine is offered for its putaway', async () => {
    const skuCode = `CPS-LOT-${++attempts.expired}`;
    const page = await demo.newPage();
    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page);
    // A SKU that tracks lots and expiry (Cascade Pet Supply, Ontario) and an RO for it, made through the API.
    const roNumber = await page.evaluate(async (skuCode) => {
      const headers = { authorization: `Bearer ${sessionStorage.getItem('authtoken') ?? localStorage.getItem('authtoken')}`, 'content-type': 'application/json' };
      const { warehouseData, customerData } = await (await fetch('/Common/UserModule/GetWarehouseClient', { headers })).json();
      const warehouseId = warehouseData.find((w: { warehouseName: string }) => w.warehouseName === 'Ontario West Coast DC').warehouseId;
      const customerId = customerData.find((c: { customerName: string; warehouseId: number }) => c.customerName === 'Cascade Pet Supply' && c.warehouseId === warehouseId).customerId;
      const added = await fetch('/warehouse/Sku/AddNewSku', {
        method: 'POST', headers,
        body: JSON.stringify({ customerId, skuCode, description: 'Salmon Treats 200g (lot-tracked)', isLotTracked: true, isExpiryTracked: true }),
      });
      const skuId = (await added.json()).data.skuId;
      const res = await fetch('/Warehouse/Receiving/CreateReceivingOrder', {
        method: 'POST', headers,
        body: JSON.stringify({ warehouseId, customerId, supplier: 'E2E Expired Goods', expectedDeliveryDate: '2026-12-30', lines: [{ skuId, expectedQuantity: 4 }] }),
      });
      return (await res.json()).data.roNumber as string;
    }, skuCode);
    await page.goto('/InBound');
    await listed(page);
    await rows(page).filter({ hasText: roNumber }).locator('a').first().click();
    await page.locator('.bolx-ro-detail').waitFor();
    const scan = page.getByTestId('scan-input');
    await page.getByLabel('Good Quantity', { exact: true }).fill('4');
    await page.getByLabel('Lot', { exact: true }).fill('L-OLD-1');
    await page.getByLabel('Expiry Date', { exact: true }).fill('2020-01-31');
    await scan.fill(skuCode);
    await scan.press('Enter');
    const confirm = page.locator('.ant-modal-confirm:visible');
    await confirm.filter({ hasText: `Lot L-OLD-1 of ${skuCode} expired on 2020-01-31` }).waitFor();
    expect(await page.locator('.bolx-ro-detail__titlebar [data-status]').innerText()).toBe('Open');
    await page.waitForTimeout(500); // the dialog's opening animation, for the screenshot
    await shot(page, 'inbound-expired-confirm');
    await confirm.getByRole('button', { name: 'Receive for quarantine' }).click();
    await page.getByTestId('receive-feedback').locator('.ant-alert-success').filter({ hasText: `Received 4 good of ${skuCode} into DOCK-01` }).waitFor();
    await page.getByRole('tab', { name: 'Put Away' }).click();
    const suggestion = page.getByTestId('putaway-suggestion').first();
    await suggestion.waitFor();
    await expect.poll(() => suggestion.innerText()).toContain('Quarantine (expired lot)');
    expect(await page.getByTestId('putaway-suggestion').allInnerTexts()).toEqual([expect.stringContaining('QUARANTINE-01')]);
    await shot(page, 'inbound-expired-putaway');
    await page.close();
  });

  it('a client account sees its own ROs read-only', async () => {
    const page = await demo.newPage();
    await signIn(page, ...DEMO.client);
    await landOnDashboard(page);
    await page.goto('/InBound');
    await listed(page);
    expect(await page.getByRole('button', { name: 'New Receiving Order' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Upload RO' }).count()).toBe(0);
    const texts = await rows(page).allInnerTexts();
    expect(texts.every((r) => r.includes('Fjord Electronics'))).toBe(true);
    await rows(page).filter({ hasText: 'E2E Nordic Audio' }).locator('a').first().click();
    await page.locator('.bolx-ro-detail').waitFor();
    await page.locator('.bolx-ro-detail__readonly').waitFor();
    expect(await page.getByTestId('scan-input').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Finalize|Cancel RO|Edit/ }).count()).toBe(0);
    await shot(page, 'inbound-client-detail');
    await page.close();
  });
});
