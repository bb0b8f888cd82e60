import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, headerFilter, signInToDashboard } from '../support/session.js';
import { rows } from '../support/lists.js';

const WAREHOUSE = 'Ontario West Coast DC';
const CLIENT = 'Fjord Electronics';

const demo = useDemoServer();

const panel = (page: Page) => page.locator('.ant-drawer-content.bolx-add-data-drawer');
const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:visible');
const card = (page: Page, title: string) => page.getByTestId('upload-card').filter({ hasText: title });

/**
 * Waits for an upload's card to finish (done or failed), then checks it finished with `text`: a failure says what
 * the card showed instead of timing out on the text it never got.
 */
async function uploadEnded(page: Page, fileName: string, text: string | RegExp) {
  const c = card(page, fileName);
  await c.and(page.locator('[data-phase=done], [data-phase=failed]')).waitFor({ timeout: 60_000 });
  const status = (await c.getByTestId('upload-status').innerText()).trim();
  expect(status, `the ${fileName} card`).toMatch(text);
  expect(await c.getAttribute('data-phase'), `the ${fileName} card: ${status}`).toBe('done');
}

async function openCard(page: Page, title: string) {
  await panel(page).getByTestId('add-data-grid').getByText(title, { exact: true }).click();
  await panel(page).getByRole('button', { name: 'Back' }).waitFor();
}

/**
 * Chooses a Select's option by the keyboard (focused, the option typed, Enter on the active match), then sees it
 * chosen: a click on an option still sliding in can miss it, and a click on the field can land on a success toast
 * over the drawer's top (the pointer on it pauses its closing).
 */
async function chooseOption(page: Page, label: string, option: string) {
  await panel(page).getByLabel(label, { exact: true }).focus();
  await page.keyboard.type(option);
  await openDropdown(page).locator('.ant-select-item-option-active', { hasText: option }).waitFor();
  await page.keyboard.press('Enter');
  await panel(page).locator('.ant-form-item').filter({ has: page.getByLabel(label, { exact: true }) }).locator('.ant-select-selection-item', { hasText: option }).waitFor();
}

async function chooseFile(page: Page, name: string, content: string) {
  // The form's first file field (the Orders form has a second, for documents).
  await panel(page).locator('input[type=file]').first().setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
  await panel(page).locator('.ant-upload-list-item-name', { hasText: name }).waitFor();
  await page.waitForTimeout(400); // the file list's appear animation, before a screenshot
}

