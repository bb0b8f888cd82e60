import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { signInToDashboard } from '../support/session.js';

// Label barcodes are checked with a real decoder, as a scanner would read them.
const DECODERS = existsSync('/usr/bin/zbarimg') && existsSync('/usr/bin/pdftoppm');
if (!DECODERS) throw new Error('The location label journey needs zbarimg (zbar-tools) and pdftoppm (poppler-utils)');

const WAREHOUSE = 'Ontario West Coast DC';
/** A zone's 5 aisles × 5 racks × 4 levels. */
const patternCodes = (zone: string) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  const codes: string[] = [];
  for (let a = 1; a <= 5; a++) for (let r = 1; r <= 5; r++) for (let l = 1; l <= 4; l++) codes.push(`${zone}-${pad(a)}-${pad(r)}-${pad(l)}`);
  return codes;
};
/**
 * The zone of the pattern's codes and the prefix of the uploaded ones: their own per attempt, set by the journeys
 * that create them and read by the ones after. CI's retry runs on the same server, where the first attempt's codes
 * exist already (the pattern would create nothing, the upload refuse them).
 */
let ZONE = '';
let UPL = '';
const attempts = { pattern: 0, upload: 0 };

const demo = useDemoServer();
let admin: Page;
const tmp = mkdtempSync(join(tmpdir(), 'bolx-e2e-locations-'));

beforeAll(async () => {
  admin = await demo.newPage({ acceptDownloads: true });
  await signInToDashboard(admin, 'admin', 'bolx-demo-admin');
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
});

/** Picks an option of an antd Select by typing part of its text. */
async function pick(page: Page, scope: Locator | Page, label: string, option: string) {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(option);
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first().click();
}

async function open(page: Page, path: string, heading: string) {
  await page.goto(path);
  await page.getByRole('heading', { name: heading }).first().waitFor();
}

async function searchList(page: Page, text: string) {
  const search = page.getByPlaceholder('Search Location');
  await search.fill(text);
  // The list asks again after the search debounce; wait for the answer.
  await page.waitForResponse((r) => r.url().includes('/GetLocations') && r.request().postData()?.includes(text) === true);
}

function decode(files: string[], symbology: 'code128' | 'qrcode'): string[] {
  let out = '';
  try {
    out = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', `-S${symbology}.enable`, ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? ''); // exit 4: nothing found in some image
  }
  return out.split('\n').filter(Boolean).sort();
}

/**
 * The QR codes of an A4 sheet PDF (3 × 10 labels, 14 × 21 pt margins), each label rendered and read alone, as a
 * scanner reads one label: zbarimg misses a few of thirty QR codes in one image (its finder confuses aligned ones),
 * while every label alone decodes.
 */
function decodeSheetQrCodes(pdf: string, pages: number, dir: string): string[] {
  const dpi = 200;
  const pt = (v: number) => Math.round((v * dpi) / 72);
  const [cellW, cellH] = [(595.28 - 28) / 3, (841.89 - 42) / 10];
  const cells: string[] = [];
  for (let p = 1; p <= pages; p++) {
    for (let i = 0; i < 30; i++) {
      const file = join(dir, `cell-${p}-${i}`);
      execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(p), '-l', String(p), '-singlefile', '-png',
        '-x', String(pt(14 + (i % 3) * cellW)), '-y', String(pt(21 + Math.floor(i / 3) * cellH)), '-W', String(pt(cellW)), '-H', String(pt(cellH)), pdf, file]);
      cells.push(`${file}.png`);
    }
  }
  return decode(cells, 'qrcode');
}

