import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/platform/errors.js';
import { readSheet, SHEET_MAX_COLUMNS, SHEET_MAX_ROWS, SHEET_MAX_ZIP_ENTRIES, type SheetSpec } from '../src/platform/sheet.js';
import { blankSheetPart, deflatedPart, SHEET_HEAD, SHEET_TAIL, sheetXml, workbookParts, xlsxOf, ZIP_BOMBS, zipOf, type ZipPart } from './zip-bombs.js';

/** platform/sheet.ts, the one reader of uploaded spreadsheets: what it reads, and where it stops. */
const COLUMNS = ['SKU', 'Quantity', 'Expiry Date', 'Notes'] as const;
type C = (typeof COLUMNS)[number];
const SPEC: SheetSpec<C> = { columns: COLUMNS, required: ['SKU'], maxRows: 100, noun: 'rows', maxBytes: 20 * 1024 * 1024 };
const read = (fileName: string, bytes: Buffer, spec: Partial<SheetSpec<C>> = {}) => readSheet({ fileName, bytes }, { ...SPEC, ...spec });

/** The refusal a read ends in: status, message, details. */
async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  const { status, message, details } = err as AppError;
  return { status, message, details };
}

/**
 * How the event loop fared while `work` ran: how many 1 ms timer turns it served, and the longest it went
 * unserved — in wall-clock time, and in this process's CPU time, which other processes on a shared machine
 * cannot inflate (the bound is on that one; a reader that never yields serves no turn at all).
 */