describe('Add Data panel', () => {
  it('creates a location, uploads locations, a receiving order and opening stock through the panel with progress cards; the rows appear in their lists', async () => {
    const page = await demo.newPage();
    await signInToDashboard(page, ...DEMO.admin);
    await headerFilter(page, 'Warehouse', WAREHOUSE);
    // The stock figure before the uploads: the dashboard's answer for this warehouse and client (the tile may
    // still show the previous filter's figure for a moment).
    const clientDashboard = page.waitForResponse((r) => r.url().includes('/GetDashboard') && !/customerId=0\b/.test(r.url()));
    await headerFilter(page, 'Client', CLIENT);
    const unitsBefore = ((await (await clientDashboard).json()) as { stockUnits: number }).stockUnits;

    // The grid: six cards in two columns, Orders marked Most Used.
    await page.getByRole('button', { name: 'Add Data' }).click();
    const grid = panel(page).getByTestId('add-data-grid');
    await grid.waitFor();
    for (const title of ['Orders', 'Receiving Orders', 'Product SKUs', 'Inventory', 'Locations', 'Pallets']) {
      await grid.getByText(title, { exact: true }).waitFor();
    }
    await grid.getByText('Most Used').waitFor();
    const boxes = await Promise.all(['Orders', 'Receiving Orders'].map((t) => grid.getByText(t, { exact: true }).boundingBox()));
    expect(Math.abs(boxes[0]!.y - boxes[1]!.y)).toBeLessThan(30);
    await page.waitForTimeout(300); // the drawer's slide-in
    await shot(page, 'add-data-grid');

    // Orders: the spec's fields with their asterisks; a sheet of two orders (rows grouped by Reference Number) is
    // taken in through the one intake, and the orders are there to read.
    await openCard(page, 'Orders');
    for (const label of ['Order Type', 'Order Date', 'Reference Number', 'Order documents']) {
      expect(await panel(page).locator(`label[title="${label}"].ant-form-item-required`).count()).toBe(1);
    }
    // Every name this journey creates carries the attempt's stamp: CI's retry runs on the same database, and a second
    // attempt uploading the first one's codes would only be refused as duplicates.
    const stamp = Date.now().toString(36).toUpperCase();
    const loc = `ADD-${stamp}`;
    await chooseFile(page, 'add-data-orders.csv', `Reference Number,Ship To Name,SKU,Quantity\nE2E-${stamp}-1,Ada Lovelace,FJE-1002,2\nE2E-${stamp}-1,,FJE-1002,1\nE2E-${stamp}-2,Grace Hopper,FJE-1002,1\n`);
    await shot(page, 'add-data-orders-form');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await shot(page, 'add-data-orders-form-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    const uploaded = page.waitForResponse((r) => r.url().includes('/UploadOrders'));
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    const answer = (await (await uploaded).json()) as { data: { orders: { orderId: number; referenceNumber: string; lineCount: number }[] } };
    await uploadEnded(page, 'add-data-orders.csv', '2 orders imported');
    expect(answer.data.orders.map((o) => [o.referenceNumber, o.lineCount])).toEqual([[`E2E-${stamp}-1`, 2], [`E2E-${stamp}-2`, 1]]);
    const listed = await page.evaluate(async (search) => {
      const res = await fetch('/Warehouse/Order/GetOrders', {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('authtoken')}` }, body: JSON.stringify({ searchQuery: search }),
      });
      return res.status === 200 ? ((await res.json()) as { totalCount: number }).totalCount : -res.status;
    }, `E2E-${stamp}`);
    expect(listed).toBe(2);

    // Locations from a CSV: the card goes from progress to the server's text.
    await openCard(page, 'Locations');
    for (const label of ['Location Type', 'Location Code', 'Capacity']) {
      expect(await panel(page).locator(`label[title="${label}"].ant-form-item-required`).count()).toBe(1);
    }
    await chooseFile(page, 'add-data-locations.csv', `Location Code,Location Type,Capacity,Description\n${loc}-01,rack,10,From the panel\n${loc}-02,shelf,5,\n`);
    await shot(page, 'add-data-location-form');
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    await grid.waitFor();
    await uploadEnded(page, 'add-data-locations.csv', '2 locations uploaded successfully');

    // Without a file, the form's fields create one location.
    await openCard(page, 'Locations');
    await panel(page).getByLabel('Location Type', { exact: true }).click();
    await openDropdown(page).locator('.ant-select-item-option', { hasText: 'Rack' }).first().click();
    await panel(page).getByLabel('Location Code', { exact: true }).fill(`${loc.toLowerCase()}-03`);
    await panel(page).getByLabel('Capacity', { exact: true }).fill('20');
    await panel(page).getByRole('button', { name: 'Create' }).click();
    await page.locator('.Toastify__toast--success').filter({ hasText: 'Location created' }).first().waitFor();
    await panel(page).getByRole('button', { name: 'Back' }).click();

    // A receiving order from a CSV, the supplier from the form.
    await openCard(page, 'Receiving Orders');
    await panel(page).getByLabel('Supplier', { exact: true }).fill('Add Data Co');
    await chooseFile(page, 'add-data-ro.csv', 'SKU,Expected Quantity,Expected Delivery Date\nFJE-1002,12,2026-12-24\n');
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    await uploadEnded(page, 'add-data-ro.csv', /Receiving order .* uploaded successfully/);

    // Opening stock into one of the new locations, posted through the stock ledger.
    await openCard(page, 'Inventory');
    await chooseFile(page, 'add-data-stock.csv', 'SKU,Quantity\nFJE-1002,7\n');
    // The type and the location unchosen: the form names them and nothing is uploaded.
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    await panel(page).getByText('Please select inventory type!').waitFor();
    await panel(page).getByText('Please select location!').waitFor();
    expect(await card(page, 'add-data-stock.csv').count()).toBe(0);
    await shot(page, 'add-data-inventory-missing');
    await chooseOption(page, 'Inventory Type', 'Opening Stock');
    await chooseOption(page, 'Location', `${loc}-01`);
    await shot(page, 'add-data-inventory-form');
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    await uploadEnded(page, 'add-data-stock.csv', 'Opening stock imported: 7 units on 1 row');
    // The dashboard behind the panel is refreshed with the new stock.
    await page.waitForFunction((expected) => document.querySelector('.bolx-kpi__value')?.textContent?.replace(/\D/g, '') === expected, String(unitsBefore + 7));

    // A SKU sheet with a bad row: the card fails with the server's text and lists the row.
    await openCard(page, 'Product SKUs');
    await panel(page).getByLabel('SKU Category', { exact: true }).fill('Panel');
    await chooseFile(page, 'add-data-skus.csv', `SKU,Description,UOM\n${loc}-SKU,Good one,EA\n${loc}-BAD,Bad unit,CRATE\n`);
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    await card(page, 'add-data-skus.csv').getByTestId('upload-row-errors').filter({ hasText: "Row 3, UOM: Unknown unit of measure 'CRATE'" }).waitFor();
    await card(page, 'add-data-skus.csv').getByText('1 row has errors; nothing was uploaded').waitFor();
    expect(await card(page, 'add-data-skus.csv').getAttribute('data-phase')).toBe('failed');

    await panel(page).locator('.ant-drawer-close').click();
    await panel(page).waitFor({ state: 'hidden' });
    await shot(page, 'add-data-progress-cards');

    // Hidden (collapsed) and shrunk to a circle with percent and type code; stopped/dismissed removes it.
    await card(page, 'add-data-ro.csv').getByRole('button', { name: 'Hide' }).click();
    expect(await card(page, 'add-data-ro.csv').getByTestId('upload-status').count()).toBe(0);
    await card(page, 'add-data-locations.csv').getByRole('button', { name: 'Shrink' }).click();
    const circle = page.getByRole('button', { name: 'LOC upload 100%' });
    await circle.waitFor();
    expect(await circle.innerText()).toMatch(/100%\s*LOC/);
    await shot(page, 'add-data-progress-circle');
    await card(page, 'add-data-skus.csv').getByRole('button', { name: 'Dismiss' }).click();
    await card(page, 'add-data-skus.csv').waitFor({ state: 'detached' });

    // The new rows are in their lists.
    await page.goto('/Location');
    await page.getByPlaceholder('Search Location').fill(loc);
    await rows(page).filter({ hasText: `${loc}-02` }).waitFor();
    // The list before the search may show some of them already: the search's answer shows all three.
    await expect.poll(() => rows(page).filter({ hasText: `${loc}-01` }).count()).toBe(1);
    await expect.poll(() => rows(page).filter({ hasText: `${loc}-03` }).count()).toBe(1);
    await page.goto('/InBound');
    await rows(page).filter({ hasText: 'Add Data Co' }).first().waitFor();
    await page.context().close();
  }, 120_000);

  it('shows real upload progress on a slow link, the card’s "Uploading..." badge, and Stop abandons it', async () => {
    const page = await demo.newPage();
    await signInToDashboard(page, ...DEMO.admin);
    await headerFilter(page, 'Warehouse', WAREHOUSE);
    // A slow upload link (4 kB/s) as Chromium emulates it: the progress the page reads advances over seconds.
    // (The emulation paces the progress reports, not always the bytes: a server-side cut upload writing nothing
    // is proven in server/test/interrupted-upload.test.ts.)
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 10 * 1024 * 1024, uploadThroughput: 4 * 1024 });
    const lines = Array.from({ length: 4000 }, (_, i) => `ADD-SLOW-${String(i).padStart(5, '0')},rack,10,A location from a slow upload`);
    await page.getByRole('button', { name: 'Add Data' }).click();
    await openCard(page, 'Locations');
    await chooseFile(page, 'add-data-slow.csv', `Location Code,Location Type,Capacity,Description\n${lines.join('\n')}\n`);
    await panel(page).getByRole('button', { name: 'Upload' }).click();

    const slow = card(page, 'add-data-slow.csv');
    const status = slow.getByTestId('upload-status');
    await status.filter({ hasText: /Uploading… ([1-9]|[1-9]\d)%/ }).waitFor();
    const grid = panel(page).getByTestId('add-data-grid');
    await grid.locator('.bolx-add-data__card', { hasText: 'Locations' }).getByText('Uploading...').waitFor();
    await shot(page, 'add-data-uploading');
    await slow.getByRole('button', { name: 'Shrink' }).click();
    const circle = page.getByTestId('upload-circle');
    const label = await circle.getAttribute('aria-label');
    expect(label).toMatch(/^LOC upload ([1-9]|[1-9]\d)%$/);
    await panel(page).locator('.ant-drawer-close').click();
    await panel(page).waitFor({ state: 'hidden' });
    await shot(page, 'add-data-uploading-circle');
    await circle.click();

    await slow.getByRole('button', { name: 'Stop' }).click();
    await slow.waitFor({ state: 'detached' });
    // Stopped means abandoned by the page: no card comes back and no success is announced.
    await page.waitForTimeout(1000);
    expect(await card(page, 'add-data-slow.csv').count()).toBe(0);
    expect(await page.locator('.Toastify__toast--success').filter({ hasText: /uploaded successfully/ }).count()).toBe(0);
    await page.context().close();
  });
});
