import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { signInToDashboard } from '../support/session.js';

const demo = useDemoServer();

/** Opens an app screen through the client-side router (a full load would work too, but is slower). */
async function open(page: Page, path: string) {
  await page.goto(path);
  try {
    await page.locator('.bolx-table-page, .bolx-error-page, .ant-result').first().waitFor();
  } catch (e) {
    await shot(page, `admin-debug-${path.slice(1)}`);
    throw e;
  }
}

const drawer = (page: Page) => page.locator('.ant-drawer-content').last();

/** Lets a drawer finish sliding in before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(400);

/** Picks an option of an antd Select found by its form label. */
async function choose(page: Page, label: string, option: string) {
  const select = drawer(page).getByLabel(label, { exact: true });
  await select.click();
  // The option list is virtual (only ~7 rows exist at a time): type to bring the option into view.
  await select.pressSequentially(option.slice(0, 12));
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).first().click();
}

describe('warehouses', () => {
  let attempt = 0;
  it('creates a warehouse, finds it by search, edits it and downloads the list', async () => {
    // A warehouse of its own per attempt: CI's retry runs on the same database, where the first attempt's code is
    // taken (refused) and a search would find both.
    const code = `SEA${++attempt}`;
    const name = `Seattle Overflow ${attempt}`;
    const page = await demo.newPage({ acceptDownloads: true });
    await signInToDashboard(page, 'admin', 'bolx-demo-admin');
    await open(page, '/Warehouse');
    await page.getByText('Newark Fulfillment Center').waitFor();
    await expect.poll(() => page.locator('.ant-pagination-options').innerText()).toContain('/ page');
    await shot(page, 'admin-warehouse-list');

    await page.getByRole('button', { name: 'Add Warehouse' }).click();
    await drawer(page).getByText('Add Warehouse').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await drawer(page).getByText('Please enter warehouse code!').waitFor();
    await drawer(page).getByText('Please enter city!').waitFor();
    await settle(page);
    await shot(page, 'admin-warehouse-drawer-errors');

    await drawer(page).getByLabel('Code', { exact: true }).fill(code);
    await drawer(page).getByLabel('Warehouse Name').fill(name);
    await drawer(page).getByLabel('Address Line 1').fill('100 Harbor Way');
    await choose(page, 'State', 'Washington (WA)');
    await drawer(page).getByLabel('City', { exact: true }).fill('Seattle');
    await drawer(page).getByLabel('Zip Code').fill('98101');
    await drawer(page).getByLabel('Capacity').fill('120');
    // Spec section 9: a long dropdown scrolls within 200px, and seven options fit before it does.
    await drawer(page).getByLabel('Time Zone').click({ force: true });
    const list = page.locator('.ant-select-dropdown:visible .rc-virtual-list-holder');
    await expect.poll(async () => (await list.boundingBox())?.height).toBe(200);
    const option = await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().boundingBox();
    expect(option!.height * 7).toBeLessThanOrEqual(200);
    await page.keyboard.press('Escape');
    await shot(page, 'admin-warehouse-drawer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.Toastify__toast--success').first().waitFor();
    await drawer(page).waitFor({ state: 'hidden' });

    await page.getByPlaceholder('Search Warehouse').fill(name);
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
    await page.getByRole('cell', { name, exact: true }).waitFor();

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    await expect.poll(() => drawer(page).getByLabel('Warehouse Name').inputValue()).toBe(name);
    await drawer(page).getByLabel('Capacity').fill('240');
    await page.getByRole('button', { name: 'Save' }).click();
    await drawer(page).waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: '240' }).waitFor();
    await shot(page, 'admin-warehouse-edited');

    // Excel of the filtered list: an xlsx workbook (a zip) under the server's file name.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Excel' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^warehouses-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const chunks: Buffer[] = [];
    for await (const c of await download.createReadStream()) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 2).toString()).toBe('PK');
    await page.context().close();
  });
});

