import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';
import { listed, rows } from '../support/lists.js';

const DECODERS = existsSync('/usr/bin/zbarimg') && existsSync('/usr/bin/pdftoppm') && existsSync('/usr/bin/pdftotext');
if (!DECODERS) throw new Error('The batch print journey needs zbarimg (zbar-tools) and pdftoppm/pdftotext (poppler-utils)');

const demo = useDemoServer();
const tmp = mkdtempSync(join(tmpdir(), 'bolx-e2e-print-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Wave { warehouseName: string; jobNumber: string; soNumbers: string[]; stops: { locationCode: string; skuCode: string }[] }

/**
 * Two Fjord Electronics orders released as one cluster job through the API (as the administrator): what the floor
 * would print. Their references are `${reference}-1` and `-2`.
 */
async function releasedWave(page: Page, reference: string): Promise<Wave> {
  const login = await page.request.post('/Common/Auth/login', { data: { username: DEMO.admin[0], password: DEMO.admin[1] } });
  const headers = { authorization: `Bearer ${(await login.json()).accesstoken}` };
  const post = async (url: string, data: unknown) => {
    const res = await page.request.post(url, { headers, data });
    expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
    return res.json();
  };
  const stock = (await post('/Warehouse/Inventory/GetStockOnHand', { filters: {}, searchQuery: 'FJE-100', pageNumber: 1, pageSize: 50 })).items as
    { warehouseId: number; warehouseName: string; customerId: number; skuId: number; available: number }[];
  const rowsOf = stock.filter((r) => r.available >= 3);
  const skus = [...new Map(rowsOf.map((r) => [r.skuId, r])).values()].slice(0, 2);
  expect(skus.length).toBe(2);
  const { warehouseId, warehouseName, customerId } = skus[0];
  const orders: { orderId: number; soNumber: string }[] = [];
  for (const [i, lines] of [[{ skuId: skus[0].skuId, quantity: 1 }, { skuId: skus[1].skuId, quantity: 1 }], [{ skuId: skus[0].skuId, quantity: 1 }]].entries()) {
    const made = await post('/Warehouse/Order/CreateOrder', {
      warehouseId, customerId, orderType: 'Sales', referenceNumber: `${reference}-${i + 1}`, orderDate: '2026-11-20',
      shipToName: `Print Receiver ${i + 1}`, shipToCity: 'Bergen', shipToCountry: 'NO', lines,
    });
    orders.push(made.data);
  }
  await post('/Warehouse/Order/AllocateOrders', { orderIds: orders.map((o) => o.orderId) });
  const wave = await post('/Warehouse/Wave/CreateWave', { warehouseId, orderIds: orders.map((o) => o.orderId), strategy: 'cluster', totesPerJob: 4 });
  const jobs = await (await page.request.get(`/Warehouse/Wave/GetWave?waveId=${wave.data.wave.waveId}`, { headers })).json();
  const job = await (await page.request.get(`/Warehouse/PickJob/GetJob?jobId=${jobs.jobs[0].jobId}`, { headers })).json();
  return { warehouseName, jobNumber: job.jobNumber, soNumbers: orders.map((o) => o.soNumber), stops: job.stops };
}

/** The downloaded PDF's text and the Code 128 values on its first pages, read at 200 dpi. */
async function readPdf(download: Download, name: string): Promise<{ text: string; codes: string[] }> {
  const dir = mkdtempSync(join(tmp, `${name}-`));
  const pdf = join(dir, 'doc.pdf');
  await download.saveAs(pdf);
  execFileSync('pdftoppm', ['-r', '200', '-f', '1', '-l', '3', '-png', pdf, join(dir, 'page')]);
  const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).map((f) => join(dir, f));
  let out = '';
  try {
    out = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Scode128.enable', ...pages], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? '');
  }
  return { text: execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }), codes: out.split('\n').filter(Boolean) };
}

async function search(page: Page, placeholder: string, text: string, list: string) {
  await page.getByPlaceholder(placeholder).fill(text);
  await page.waitForResponse((r) => r.url().includes(list) && r.request().postData()?.includes(text) === true);
  await listed(page);
}

describe('batch print', () => {
  let attempt = 0;
  it('prints a wave’s pick list and a packing slip from /BatchPrint; their barcodes decode; the screen fits 1440 and 390 px', async () => {
    // References of their own per attempt: a reference already used answers its order (nothing new), and CI's retry
    // on the same server would try to release the first attempt's orders again.
    const reference = `PO-E2E-PRINT-${++attempt}`;
    const page = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    const wave = await releasedWave(page, reference);
    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page, { warehouse: wave.warehouseName });

    await page.goto('/BatchPrint');
    await page.getByRole('heading', { name: 'Batch Print' }).first().waitFor();
    await search(page, 'Search job or wave number', wave.jobNumber, '/GetJobs');
    const jobRow = rows(page).filter({ hasText: wave.jobNumber });
    await jobRow.getByText('Cluster').waitFor();
    await jobRow.locator('.ant-checkbox-input').check();
    await shot(page, 'batch-print-jobs-1440');
    const [pickList] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Print pick lists/ }).click()]);
    expect(pickList.suggestedFilename()).toBe('pick-lists.pdf');
    const list = await readPdf(pickList, 'pick-list');
    expect(list.text).toContain(wave.jobNumber);
    for (const so of wave.soNumbers) expect(list.text).toContain(so);
    expect(list.codes).toContain(wave.jobNumber);
    expect(list.codes).toContain(wave.stops[0].locationCode);
    expect(list.codes).toContain(wave.stops[0].skuCode);

    await page.getByRole('tab', { name: 'Packing slips' }).click();
    await search(page, 'Search SO number, reference or ship-to', wave.soNumbers[0], '/GetOrders');
    const orderRow = rows(page).filter({ hasText: wave.soNumbers[0] });
    await orderRow.getByText('Print Receiver 1').waitFor();
    await shot(page, 'batch-print-orders-1440');
    const [slip] = await Promise.all([page.waitForEvent('download'), orderRow.getByRole('button', { name: 'Print' }).click()]);
    const read = await readPdf(slip, 'slip');
    expect(read.text).toContain('Print Receiver 1');
    expect(read.text).toContain(`${reference}-1`);
    expect(read.codes).toEqual([wave.soNumbers[0]]);

    // The handheld width: the same screen, the table scrolling sideways inside its card.
    const narrow = await demo.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(narrow, ...DEMO.admin);
    await landOnDashboard(narrow, { warehouse: wave.warehouseName });
    await narrow.goto('/BatchPrint');
    await listed(narrow);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(narrow, 'batch-print-jobs-390');
  });
});
