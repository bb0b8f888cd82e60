import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, chooseWarehouse, signInToDashboard } from '../support/session.js';
import { rows } from '../support/lists.js';

// Issue 18: a ticket opened by the client account, answered by staff, each side seeing the other live; a pallet
// file uploaded from the Add Data panel into the pallet register.
const demo = useDemoServer();
const pages: Page[] = [];
afterAll(async () => {
  for (const p of pages) await p.context().close();
});

const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:visible');
const panel = (page: Page) => page.locator('.ant-drawer-content.bolx-add-data-drawer');

async function signedIn(user: readonly [string, string]) {
  const page = await demo.newPage();
  pages.push(page);
  await signInToDashboard(page, ...user);
  return page;
}
/** Both sizes of the screen as it is now. */
async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(300);
  await shot(page, `${name}-1440`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1440, height: 900 });
}
/** Opens a screen, switching to its app (service) when the user is working in another. */
async function openScreen(page: Page, path: string, app: string, testId: string) {
  await page.goto(path);
  const screen = page.getByTestId(testId);
  const switchButton = page.getByRole('button', { name: `Switch to ${app}` });
  await screen.or(switchButton).first().waitFor();
  if (await switchButton.isVisible()) await switchButton.click();
  await screen.waitFor();
}
/** /HelpDesk is in the Service Management app: the users land in Warehouse Management and switch. */
const openHelpDesk = (page: Page) => openScreen(page, '/HelpDesk', 'Service Management', 'helpdesk-page');
const api = (page: Page, url: string, body: unknown) => page.evaluate(async ([u, b]) => {
  const res = await fetch(u as string, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('authtoken')}` }, body: JSON.stringify(b),
  });
  return res.json();
}, [url, body] as const);

describe('help desk', () => {
  it('the client opens a ticket; staff see it arrive, answer it, and the client sees the answer and the new status live', async () => {
    const client = await signedIn(DEMO.client);
    const staff = await signedIn(DEMO.admin);
    await openHelpDesk(staff);
    await openHelpDesk(client);
    await shots(client, 'helpdesk-list-client');

    // The form's required title: the spec's text.
    await client.getByRole('button', { name: 'New Ticket' }).click();
    await client.getByRole('button', { name: 'Open Ticket' }).click();
    await client.getByText('Please enter Title!').waitFor();
    const title = `Carton crushed ${Date.now().toString(36)}`;
    await client.getByTestId('ticket-title').fill(title);
    await client.getByTestId('ticket-description').fill('Two cartons arrived crushed at the customer.');
    await client.locator('.ant-drawer-content .ant-form-item', { hasText: 'Priority' }).locator('.ant-select').click();
    await openDropdown(client).locator('.ant-select-item-option', { hasText: 'High' }).click();
    await shots(client, 'helpdesk-new-ticket');
    await client.getByRole('button', { name: 'Open Ticket' }).click();
    await client.getByTestId('ticket-view').waitFor();
    await client.getByText(title).first().waitFor();

    // Staff's list, open since before: the ticket arrives over the hub.
    const row = rows(staff).filter({ hasText: title });
    await row.waitFor({ timeout: 10_000 });
    await shots(staff, 'helpdesk-list-staff');
    await row.locator('a').first().click();
    const view = staff.getByTestId('ticket-view');
    await view.waitFor();
    await staff.getByTestId('ticket-start').click();
    await staff.locator('[data-testid=ticket-view][data-status="In Progress"]').waitFor();
    await staff.getByTestId('ticket-comment-send').click();
    await staff.getByText('Comment is required').waitFor();
    await staff.getByTestId('ticket-comment').fill('Sorry about that: we re-pack and re-ship today.');
    await staff.getByTestId('ticket-comment-send').click();
    await view.getByTestId('ticket-comments').getByText('we re-pack and re-ship today').waitFor();
    await shots(staff, 'helpdesk-ticket-staff');

    // The client's open ticket follows: the answer and the new status without a reload.
    await client.getByTestId('ticket-comments').getByText('we re-pack and re-ship today').waitFor({ timeout: 10_000 });
    await client.locator('[data-testid=ticket-view][data-status="In Progress"]').waitFor();
    // A client may close, not resolve or start.
    expect(await client.getByTestId('ticket-resolve').count()).toBe(0);
    await client.getByTestId('ticket-close').waitFor();
    await shots(client, 'helpdesk-ticket-client');
  });

  it('a receiving order opens a ticket about itself; the ticket list’s About opens the receiving order again, its ticket counted', async () => {
    const admin = await signedIn(DEMO.admin);
    const list = await api(admin, '/Warehouse/Receiving/GetReceivingOrders', { filters: {}, searchQuery: '', pageNumber: 1, pageSize: 1 });
    const ro = list.items[0] as { receivingOrderId: number; roNumber: string };
    await openScreen(admin, `/InBound?roid=${ro.receivingOrderId}`, 'Warehouse Management', 'linked-tickets');
    const block = admin.getByTestId('linked-tickets');
    // Its tickets so far: none in the demo data, and the one an earlier attempt opened when CI's retry runs on the
    // same server (the receiving order is the list's first either way).
    const ticketCount = block.getByText(/^Tickets \(\d+\)$/);
    await ticketCount.waitFor().catch(async (e) => { await shot(admin, 'helpdesk-ro-failure'); throw e; });
    const before = Number((await ticketCount.innerText()).replace(/\D/g, ''));
    await block.getByTestId('open-ticket-about').click();
    // The help desk (another app: switched to) with the new ticket about the receiving order filled in.
    const switchButton = admin.getByRole('button', { name: 'Switch to Service Management' });
    await admin.getByTestId('ticket-title').or(switchButton).first().waitFor();
    if (await switchButton.isVisible()) await switchButton.click();
    const title = `Short delivery ${Date.now().toString(36)}`;
    await admin.getByTestId('ticket-title').fill(title);
    await expect.poll(() => admin.locator('.ant-drawer-content .ant-form-item', { hasText: 'Document number' }).locator('input').inputValue()).toBe(ro.roNumber);
    await shots(admin, 'helpdesk-ticket-about-ro');
    await admin.getByRole('button', { name: 'Open Ticket' }).click();
    await admin.getByTestId('ticket-view').getByText(ro.roNumber).waitFor().catch(async (e) => { await shot(admin, 'helpdesk-ro-failure'); throw e; });
    await admin.keyboard.press('Escape');

    const row = rows(admin).filter({ hasText: title });
    await row.waitFor();
    await row.getByRole('link', { name: `Receiving order ${ro.roNumber}` }).click();
    await admin.waitForURL(new RegExp(`/InBound\\?roid=${ro.receivingOrderId}$`));
    // The receiving order is Warehouse Management's again.
    const back = admin.getByRole('button', { name: 'Switch to Warehouse Management' });
    await admin.getByTestId('linked-tickets').or(back).first().waitFor();
    if (await back.isVisible()) await back.click();
    await admin.getByTestId('linked-tickets').getByText(`Tickets (${before + 1})`).waitFor();
    await admin.getByTestId('linked-tickets').getByText(title).waitFor();
    await shots(admin, 'helpdesk-ro-tickets');
  });
});

describe('pallets', () => {
  it('a pallet file from the Add Data panel lands in the pallet register; a duplicate id refuses the whole file', async () => {
    const page = await signedIn(DEMO.admin);
    // A warehouse of the demo and one of its locations.
    const warehouseId = await chooseWarehouse(page, 'Ontario West Coast DC');
    expect(warehouseId).toBeGreaterThan(0);
    const locations = await api(page, '/warehouse/Location/GetLocations', { filters: { warehouseId }, pageSize: 1 }) as { items: { locationCode: string }[] };
    const at = locations.items[0].locationCode;
    const stamp = Date.now().toString(36).toUpperCase();

    await page.getByRole('button', { name: 'Add Data' }).click();
    await panel(page).getByTestId('add-data-grid').getByText('Pallets', { exact: true }).click();
    await panel(page).getByRole('button', { name: 'Back' }).waitFor();
    for (const label of ['Pallet Type', 'Dimensions (cm)', 'Weight Capacity (kg)', 'Current Location']) {
      expect(await panel(page).locator(`label[title="${label}"].ant-form-item-required`).count()).toBe(1);
    }
    await shots(page, 'add-data-pallet-form');
    const header = 'Pallet ID,Pallet Type,Length (cm),Width (cm),Height (cm),Weight Capacity (kg),Current Location';
    const choose = async (name: string, csv: string) => {
      await panel(page).locator('input[type=file]').first().setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await panel(page).locator('.ant-upload-list-item-name', { hasText: name }).waitFor();
    };
    const card = (name: string) => page.getByTestId('upload-card').filter({ hasText: name });

    // A duplicate id in the file: nothing is registered, the row is named.
    await choose('pallets-dup.csv', `${header}\nE2E-${stamp}-1,standard,120,100,150,1000,${at}\nE2E-${stamp}-1,euro,120,80,144,1500,${at}\n`);
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    await card('pallets-dup.csv').getByText(/Duplicate of row 2/).first().waitFor();

    await panel(page).getByTestId('add-data-grid').getByText('Pallets', { exact: true }).click();
    await choose('pallets.csv', `${header}\nE2E-${stamp}-1,standard,120,100,150,1000,${at}\nE2E-${stamp}-2,euro,120,80,144,1500,${at}\n`);
    await panel(page).getByRole('button', { name: 'Upload' }).click();
    await card('pallets.csv').locator('[data-testid=upload-status]', { hasText: '2 pallets uploaded successfully' }).waitFor();

    await page.keyboard.press('Escape');
    await openScreen(page, '/MovePallet', 'Warehouse Management', 'pallet-view');
    await page.getByTestId('pallet-view').getByText('Pallet register').click();
    const register = rows(page).filter({ hasText: `E2E-${stamp}` });
    await register.nth(1).waitFor();
    expect(await register.count()).toBe(2);
    await shots(page, 'pallet-register');
  });
});
