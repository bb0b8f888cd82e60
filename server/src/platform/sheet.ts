import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { badRequest, unprocessable } from './errors.js';

/** One data row of an uploaded sheet: its spreadsheet row number (the header is row 1) and its cells by column. */
export interface SheetRow<C extends string> {
  row: number;
  cells: Partial<Record<C, string>>;
}

/** One row's problem, reported back so the user can fix the whole file at once. */
export interface RowError {
  row: number;
  column: string;
  message: string;
}

/** Keep an error answer readable: past this many, the rest are summarised. */
export const MAX_REPORTED_ERRORS = 200;

async function xlsxGrid(content: Buffer): Promise<{ row: number; values: string[] }[]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw badRequest('The file could not be read as an Excel (.xlsx) workbook');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw badRequest('The workbook has no sheet');
  const grid: { row: number; values: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const values: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) {
      const cell = row.getCell(c);
      // A date cell's text is the JS Date's long form; keep it as YYYY-MM-DD, the form every sheet column uses.
      values.push(cell.value instanceof Date ? cell.value.toISOString().slice(0, 10) : cell.text ?? '');
    }
    grid.push({ row: rowNumber, values });
  });
  return grid;
}

function csvGrid(content: Buffer): { row: number; values: string[] }[] {
  let records: string[][];
  try {
    records = parse(content, { bom: true, relax_column_count: true, skip_empty_lines: false });
  } catch (err) {
    throw badRequest(`The file could not be read as CSV: ${(err as Error).message.slice(0, 200)}`);
  }
  return records.map((values, i) => ({ row: i + 1, values }));
}

/**
 * The data rows of an uploaded CSV or XLSX file, by column. The first non-empty row is the header; its names
 * match `columns` whatever their case or order. Blank rows are skipped; a missing required column, an empty
 * file or more than `maxRows` rows is refused (422).
 */
export async function readSheet<C extends string>(
  fileName: string, content: Buffer,
  spec: { columns: readonly C[]; required: readonly C[]; maxRows: number; noun: string },
): Promise<SheetRow<C>[]> {
  const ext = fileName.toLowerCase().split('.').pop();
  if (ext !== 'csv' && ext !== 'xlsx') throw badRequest('Upload one Excel (.xlsx) or CSV file');
  const grid = (ext === 'csv' ? csvGrid(content) : await xlsxGrid(content))
    .map((r) => ({ row: r.row, values: r.values.map((v) => String(v ?? '').trim()) }))
    .filter((r) => r.values.some((v) => v !== ''));
  if (grid.length === 0) throw unprocessable('The file is empty');
  const [header, ...data] = grid;
  const byName = new Map(spec.columns.map((c) => [c.toLowerCase(), c]));
  const columns = header.values.map((name) => byName.get(name.toLowerCase()));
  const missing = spec.required.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw unprocessable(`The header row lacks ${missing.join(', ')}`, Object.fromEntries(missing.map((c) => [`${header.row}.${c}`, `Row ${header.row}, ${c}: column is missing`])));
  }
  if (data.length === 0) throw unprocessable(`The file has no ${spec.noun} under its header`);
  if (data.length > spec.maxRows) throw unprocessable(`A file may hold at most ${spec.maxRows.toLocaleString('en-US')} ${spec.noun}`);
  return data.map((r) => {
    const cells: SheetRow<C>['cells'] = {};
    columns.forEach((column, i) => { if (column) cells[column] = r.values[i] ?? ''; });
    return { row: r.row, cells };
  });
}

/** The summary of a refused sheet: "1 row has errors; nothing was {verb}" or "N rows have errors; …". */
export function rowErrorSummary(errors: RowError[], verb: 'uploaded' | 'imported'): string {
  const rows = new Set(errors.map((e) => e.row)).size;
  return `${rows} ${rows === 1 ? 'row has' : 'rows have'} errors; nothing was ${verb}`;
}

/**
 * Row errors as the API error's details: keyed "row.column" for machines, each value saying row and column
 * for people (the web's error toast joins the values).
 */
export function rowErrorDetails(errors: RowError[]): Record<string, string> {
  const shown = [...errors].sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ERRORS);
  const details = Object.fromEntries(shown.map((e) => [`${e.row}.${e.column}`, `Row ${e.row}, ${e.column}: ${e.message}`]));
  if (errors.length > shown.length) details.more = `…and ${errors.length - shown.length} more errors`;
  return details;
}

/** A sheet's date: YYYY-MM-DD, or M/D/YYYY as US spreadsheets write it; null when it is not a real date. */
export function parseDay(text: string): string | null {
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 2000 || y > 2100) return null;
  return date.toISOString().slice(0, 10);
}
