import { afterAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, signInToDashboard } from '../support/session.js';

// Issue 18 item 1, the shipment side of ticket links: a ticket's shipment opens the shipment's own view (any
// shipment by id) with the ticket on it; a freight shipment is a ticket's document, its tickets on its edit tab.
const demo = useDemoServer();
const pages: Page[] = [];
afterAll(async () => {
  for (const p of pages) await p.context().close();
});

type Api = (path: string, body?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function signedIn(user: readonly [string, string]) {
  const page = await demo.newPage({ viewport: { width: 1440, height: 900 } });
  pages.push(page);
  await signInToDashboard(page, ...user);
  return page;
}
/** The caller's API with its own session (the page's token). */
const apiOf = (page: Page): Api => async (path, body) => {
  const { status, json } = await page.evaluate(async ([u, b]) => {
    const res = await fetch(u as string, {
      method: b === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('authtoken')}` },
      body: b === undefined ? undefined : JSON.stringify(b),
    });
    return { status: res.status, json: await res.json() };
  }, [path, body] as const);
  expect(status, `${path}: ${JSON.stringify(json)}`).toBe(200);
  return json;
};
/** Both sizes of the screen as it is now (with `focus` scrolled into view at each). */
async function shots(page: Page, name: string, focus?: Locator) {
  for (const [width, height] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    if (focus) await focus.scrollIntoViewIfNeeded();
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
/** A screen of another app than the one the user works in: switched to when asked. */
async function switchIfAsked(page: Page, app: string, ready: ReturnType<Page['getByTestId']>) {
  const button = page.getByRole('button', { name: `Switch to ${app}` });
  await ready.or(button).first().waitFor();
  if (await button.isVisible()) await button.click();
  await ready.waitFor();
}

/** A parcel shipped by hand for a client (a line of its stock, a typed tracking number): a real shipment through the route. */
async function manualShipment(api: Api, skuPrefix: string, trackingNumber: string) {
  const stock = (await api('/Warehouse/Inventory/GetStockOnHand', { filters: { takeableOnly: true }, searchQuery: skuPrefix, pageNumber: 1, pageSize: 50 })).items as
    { warehouseId: number; warehouseName: string; customerId: number; skuId: number; locationId: number; lot: string; pallet: string; available: number }[];
  const line = stock.find((r) => r.available >= 1)!;
  expect(line, `stock of ${skuPrefix}`).toBeTruthy();
  const made = await api('/Warehouse/RMA/CreateManualShipment', {
    warehouseId: line.warehouseId, customerId: line.customerId, reference: `E2E ${trackingNumber}`,
    shipTo: { name: 'Nora Receiver', address1: '5 Harbour Rd', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
    lines: [{ skuId: line.skuId, locationId: line.locationId, ...(line.lot ? { lot: line.lot } : {}), ...(line.pallet ? { pallet: line.pallet } : {}), quantity: 1 }], packages: [{ weightKg: 1.5, lengthCm: 30, widthCm: 20, heightCm: 10 }],
    trackingNumber, carrierName: 'City Courier',
  });
  return { ...(made.data as { shipmentId: number; shipmentNumber: string }), warehouseName: line.warehouseName };
}

describe('tickets about shipments', () => {
  it('the client opens a ticket about its shipment; the ticket’s About opens the shipment’s view with the ticket; another customer’s is not found', async () => {
    const admin = await signedIn(DEMO.admin);
    const adminApi = apiOf(admin);
    const stamp = Date.now().toString(36).toUpperCase();
    const mine = await manualShipment(adminApi, 'FJE-10', `E2E-FJ-${stamp}`);
    const theirs = await manualShipment(adminApi, 'ACME-10', `E2E-AC-${stamp}`);

    const client = await signedIn(DEMO.client);
    await client.goto('/HelpDesk');
    await switchIfAsked(client, 'Service Management', client.getByTestId('helpdesk-page'));
    await client.getByRole('button', { name: 'New Ticket' }).click();
    const title = `Parcel not delivered ${stamp}`;
    await client.getByTestId('ticket-title').fill(title);
    await client.locator('.ant-drawer-content .ant-form-item', { hasText: 'Document' }).first().locator('.ant-select').click();
    await client.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Shipment$/ }).click();
    await client.locator('.ant-drawer-content .ant-form-item', { hasText: 'Document number' }).locator('input').fill(mine.shipmentNumber);
    await client.getByRole('button', { name: 'Open Ticket' }).click();
    const view = client.getByTestId('ticket-view');
    await view.getByRole('link', { name: `Shipment ${mine.shipmentNumber}` }).click();

    // The shipment's own view, in Warehouse Management: carrier, tracking, ship-to, history and the ticket.
    await client.waitForURL(new RegExp(`/ShippingDashboard\\?shipmentId=${mine.shipmentId}$`));
    const drawer = client.getByTestId('shipment-view');
    await switchIfAsked(client, 'Warehouse Management', drawer);
    await client.getByTestId('shipment-title').getByText(`Shipment ${mine.shipmentNumber}`).waitFor();
    const facts = client.getByTestId('shipment-facts');
    await facts.getByText(`E2E-FJ-${stamp}`, { exact: true }).waitFor();
    await facts.getByText('Nora Receiver').waitFor();
    await facts.getByText('City Courier').waitFor();
    const tickets = drawer.getByTestId('linked-tickets');
    await tickets.getByText('Tickets (1)').waitFor().catch(async (e) => { await shot(client, 'ticket-shipment-failure'); throw e; });
    await tickets.getByText(title).waitFor();
    await shots(client, 'ticket-shipment-view-client');
    await drawer.getByRole('tab', { name: 'History' }).click();
    await client.getByTestId('shipment-history').getByText('Labelled → Shipped', { exact: false }).waitFor();

    // Another customer's shipment: not found, nothing of it shown.
    await client.goto(`/ShippingDashboard?shipmentId=${theirs.shipmentId}`);
    await client.locator('.bolx-shipment-drawer').getByText('Shipment not found').waitFor();
    expect(await client.getByText(theirs.shipmentNumber).count()).toBe(0);
    await shot(client, 'ticket-shipment-not-found-1440');

    // Staff reach the same view from the dashboard's row.
    await admin.goto('/ShippingDashboard');
    await admin.locator('.bolx-shipping__warehouse').click();
    await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: mine.warehouseName }).first().click();
    await admin.getByRole('tab', { name: /Shipped today/ }).click();
    await admin.getByTestId(`open-shipment-${mine.shipmentId}`).click();
    await admin.getByTestId('shipment-view').getByTestId('linked-tickets').getByText(title).waitFor();
    await admin.getByTestId('shipment-packages').getByText(`E2E-FJ-${stamp}`).waitFor();
    await shots(admin, 'ticket-shipment-view-staff');
  });

  it('a freight shipment opens a ticket about itself; the ticket’s About opens its edit tab with the ticket', async () => {
    const admin = await signedIn(DEMO.admin);
    const api = apiOf(admin);
    // A freight shipment of the demo client's warehouse, planned through the route (a loose pallet, no orders).
    const stock = (await api('/Warehouse/Inventory/GetStockOnHand', { filters: {}, searchQuery: 'FJE-10', pageNumber: 1, pageSize: 1 })).items as { warehouseId: number; customerId: number }[];
    const made = await api('/Freight/FreightShipment/CreateFreightShipment', {
      warehouseId: stock[0].warehouseId, customerId: stock[0].customerId, carrierName: 'Old Dominion Freight Line', scac: 'ODFL', chargeTerms: 'Prepaid',
      consignee: { name: 'Retail DC 7', address1: '100 Market St', city: 'Columbus', state: 'OH', zip: '43004', country: 'US' },
      handlingUnits: [{ handlingType: 'Pallet', handlingQty: 1, packageType: 'Carton', pieces: 4, weightKg: 200, lengthCm: 121.9, widthCm: 101.6, heightCm: 120, freightClass: '100', description: 'Housewares', hazmat: false }],
    });
    const freight = made.data as { shipmentId: number; shipNumber: string };

    await admin.goto(`/HelpDesk?${new URLSearchParams({ new: 'freight-shipment', number: freight.shipNumber })}`);
    await switchIfAsked(admin, 'Service Management', admin.getByTestId('ticket-title'));
    const title = `Liftgate needed ${Date.now().toString(36)}`;
    await admin.getByTestId('ticket-title').fill(title);
    await expect.poll(() => admin.locator('.ant-drawer-content .ant-form-item', { hasText: 'Document number' }).locator('input').inputValue()).toBe(freight.shipNumber);
    await shots(admin, 'ticket-freight-new');
    await admin.getByRole('button', { name: 'Open Ticket' }).click();
    await admin.getByTestId('ticket-view').getByRole('link', { name: `Freight shipment ${freight.shipNumber}` }).click();

    await admin.waitForURL(/\/FreightShipment/);
    const tab = admin.getByRole('tab', { name: `Freight Shipment: ${freight.shipNumber}` });
    await switchIfAsked(admin, 'Freight Management', tab);
    // The spec's tab rules hold: the dashboard tab stays first, the edit tab is the one opened.
    await admin.getByRole('tab', { name: 'Freight Shipment Dashboard' }).waitFor();
    const block = admin.locator('.ant-tabs-tabpane-active').getByTestId('linked-tickets');
    await block.getByText('Tickets (1)').waitFor();
    await block.getByText(title).waitFor();
    await shots(admin, 'ticket-freight-edit-tab', block);
    const list = await api('/ServiceManagement/HelpDesk/GetTickets', { searchQuery: title, pageNumber: 1, pageSize: 5 });
    expect(list.items[0].link).toEqual({ kind: 'freight-shipment', id: freight.shipmentId, number: freight.shipNumber });
  });
});
