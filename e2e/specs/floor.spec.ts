import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PickJobDetail, PickStop } from '@bolx/contracts';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';

const demo = useDemoServer();

/** A hardware scanner: the code, then Enter. */
async function scan(page: Page, code: string) {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

// The answers are read loosely, as the other specs do: each check names the fields it needs.
type Api = (path: string, data?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function apiAs(page: Page, [username, password]: readonly [string, string]): Promise<Api> {
  const login = await page.request.post('/Common/Auth/login', { data: { username, password } });
  const headers = { authorization: `Bearer ${(await login.json()).accesstoken}` };
  return async (path, data) => {
    const res = data === undefined ? await page.request.get(path, { headers }) : await page.request.post(path, { headers, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return res.json();
  };
}

const left = (s: PickStop) => s.quantity - s.pickedQuantity - s.shortQuantity;

/**
 * The Wi-Fi loses a confirm's answer after the server picked: Enter again sends the scan's same Idempotency-Key and
 * the server answers from it, so the stop is picked once, and not refused as already picked.
 */
async function confirmThroughLostAnswer(page: Page, stop: PickStop) {
  const keys: (string | undefined)[] = [];
  await page.route('**/Warehouse/PickJob/ConfirmPick', async (route) => {
    keys.push(route.request().headers()['idempotency-key']);
    await route.fetch(); // the server makes the pick…
    await route.abort('connectionreset'); // …and its answer never arrives
  }, { times: 1 });
  await page.keyboard.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'No answer from the server: repeat the same scan or Enter, it counts once.' }).waitFor();
  // The same confirm may be sent again by the button as well as by Enter.
  await expect.poll(() => page.locator('button.bolx-hh__wide', { hasText: 'Confirm' }).isEnabled()).toBe(true);
  await shot(page, 'floor-picking-no-answer-390');
  const again = page.waitForResponse((r) => r.url().endsWith('/Warehouse/PickJob/ConfirmPick'));
  await page.keyboard.press('Enter');
  const answer = await again;
  expect(answer.status()).toBe(200);
  expect(answer.headers()['idempotent-replay']).toBe('true');
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.request().headers()['idempotency-key']).toBe(keys[0]);
  expect((await answer.json()).message).toMatch(new RegExp(`^Picked ${left(stop)} units? of ${stop.skuCode}`));
  // Accepted: the lost answer's refusal is gone.
  await expect.poll(() => page.getByRole('alert').count()).toBe(0);
}

/** Needs /BatchJob to render the handheld pages for ?job= and ?pack= (features/floor's BatchJobPage). */
describe('the floor on a handheld', () => {
  let attempt = 0;
  it('runs a wave of 10 orders as one cluster job: typed scans (one wrong, one short pick), two cartons, shipped from /BatchJob, Shipped live on /OrderDashboard', async () => {
    // Totes, carton types and references of their own per attempt: CI's retry runs on the same server, where the
    // first attempt's codes are taken (refused) and its references answer its orders (nothing new).
    const run = `${++attempt}`;
    const reference = `PO-E2E-FLOOR-${run}-`;
    const [small, medium] = [`E2E-S-${run}`, `E2E-M-${run}`];
    const page = await demo.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, ...DEMO.staff);
    const api = await apiAs(page, DEMO.staff);
    const admin = await apiAs(page, DEMO.admin);

    // Ten orders of one client, allocated and released as one cluster job; totes and carton types to use.
    const skus = await api('/warehouse/Sku/GetAllSkus', { filters: {}, searchQuery: 'FJE-100', pageNumber: 1, pageSize: 2 });
    const [skuA, skuB] = skus.items as { skuId: number; skuCode: string; customerId: number }[];
    const { customerData } = await api('/Common/UserModule/GetWarehouseClient');
    const served = (customerData as { customerId: number; warehouseId: number; warehouseName: string }[]).find((c) => c.customerId === skuA.customerId)!;
    const warehouseId = served.warehouseId;
    const toteCodes = Array.from({ length: 10 }, (_, i) => `E2E-TOTE-${run}-${i + 1}`);
    for (const code of toteCodes) {
      await admin('/warehouse/Location/CreateLocation', { warehouseId, locationCode: code, locationType: 'tote', capacity: 0, isPickable: false });
    }
    for (const [code, tare] of [[small, 0.2], [medium, 0.4]] as const) {
      await admin('/Warehouse/Pack/SaveCartonType', { warehouseId, code, name: `Box ${code}`, lengthCm: 30, widthCm: 20, heightCm: 15, tareWeightKg: tare });
    }
    const orderIds: number[] = [];
    for (let i = 1; i <= 10; i++) {
      const [a, b] = [1 + (i % 2), i % 2];
      const lines = [{ skuId: skuA.skuId, quantity: a }, ...(b ? [{ skuId: skuB.skuId, quantity: b }] : [])];
      const created = await api('/Warehouse/Order/CreateOrder', {
        warehouseId, customerId: skuA.customerId, orderType: 'Sales', referenceNumber: `${reference}${i}`, orderDate: '2026-11-20', shipToName: `Floor ${i}`, lines,
      });
      orderIds.push(created.data?.order?.orderId ?? created.data?.orderId);
    }
    await api('/Warehouse/Order/AllocateOrders', { orderIds });
    const wave = await api('/Warehouse/Wave/CreateWave', { warehouseId, orderIds, strategy: 'cluster', totesPerJob: 10 });
    expect(wave.data.released).toHaveLength(10);
    expect(wave.data.wave.jobCount).toBe(1);
    const jobs = await api('/Warehouse/PickJob/GetJobs', { filters: { waveId: wave.data.wave.waveId }, pageNumber: 1, pageSize: 5 });
    const jobId: number = jobs.items[0].jobId;
    const readJob = async (): Promise<PickJobDetail> => api(`/Warehouse/PickJob/GetJob?jobId=${jobId}`);

    await landOnDashboard(page, { warehouse: served.warehouseName });
    await page.goto(`/BatchJob?job=${jobId}`);

    // A tote for each slot, one at a time.
    for (const [i, tote] of toteCodes.entries()) {
      await page.getByText(new RegExp(`Scan a tote for slot ${i + 1} `)).waitFor();
      await scan(page, tote);
    }
    await shot(page, 'floor-picking-stop-390');

    // Stop by stop: the first one gets a wrong location first (refused, nothing moves), the second one is short.
    let stopsDone = 0;
    let shorted = false;
    for (let guard = 0; guard < 30; guard++) {
      const job = await readJob();
      const stop = [...job.stops].sort((a, b) => a.seq - b.seq).find((s) => left(s) > 0);
      if (!stop) break;
      await page.getByText(`Scan location ${stop.locationCode}`).waitFor();
      if (stopsDone === 0) {
        const other = job.stops.find((s) => s.locationCode !== stop.locationCode)?.locationCode ?? 'NO-SUCH-BIN';
        await scan(page, other);
        await page.getByRole('alert').filter({ hasText: stop.locationCode }).waitFor();
        await shot(page, 'floor-picking-wrong-scan-390');
        expect((await readJob()).stops.find((s) => s.seq === stop.seq)!.pickedQuantity).toBe(stop.pickedQuantity);
      }
      await scan(page, stop.locationCode);
      await page.getByText(`Scan the item ${stop.skuCode}`).waitFor();
      if (!shorted && stopsDone === 1) {
        // The found units are picked: the item is scanned first.
        await scan(page, stop.skuCode);
        await page.getByText(/confirm 1 unit$/).waitFor();
        await page.getByRole('button', { name: 'Short' }).click();
        await page.getByLabel('Units found').fill(String(left(stop) - 1));
        await page.getByRole('button', { name: 'Record short' }).click();
        shorted = true;
      } else {
        // Scan-counting: one scan per unit, then Enter on the empty box confirms.
        for (let n = 0; n < left(stop); n++) {
          await scan(page, stop.skuCode);
          await page.getByText(new RegExp(`confirm ${n + 1} units?$`)).waitFor();
        }
        if (stopsDone === 2) await confirmThroughLostAnswer(page, stop);
        else await page.keyboard.press('Enter');
      }
      await expect.poll(async () => left((await readJob()).stops.find((s) => s.seq === stop.seq)!)).toBe(0);
      stopsDone++;
    }
    await page.getByText(/^Job JOB-\d+ finished$/).waitFor();
    await shot(page, 'floor-picking-summary-390');
    // The short stop recorded its missing unit; every stop is done (the short unit was found elsewhere or backordered).
    const picked = await readJob();
    expect(shorted).toBe(true);
    expect(picked.stops.reduce((n, s) => n + s.shortQuantity, 0)).toBe(1);
    expect(picked.stops.every((s) => left(s) === 0)).toBe(true);

    // The pack station: the station location and carton type once, then tote by tote.
    await page.goto('/BatchJob?pack=1');
    const choose = async (label: string, option: string) => {
      await page.locator('.bolx-pack__setup').getByRole('combobox', { name: label, exact: true }).click({ force: true });
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
    };
    await choose('Pack station location', 'STAGE-01');
    await choose('Carton type', small);
    const closeCarton = async (weight: string) => {
      await page.getByRole('button', { name: 'Close carton' }).click();
      await page.getByLabel('Gross weight (kg)').fill(weight);
      await page.keyboard.press('Enter');
      await page.locator('.ant-modal:visible').waitFor({ state: 'hidden' });
    };
    const totes = (await readJob()).totes;
    for (const tote of totes) {
      const view = await api('/Warehouse/Pack/OpenPack', { warehouseId, code: tote.toteCode });
      await scan(page, tote.toteCode!);
      await page.locator('.bolx-pack__so', { hasText: view.soNumber }).waitFor();
      const units = (view.lines as { skuCode: string; pickedQuantity: number }[]).flatMap((l) => Array.from({ length: l.pickedQuantity }, () => l.skuCode));
      if (units.length === 0) continue;
      if (tote.slot === 1) {
        // A wrong first scan is refused and opens no carton; then the order goes into two cartons: one unit, close,
        // a new carton for the rest.
        await scan(page, 'NO-SUCH-ITEM-E2E');
        await page.getByRole('alert').filter({ hasText: 'NO-SUCH-ITEM-E2E' }).waitFor();
        await page.getByText('No cartons yet').waitFor();
        expect((await api('/Warehouse/Pack/OpenPack', { warehouseId, code: tote.toteCode })).cartons).toEqual([]);
        await scan(page, units[0]);
        await page.getByText(/packed into CTN-/).waitFor();
        await closeCarton('0.8');
        await page.getByRole('button', { name: 'New carton' }).click();
        await page.getByText(/Empty: scan items into it/).waitFor();
        for (const code of units.slice(1)) await scan(page, code);
        // Once the last scan's answer is in: until then the carton buttons wait (disabled) for it.
        await page.locator('button:not([disabled])', { hasText: 'Close carton' }).waitFor();
        await shot(page, 'floor-pack-second-carton-390');
      } else {
        for (const code of units) await scan(page, code);
      }
      await page.getByText(/Everything picked is in the carton/).waitFor();
      await closeCarton('1.2');
      await page.getByText('Order packed: scan the next tote or order').first().waitFor();
    }
    await shot(page, 'floor-pack-packed-390');
    const firstOrder = await api(`/Warehouse/Order/GetOrder?orderId=${orderIds[0]}`);
    expect(firstOrder.status).toBe('Packed');

    // An administrator watches /OrderDashboard at 1440 px while the orders are shipped from /BatchJob's Ship tab: they turn
    // Shipped there without a reload.
    const desk = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(desk, ...DEMO.admin);
    await landOnDashboard(desk, { warehouse: served.warehouseName });
    await desk.goto('/OrderDashboard');
    // Twenty a page: a short unit found nowhere else ships later, on a backorder that is an eleventh order with the
    // reference (so it goes on CI's retry, the first attempt's short pick having held the other location).
    await desk.locator('.ant-pagination-options .ant-select').click();
    await desk.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '20 / page' }).click();
    await desk.getByPlaceholder('SO number, reference or ship-to').fill(reference);
    const deskRows = desk.locator('.ant-table-tbody tr.ant-table-row', { hasText: reference });
    await expect.poll(() => deskRows.filter({ hasText: 'Packed' }).count(), { timeout: 15_000 }).toBe(10);

    await page.goto('/BatchJob');
    await page.getByTestId('batchjob-tabs').getByText('Ship', { exact: true }).click();
    const carrier = page.locator('.ant-card', { hasText: `${reference}1` }).first();
    // The card holds every packed order of its carrier in the warehouse: these ten, and the demo's own packed orders.
    const inCard = Number((await carrier.locator('.ant-card-head .ant-tag').first().innerText()).replace(/\D/g, ''));
    expect(inCard).toBeGreaterThanOrEqual(10);
    await carrier.getByTestId('ship-all').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Ship' }).click();
    await page.locator('.ant-modal:visible').getByText(new RegExp(`^${inCard} orders shipped`)).waitFor();
    await shot(page, 'floor-ship-390');
    await expect.poll(() => deskRows.filter({ hasText: 'Shipped' }).count(), { timeout: 15_000 }).toBe(10);
    await shot(desk, 'floor-orders-shipped-1440');
    for (const orderId of orderIds) expect((await api(`/Warehouse/Order/GetOrder?orderId=${orderId}`)).status).toBe('Shipped');
  }, 300_000);
});