async function loopWhile(work: () => Promise<unknown>): Promise<{ turns: number; stallMs: number; cpuStallMs: number; totalMs: number }> {
  const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  let last = performance.now();
  let lastCpu = cpuMs();
  let stallMs = 0;
  let cpuStallMs = 0;
  let turns = 0;
  const turn = () => {
    const now = performance.now();
    const cpu = cpuMs();
    stallMs = Math.max(stallMs, now - last);
    cpuStallMs = Math.max(cpuStallMs, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(() => { turn(); turns++; }, 1);
  const started = performance.now();
  await work();
  const totalMs = performance.now() - started;
  clearInterval(timer);
  turn();
  return { turns, stallMs, cpuStallMs, totalMs };
}

/**
 * Yielding is the behaviour: a read that never yields lets the timer run 0 times. How many turns fit depends on
 * the machine's speed (a fast one reads the file in a few slices) and how long a slice takes is machine-dependent
 * too (a GC pause alone can pass 100 ms), so both are shown by the figures printed, not asserted.
 */
function expectYielded(turns: number, totalMs: number): void {
  expect(turns).toBeGreaterThanOrEqual(Math.max(2, Math.floor(totalMs / 100)));
}

describe('readSheet on .xlsx', () => {
  it('reads what exceljs writes as exceljs’s cell.text did: shared strings, numbers, dates as YYYY-MM-DD, booleans, formulas, rich text', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Count');
    sheet.addRow(['sku', 'QUANTITY', 'Expiry Date', 'Notes']);
    sheet.addRow(['A & <B>', 1.5, new Date(Date.UTC(2027, 2, 31)), true]);
    sheet.addRow([]);
    sheet.addRow(['012345', 12345678905, null, { richText: [{ text: 'bold ', font: { bold: true } }, { text: 'plain' }] }]);
    sheet.addRow(['F-1', { formula: '2*3', result: 6 }, '2027-04-01', 'two\nlines']);
    sheet.getCell('C2').numFmt = 'yyyy-mm-dd';
    const { rows, mimeType } = await read('count.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    expect(mimeType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(rows).toEqual([
      { row: 2, cells: { SKU: 'A & <B>', Quantity: '1.5', 'Expiry Date': '2027-03-31', Notes: 'true' } },
      { row: 4, cells: { SKU: '012345', Quantity: '12345678905', 'Expiry Date': '', Notes: 'bold plain' } },
      { row: 5, cells: { SKU: 'F-1', Quantity: '6', 'Expiry Date': '2027-04-01', Notes: 'two\nlines' } },
    ]);
  });

  it('reads inline strings, prefixed element names, cells without references and 1904-based dates', async () => {
    const sheet = '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>'
      + '<x:row><x:c t="inlineStr"><x:is><x:t>SKU</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>Expiry Date</x:t></x:is></x:c></x:row>'
      + '<x:row><x:c t="inlineStr"><x:is><x:t xml:space="preserve"> P&#233;-1 </x:t></x:is></x:c><x:c s="1"><x:v>45000</x:v></x:c></x:row>'
      + '</x:sheetData></x:worksheet>';
    const styles = '<styleSheet><cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>';
    const parts = workbookParts(deflatedPart('xl/worksheets/sheet1.xml', sheet)).map((p) => p.name === 'xl/workbook.xml'
      ? deflatedPart(p.name, '<workbook><workbookPr date1904="1"/><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>') : p);
    const { rows } = await read('p.xlsx', zipOf([...parts, deflatedPart('xl/styles.xml', styles)]));
    // 45000 days after 1904-01-01 (Excel's 1904 system) is 2027-03-16.
    expect(rows).toEqual([{ row: 2, cells: { SKU: 'Pé-1', 'Expiry Date': '2027-03-16' } }]);
  });

  it('refuses a part packed more than 100 to 1, before unpacking it (422 naming the file)', async () => {
    const { status, message, details } = await refusal(read('dense.xlsx', zipOf(workbookParts(blankSheetPart(8)))));
    expect(status).toBe(422);
    expect(message).toBe('dense.xlsx is packed more than 100 to 1, which no real spreadsheet is');
    expect(details).toEqual({ file: message });
  });

  it(`refuses a package of more than ${SHEET_MAX_ZIP_ENTRIES} parts`, async () => {
    const filler = Array.from({ length: SHEET_MAX_ZIP_ENTRIES }, (_, i): ZipPart => ({ name: `m/${i}`, data: Buffer.alloc(0), stored: true, size: 0, crc: 0 }));
    const { status, message } = await refusal(read('many.xlsx', zipOf([...workbookParts(deflatedPart('xl/worksheets/sheet1.xml', sheetXml([['SKU']]))), ...filler])));
    expect(status).toBe(422);
    expect(message).toBe('many.xlsx holds more than 1,000 parts; no spreadsheet this upload takes has so many');
  });

  it('refuses a part whose data unpacks to more than it declares, stopping there', async () => {
    const text = sheetXml([['SKU'], ['A'.repeat(5000)]]);
    const lying = { ...deflatedPart('xl/worksheets/sheet1.xml', text), declaredSize: 1000 };
    const { status, message } = await refusal(read('liar.xlsx', zipOf(workbookParts(lying))));
    expect(status).toBe(422);
    expect(message).toBe('liar.xlsx unpacks to more than its parts declare (xl/worksheets/sheet1.xml); it is refused');
  });

  it('answers 400 for a broken package: cut short, unpacking to less than declared, or encrypted', async () => {
    const good = xlsxOf([['SKU'], ['A']]);
    expect(await refusal(read('cut.xlsx', good.subarray(0, good.length - 30)))).toMatchObject({ status: 400, message: 'cut.xlsx could not be read as an Excel (.xlsx) workbook' });
    const short = { ...deflatedPart('xl/worksheets/sheet1.xml', sheetXml([['SKU'], ['A']])) };
    short.declaredSize = short.size + 10;
    expect((await refusal(read('short.xlsx', zipOf(workbookParts(short))))).status).toBe(400);
    const encrypted = zipOf(workbookParts(deflatedPart('xl/worksheets/sheet1.xml', sheetXml([['SKU'], ['A']]))));
    // Set the "encrypted" flag of the last central directory record (the sheet).
    const at = encrypted.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    encrypted.writeUInt16LE(1, at + 8);
    const local = encrypted.lastIndexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    encrypted.writeUInt16LE(1, local + 6);
    expect((await refusal(read('locked.xlsx', encrypted))).status).toBe(400);
  });

  it('refuses malformed XML at once, however it is crafted (the tokenizer is linear)', async () => {
    for (const junk of ['<!--'.repeat(200_000), '<a'.repeat(400_000), '<![CDATA['.repeat(90_000), '<c t="'.repeat(130_000)]) {
      const sheet = deflatedPart('xl/worksheets/sheet1.xml', SHEET_HEAD + '<row><c t="inlineStr"><is><t>SKU</t></is></c></row>' + junk);
      const started = performance.now();
      expect(await refusal(read('junk.xlsx', zipOf(workbookParts(sheet))))).toMatchObject({ status: 400, message: 'junk.xlsx could not be read as an Excel (.xlsx) workbook' });
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  it(`refuses a value past column ${SHEET_MAX_COLUMNS}; empty cells out there are ignored`, async () => {
    const wide = SHEET_HEAD + '<row r="1"><c r="A1" t="inlineStr"><is><t>SKU</t></is></c><c r="XFD1" s="1"/></row>'
      + '<row r="2"><c r="A2" t="inlineStr"><is><t>A</t></is></c><c r="CV2"><v>7</v></c></row>' + SHEET_TAIL;
    expect((await read('ok.xlsx', zipOf(workbookParts(deflatedPart('xl/worksheets/sheet1.xml', wide))))).rows).toEqual([{ row: 2, cells: { SKU: 'A' } }]);
    const wider = wide.replace('r="CV2"', 'r="CW2"');
    const { status, message } = await refusal(read('wide.xlsx', zipOf(workbookParts(deflatedPart('xl/worksheets/sheet1.xml', wider)))));
    expect(status).toBe(422);
    expect(message).toBe('wide.xlsx: row 2 has a value in column 101; a sheet may use at most 100 columns');
  });

  it('stops at the first row past the upload’s limit', async () => {
    const rows = [['SKU'], ...Array.from({ length: 101 }, (_, i) => [`S-${i}`])];
    expect(await refusal(read('long.xlsx', xlsxOf(rows)))).toMatchObject({ status: 422, message: 'A file may hold at most 100 rows' });
    expect((await read('fits.xlsx', xlsxOf(rows.slice(0, 101)))).rows).toHaveLength(100);
  });

  it(`reads a legal ${SHEET_MAX_ROWS.toLocaleString('en-US')}-row sheet in slices: the event loop is never held long`, async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Big');
    sheet.addRow([...COLUMNS]);
    for (let i = 0; i < SHEET_MAX_ROWS; i++) sheet.addRow([`SKU-${i}`, i, new Date(Date.UTC(2027, 0, 1 + (i % 300))), `note ${i % 97}`]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    let rows = 0;
    const { turns, stallMs, cpuStallMs, totalMs } = await loopWhile(async () => { rows = (await read('big.xlsx', bytes, { maxRows: SHEET_MAX_ROWS })).rows.length; });
    console.info(`${SHEET_MAX_ROWS} rows × 4 columns, ${(bytes.length / 1024).toFixed(0)} KB xlsx: read in ${totalMs.toFixed(0)} ms; ${turns} event-loop turns meanwhile, longest stall ${stallMs.toFixed(1)} ms (${cpuStallMs.toFixed(1)} ms of CPU)`);
    expect(rows).toBe(SHEET_MAX_ROWS);
    expectYielded(turns, totalMs);
  });
});

describe('readSheet on a zip bomb, in a fresh process', () => {
  const serverDir = new URL('..', import.meta.url).pathname;
  it.each(Object.keys(ZIP_BOMBS) as (keyof typeof ZIP_BOMBS)[])('refuses %s with its resident memory growing under 100 MB', async (name) => {
    const dir = mkdtempSync(join(tmpdir(), 'bolx-bomb-'));
    try {
      writeFileSync(join(dir, name), ZIP_BOMBS[name]());
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/read-sheet-child.ts', join(dir, name), name], { cwd: serverDir });
      const outcome = JSON.parse(stdout) as { status: number; message: string; growthMb: number };
      console.info(`${name}: ${outcome.status} ${outcome.message}; peak RSS growth ${outcome.growthMb.toFixed(1)} MB`);
      expect(outcome.status).toBe(422);
      expect(outcome.message).toContain(name);
      expect(outcome.growthMb).toBeLessThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('readSheet on .csv', () => {
  it('reads rows by header name, skipping blank lines, with their line numbers', async () => {
    const { rows, mimeType } = await read('c.csv', Buffer.from('\ufeffsku,notes\nA,"x, y"\n\n b ,\n'));
    expect(mimeType).toBe('text/csv');
    expect(rows).toEqual([{ row: 2, cells: { SKU: 'A', Notes: 'x, y' } }, { row: 4, cells: { SKU: 'b', Notes: '' } }]);
  });

  it(`refuses a value past column ${SHEET_MAX_COLUMNS} and a row past the limit`, async () => {
    // Empty fields out there are fine, however many; one value is not, and a million commas are never a million cells.
    expect((await read('empty.csv', Buffer.from(`SKU${','.repeat(300)}\nA${','.repeat(300)}\n`))).rows).toEqual([{ row: 2, cells: { SKU: 'A' } }]);
    const wide = `SKU${','.repeat(SHEET_MAX_COLUMNS)}x\nA\n`;
    expect(await refusal(read('wide.csv', Buffer.from(wide)))).toMatchObject({ status: 422, message: 'wide.csv: row 1 has a value past column 100; a sheet may use at most 100 columns' });
    const commas = Buffer.from(`SKU\nA${','.repeat(5_000_000)}B\n`);
    expect(await refusal(read('commas.csv', commas))).toMatchObject({ status: 422, message: 'commas.csv: row 2 has a value past column 100; a sheet may use at most 100 columns' });
    const long = `SKU\n${Array.from({ length: 101 }, (_, i) => `S-${i}`).join('\n')}\n`;
    expect(await refusal(read('long.csv', Buffer.from(long)))).toMatchObject({ status: 422, message: 'A file may hold at most 100 rows' });
  });

  it('parses a large CSV in slices', async () => {
    const csv = Buffer.from(`SKU,Quantity,Notes\n${Array.from({ length: SHEET_MAX_ROWS }, (_, i) => `SKU-${i},${i},"note, ${i}"`).join('\n')}\n`);
    const { turns, stallMs, cpuStallMs, totalMs } = await loopWhile(() => read('big.csv', csv, { maxRows: SHEET_MAX_ROWS }));
    console.info(`${SHEET_MAX_ROWS} rows, ${(csv.length / 1024).toFixed(0)} KB csv: read in ${totalMs.toFixed(0)} ms; ${turns} event-loop turns meanwhile, longest stall ${stallMs.toFixed(1)} ms (${cpuStallMs.toFixed(1)} ms of CPU)`);
    expectYielded(turns, totalMs);
  });

  it('refuses what is not a spreadsheet, whatever its name (the one upload check)', async () => {
    expect(await refusal(read('x.csv', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0])))).toMatchObject({ status: 400, details: { file: "Only XLSX, CSV files are allowed, and the file's name must match its content" } });
    expect((await refusal(read('x.xlsx', Buffer.from('SKU\nA\n')))).status).toBe(400);
  });
});