describe('users', () => {
  let attempt = 0;
  it('filters users by type, creates one who then shows in the list, edits them and resets their password', async () => {
    // A user of their own per attempt: CI's retry runs on the same database, where the first attempt's username is taken.
    const username = `rosa.picker${++attempt}`;
    const page = await demo.newPage();
    await signInToDashboard(page, 'admin', 'bolx-demo-admin');
    await open(page, '/User');
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await shot(page, 'admin-user-list');

    // The filter bar (UserFiltersLabels): only Warehouse Managers remain.
    await page.locator('.bolx-table__filters').getByRole('combobox', { name: 'User Type' }).click({ force: true });
    await page.locator('.ant-select-dropdown:visible').getByTitle('Warehouse Manager', { exact: true }).click();
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
    await page.getByText('manager@bolx.example.com').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBeGreaterThan(1);

    await page.getByRole('button', { name: 'Add User' }).click();
    await drawer(page).getByLabel('First Name').waitFor();
    await drawer(page).getByLabel('First Name').fill('Rosa');
    await drawer(page).getByLabel('Last Name').fill('Picker');
    await drawer(page).getByLabel('Username').fill(username);
    await drawer(page).getByLabel('Email Address').fill(`${username}@example.com`);
    await drawer(page).getByLabel('Password', { exact: true }).fill('picker-pass-1');
    await drawer(page).getByLabel('Confirm Password').fill('picker-pass-2');
    await choose(page, 'User Type', 'Warehouse Staff');
    await choose(page, 'Warehouses', 'Ontario West Coast DC');
    await page.keyboard.press('Escape');
    await choose(page, 'Clients', 'Fjord Electronics');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save' }).click();
    await drawer(page).getByText('The two passwords you entered did not match!').waitFor();
    await drawer(page).getByLabel('Confirm Password').fill('picker-pass-1');
    await shot(page, 'admin-user-drawer');
    // Modules: read on the whole app in one click, then write on one screen.
    await drawer(page).getByRole('radiogroup', { name: 'Warehouse Management' }).getByText('Read').click();
    await drawer(page).getByRole('radiogroup', { name: 'Warehouse', exact: true }).getByText('Write').click();
    await drawer(page).getByRole('radiogroup', { name: 'Warehouse', exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/admin-user-drawer-modules.png` });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.Toastify__toast--success').first().waitFor();

    await page.getByPlaceholder('Search User').fill(username);
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
    await page.getByText(`${username}@example.com`).waitFor();
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').first().innerText()).toContain('Fjord Electronics');
    await shot(page, 'admin-user-created');

    // Edit: the form opens with the saved values, clients narrowed to the chosen warehouse.
    await page.getByRole('button', { name: `Edit ${username}` }).click();
    await expect.poll(() => drawer(page).getByLabel('First Name').inputValue()).toBe('Rosa');
    await drawer(page).locator('.ant-select-selection-item', { hasText: 'Fjord Electronics' }).waitFor();
    await drawer(page).getByLabel('Last Name').fill('Packer');
    await page.getByRole('button', { name: 'Save' }).click();
    await drawer(page).waitFor({ state: 'hidden' });
    await page.getByText('Rosa Packer').waitFor();

    // An administrator resets the password; the user signs in with the new one.
    await page.getByRole('button', { name: `Reset Password ${username}` }).click();
    await drawer(page).getByLabel('New Password').fill('fresh-pass-99');
    await drawer(page).getByLabel('Confirm Password').fill('fresh-pass-99');
    await settle(page);
    await shot(page, 'admin-user-reset-password');
    await page.getByRole('button', { name: 'Reset Password', exact: true }).last().click();
    await drawer(page).waitFor({ state: 'hidden' });
    await page.context().close();

    const rosa = await demo.newPage();
    await signInToDashboard(rosa, username, 'fresh-pass-99');
    await rosa.getByText(username).first().waitFor();
    await rosa.context().close();
  });

  it('keeps a client account out of /User (Unauthorized)', async () => {
    const page = await demo.newPage();
    await signInToDashboard(page, 'client', 'bolx-demo-client');
    await page.goto('/User');
    await page.getByText('You are not authorized for this page!').waitFor();
    await shot(page, 'admin-user-client-unauthorized');
    await page.context().close();
  });
});

describe('customers', () => {
  let attempt = 0;
  it('creates a customer, adds a carrier account whose secret shows masked, uploads and downloads a document', async () => {
    // A customer of its own per attempt: CI's retry runs on the same database, where the first attempt's code is
    // taken (refused) and a search would find both.
    const code = `NOVA${++attempt}`;
    const name = `Nova Outfitters ${attempt}`;
    const page = await demo.newPage({ acceptDownloads: true });
    await signInToDashboard(page, 'admin', 'bolx-demo-admin');
    await open(page, '/Customer');
    await page.getByText('Fjord Electronics').first().waitFor();
    await shot(page, 'admin-customer-list');

    await page.getByRole('button', { name: 'Add Client' }).click();
    await drawer(page).getByLabel('Client Name').waitFor();
    await drawer(page).getByLabel('Code', { exact: true }).fill(code);
    await drawer(page).getByLabel('Client Name').fill(name);
    await drawer(page).getByLabel('Contact Person').fill('Nia Nova');
    await drawer(page).getByLabel('Phone Number').fill('+1 555 010 2000');
    await drawer(page).getByLabel('Email Address').fill('ops@nova.example.com');
    await choose(page, 'State', 'Oregon (OR)');
    await drawer(page).getByLabel('City', { exact: true }).fill('Portland');
    await drawer(page).getByLabel('Zip Code').fill('97201');
    await choose(page, 'Warehouses', 'Ontario West Coast DC');
    await page.keyboard.press('Escape');
    await shot(page, 'admin-customer-drawer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.Toastify__toast--success').first().waitFor();
    await drawer(page).waitFor({ state: 'hidden' });

    await page.getByPlaceholder('Search Client').fill(name);
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
    await page.getByRole('button', { name: `View ${name}` }).click();
    await page.getByRole('heading', { name }).waitFor();
    await shot(page, 'admin-customer-details');

    // Carrier account: the secret is sent once and only ever shown masked.
    await page.getByRole('tab', { name: 'Carrier Accounts' }).click();
    await page.getByRole('button', { name: 'Add Carrier Account' }).click();
    await choose(page, 'Carrier', 'UPS');
    await drawer(page).getByLabel('Account Name').fill('Nova UPS');
    await drawer(page).getByLabel('Account Number').fill('1Z9999');
    await drawer(page).getByLabel('Client ID').fill('nova-client');
    await drawer(page).getByLabel('Client Secret').fill('super-secret-value-4321');
    await shot(page, 'admin-customer-carrier-drawer');
    await page.getByRole('button', { name: 'Save' }).click();
    await drawer(page).waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Nova UPS', exact: true }).waitFor();
    const row = await page.locator('.ant-tabs-tabpane-active .ant-table-tbody tr.ant-table-row').first().innerText();
    expect(row).toContain('Account Number: 1Z9999');
    expect(row).toContain('4321');
    expect(row).not.toContain('super-secret-value');
    expect(await page.content()).not.toContain('super-secret-value');
    await shot(page, 'admin-customer-carriers');
    await page.getByRole('tab', { name: 'Channel Integrations' }).click();
    await page.locator('.ant-tabs-tabpane-active').getByText('No Record Found').waitFor();
    await shot(page, 'admin-customer-channels');

    // Documents: a wrong type is refused before upload; a PDF uploads and downloads byte for byte.
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByRole('button', { name: 'Upload Document' }).click();
    await choose(page, 'Document Type', 'Contract');
    const fileInput = drawer(page).locator('input[type=file]');
    await fileInput.setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await page.getByRole('button', { name: 'Upload Document' }).last().click();
    await drawer(page).getByText('This file type is not allowed.').waitFor();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    await fileInput.setInputFiles({ name: 'nova-contract.pdf', mimeType: 'application/pdf', buffer: pdf });
    await drawer(page).getByLabel('Notes').fill('Signed 2026');
    await page.getByRole('button', { name: 'Upload Document' }).last().click();
    await drawer(page).waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'nova-contract.pdf', exact: true }).waitFor();
    await shot(page, 'admin-customer-documents');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download nova-contract.pdf' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('nova-contract.pdf');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
    await page.context().close();
  });
});

describe('small screens', () => {
  it('keeps the list page and its drawer usable on a phone', async () => {
    const page = await demo.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signInToDashboard(page, 'admin', 'bolx-demo-admin');
    await open(page, '/Customer');
    await page.getByText('Acme Outdoor Gear').first().waitFor();
    // Nothing but the table itself scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'admin-customer-list-phone');
    await page.getByRole('button', { name: 'Add Client' }).click();
    await drawer(page).getByLabel('Client Name').waitFor();
    await settle(page);
    expect((await drawer(page).boundingBox())!.width).toBe(390);
    await shot(page, 'admin-customer-drawer-phone');
    await page.context().close();
  });
});