describe('locations as admin', () => {
  it('bulk-creates 100 locations by pattern with a live preview, then finds them in the list', async () => {
    ZONE = `E2E${++attempts.pattern}`;
    const page = admin;
    await open(page, '/CreateLocation', 'Create Location');
    await page.getByRole('tab', { name: 'Bulk by Pattern' }).click();
    const form = page.locator('.ant-tabs-tabpane-active');
    await pick(page, form, 'Warehouse', WAREHOUSE);
    await pick(page, form, 'Location Type', 'Rack');
    await form.getByLabel('Zone', { exact: true }).fill(ZONE.toLowerCase());
    for (const [segment, to] of [['Aisle', '5'], ['Rack', '5'], ['Level', '4']] as const) {
      await form.getByLabel(`${segment} To`).fill(to);
    }
    await form.getByLabel('Capacity', { exact: true }).fill('250');
    const preview = page.getByTestId('pattern-preview');
    await preview.getByText('100', { exact: true }).waitFor();
    await preview.getByText(`${ZONE}-01-01-01`, { exact: true }).waitFor();
    await preview.getByText(`${ZONE}-01-01-01 … ${ZONE}-05-05-04`).waitFor();
    await shot(page, 'locations-create-pattern');

    await page.getByRole('button', { name: 'Create 100 Locations' }).click();
    await page.getByText('100 locations created successfully').first().waitFor();
    // The preview says they were just created, not that they clash and "nothing will be created" beside the success.
    await preview.getByText('These 100 locations were just created. Change the pattern to create more.').waitFor();
    expect(await preview.getByText(/already exist|nothing will be created/).count()).toBe(0);
    await shot(page, 'locations-create-pattern-created');
    // The same pattern cannot be sent twice; once the form changes, the clash is what the preview names.
    expect(await page.getByRole('button', { name: /Create 100 Locations/ }).isDisabled()).toBe(true);
    await form.getByLabel('Capacity', { exact: true }).fill('300');
    await preview.getByText(/100 codes already exist/).waitFor();

    await open(page, '/Location', 'Locations');
    await searchList(page, `${ZONE}-`);
    await page.getByText('1-10 of 100 items').waitFor();
    await page.getByRole('cell', { name: `${ZONE}-01-01-01`, exact: true }).first().waitFor();
    await shot(page, 'locations-list');
  });

  it('refuses an upload with a bad row (row errors shown, nothing written), then takes a good one', async () => {
    UPL = `UPL${++attempts.upload}`;
    const page = admin;
    await open(page, '/LocationUpload', 'Location Upload');
    await pick(page, page.locator('form'), 'Warehouse', WAREHOUSE);
    const bad = join(tmp, 'bad.csv');
    writeFileSync(bad, `Location Code,Location Type,Capacity,Zone\n${UPL}-01,rack,10,UPL\n${UPL}-02,silo,lots,UPL\n`);
    await page.locator('input[type=file]').setInputFiles(bad);
    await page.getByRole('button', { name: 'Upload' }).click();
    const errors = page.getByTestId('upload-errors');
    await errors.getByText('The file has 2 errors; nothing was imported').waitFor();
    await errors.getByRole('cell', { name: "Unknown location type 'silo'" }).waitFor();
    await errors.getByRole('cell', { name: 'Capacity must be a whole number of 0 or more (0 = unlimited)' }).waitFor();
    expect(await errors.getByRole('row').filter({ hasText: 'Capacity' }).first().getByRole('cell').first().textContent()).toBe('3');
    await errors.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400); // the screen scrolls the errors into view smoothly
    await shot(page, 'locations-upload-errors');

    // Nothing was written: not even the good first row.
    await open(page, '/Location', 'Locations');
    await searchList(page, `${UPL}-`);
    await page.getByText('No Record Found').waitFor();

    await open(page, '/LocationUpload', 'Location Upload');
    await pick(page, page.locator('form'), 'Warehouse', WAREHOUSE);
    const good = join(tmp, 'good.csv');
    writeFileSync(good, `Location Code,Location Type,Capacity,Zone\n${UPL}-01,rack,10,UPL\n${UPL}-02,shelf,0,UPL\n`);
    await page.locator('input[type=file]').setInputFiles(good);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('2 locations uploaded successfully').first().waitFor();
    // The file taken is cleared, so it cannot be sent twice.
    await expect.poll(() => page.locator('.ant-upload-list-item').count()).toBe(0);
    await shot(page, 'locations-upload-done');

    await open(page, '/Location', 'Locations');
    await searchList(page, `${UPL}-`);
    await page.getByRole('cell', { name: `${UPL}-02`, exact: true }).first().waitFor();
    await page.getByText('1-2 of 2 items').waitFor();
  });

  it('prints the 100 labels as a PDF whose Code 128 and QR codes decode to the location codes', async () => {
    const page = admin;
    await open(page, '/PrintLocations', 'Print Locations');
    const form = page.locator('form');
    await pick(page, form, 'Warehouse', WAREHOUSE);
    await form.getByLabel('From Code').fill(`${ZONE.toLowerCase()}-`);
    await form.getByLabel('To Code').fill(`${ZONE}-99`);
    await page.getByText('A4 sheet (30)').click();
    await page.getByText('Both', { exact: true }).click();
    await page.getByTestId('label-preview').locator('img').first().waitFor();
    await shot(page, 'locations-print');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Print Labels' }).click()]);
    const pdf = join(tmp, download.suggestedFilename());
    await download.saveAs(pdf);
    expect(download.suggestedFilename()).toBe('location-labels.pdf');
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    execFileSync('pdftoppm', ['-r', '200', '-png', pdf, join(tmp, 'label')]);
    const pages = readdirSync(tmp).filter((f) => f.startsWith('label') && f.endsWith('.png')).map((f) => join(tmp, f));
    expect(pages).toHaveLength(4); // 100 labels, 30 a sheet
    expect(decode(pages, 'code128')).toEqual(patternCodes(ZONE));
    expect(decodeSheetQrCodes(pdf, pages.length, mkdtempSync(join(tmp, 'cells-')))).toEqual(patternCodes(ZONE));
  });

  it('prints labels for rows picked on the list', async () => {
    const page = admin;
    await open(page, '/Location', 'Locations');
    await searchList(page, `${ZONE}-05-05-`);
    for (const code of [`${ZONE}-05-05-01`, `${ZONE}-05-05-02`]) {
      await page.getByRole('row', { name: new RegExp(code) }).getByRole('checkbox').check();
    }
    await page.getByRole('button', { name: 'Print 2 Labels' }).click();
    await page.waitForURL('**/PrintLocations');
    await page.getByText('2 locations picked on the list').waitFor();
    await page.locator('form').getByText('4 × 2 in', { exact: true }).click();
    await page.locator('form').getByText('QR Code', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Print Labels' }).click()]);
    const dir = mkdtempSync(join(tmp, 'picked-'));
    const pdf = join(dir, 'picked.pdf');
    await download.saveAs(pdf);
    execFileSync('pdftoppm', ['-r', '200', '-png', pdf, join(dir, 'label')]);
    const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).map((f) => join(dir, f));
    expect(pages).toHaveLength(2);
    expect(decode(pages, 'qrcode')).toEqual([`${ZONE}-05-05-01`, `${ZONE}-05-05-02`]);
    expect(decode(pages, 'code128')).toEqual([]);
  });

  it('makes a QR code and a Code 128 of typed text on /QRCode', async () => {
    const page = admin;
    await open(page, '/QRCode', 'QR Code');
    await shot(page, 'locations-qrcode-empty');
    await page.getByLabel('Text').fill('DOCK-DOOR-07');
    const preview = page.getByTestId('qr-preview');
    await preview.locator('img[data-symbology="qr"]').waitFor();
    await shot(page, 'locations-qrcode');

    const [qr] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PNG' }).click()]);
    const qrFile = join(tmp, 'qr.png');
    await qr.saveAs(qrFile);
    expect(decode([qrFile], 'qrcode')).toEqual(['DOCK-DOOR-07']);

    await page.getByText('Code 128', { exact: true }).click();
    await preview.locator('img[data-symbology="code128"]').waitFor();
    await shot(page, 'locations-qrcode-code128');
    const [linear] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PNG' }).click()]);
    const linearFile = join(tmp, 'code128.png');
    await linear.saveAs(linearFile);
    expect(decode([linearFile], 'code128')).toEqual(['DOCK-DOOR-07']);

    // Code 128 holds ASCII only: the screen says so instead of drawing something unreadable.
    await page.getByLabel('Text').fill('Zürich');
    await page.getByText('Code 128 holds plain letters, digits and symbols only', { exact: false }).first().waitFor();
  });

  it('lists the other locations (staging, dock, returns, quarantine)', async () => {
    const page = admin;
    await open(page, '/OtherLocations', 'Other Locations');
    await page.locator('.ant-table-row').first().waitFor();
    await shot(page, 'locations-other');
  });

  it('edits a location in the drawer', async () => {
    const page = admin;
    await open(page, '/Location', 'Locations');
    await searchList(page, `${UPL}-01`);
    await page.getByRole('button', { name: `Edit ${UPL}-01` }).click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByLabel('Capacity', { exact: true }).fill('75');
    await page.waitForTimeout(500); // let the drawer finish sliding in
    await shot(page, 'locations-edit');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Location updated successfully').first().waitFor();
    await page.getByRole('row', { name: new RegExp(`${UPL}-01`) }).getByText('75', { exact: true }).waitFor();
  });
});

describe('locations as a client account', () => {
  it('reads only the locations holding its stock, with no way to change them', async () => {
    const page = await demo.newPage();
    await signInToDashboard(page, 'client', 'bolx-demo-client');
    await open(page, '/Location', 'Locations');
    await page.getByText('Locations holding your stock.').waitFor();
    await page.locator('.ant-table-row').first().waitFor();
    await shot(page, 'locations-client');
    expect(await page.getByRole('button', { name: 'Create Location' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await page.locator('.ant-table-selection-column').count()).toBe(0);
    // None of the staff-created locations (they hold no stock of the client's).
    await searchList(page, `${ZONE}-`);
    await page.getByText('No Record Found').waitFor();
    await page.context().close();
  });
});
