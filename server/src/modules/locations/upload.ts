import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { LOCATION_CODE, LOCATION_UPLOAD_COLUMNS, MAX_LOCATIONS_PER_CALL, MSG_LOCATION, type UploadRowError } from '@bolx/contracts';
import { badRequest, unprocessable } from '../../platform/errors.js';

type Column = (typeof LOCATION_UPLOAD_COLUMNS)[number];

/** One data row of a sheet: its spreadsheet row number (the header is row 1) and its cells by column. */
export interface SheetRow {
  row: number;
  cells: Partial<Record<Column, string>>;
}

/** A row that passed every check, ready to insert. */
export interface UploadedLocation {
  row: number;
  code: string;
  type: string;
  zone: string | null;
  aisle: string | null;
  rack: string | null;
  level: string | null;
  bin: string | null;
  capacity: number;
  description: string | null;
}

const REQUIRED: Column[] = ['Location Code', 'Location Type', 'Capacity'];
const SEGMENTS = [['Zone', 'zone'], ['Aisle', 'aisle'], ['Rack', 'rack'], ['Level', 'level'], ['Bin', 'bin']] as const;
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
    for (let c = 1; c <= row.cellCount; c++) values.push(row.getCell(c).text ?? '');
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
 * match the template's columns whatever their case or order. Blank rows are skipped.
 */
export async function readSheet(fileName: string, content: Buffer): Promise<SheetRow[]> {
  const ext = fileName.toLowerCase().split('.').pop();
  if (ext !== 'csv' && ext !== 'xlsx') throw badRequest('Upload one Excel (.xlsx) or CSV file');
  const grid = (ext === 'csv' ? csvGrid(content) : await xlsxGrid(content))
    .map((r) => ({ row: r.row, values: r.values.map((v) => String(v ?? '').trim()) }))
    .filter((r) => r.values.some((v) => v !== ''));
  if (grid.length === 0) throw unprocessable('The file is empty');
  const [header, ...data] = grid;
  const byName = new Map(LOCATION_UPLOAD_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns = header.values.map((name) => byName.get(name.toLowerCase()));
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw unprocessable(`The header row lacks ${missing.join(', ')}`, Object.fromEntries(missing.map((c) => [`${header.row}.${c}`, `Row ${header.row}, ${c}: column is missing`])));
  }
  if (data.length === 0) throw unprocessable('The file has no locations under its header');
  if (data.length > MAX_LOCATIONS_PER_CALL) throw unprocessable(`A file may hold at most ${MAX_LOCATIONS_PER_CALL.toLocaleString('en-US')} locations`);
  return data.map((r) => {
    const cells: SheetRow['cells'] = {};
    columns.forEach((column, i) => { if (column) cells[column] = r.values[i] ?? ''; });
    return { row: r.row, cells };
  });
}

/**
 * Checks every row and returns the good ones and every problem found, so the user can fix the whole file at
 * once. `typeOf` resolves a type by code or name; duplicate codes within the file are errors too.
 */
export function validateRows(rows: SheetRow[], typeOf: (value: string) => string | undefined): { locations: UploadedLocation[]; errors: UploadRowError[] } {
  const errors: UploadRowError[] = [];
  const locations: UploadedLocation[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of rows) {
    const fail = (column: Column, message: string) => errors.push({ row, column, message });
    const before = errors.length;

    const code = (cells['Location Code'] ?? '').toUpperCase();
    if (!code) fail('Location Code', MSG_LOCATION.code);
    else if (!LOCATION_CODE.test(code)) fail('Location Code', MSG_LOCATION.codeFormat);
    else if (firstRowOf.has(code)) fail('Location Code', `Duplicate of row ${firstRowOf.get(code)}`);
    else firstRowOf.set(code, row);

    const typeText = cells['Location Type'] ?? '';
    const type = typeText ? typeOf(typeText) : undefined;
    if (!typeText) fail('Location Type', MSG_LOCATION.type);
    else if (!type) fail('Location Type', `Unknown location type '${typeText.slice(0, 32)}'`);

    const capacityText = cells.Capacity ?? '';
    const capacity = Number(capacityText);
    if (!capacityText) fail('Capacity', MSG_LOCATION.capacity);
    else if (!Number.isInteger(capacity) || capacity < 0 || capacity > 100_000_000) fail('Capacity', MSG_LOCATION.capacityValid);

    const segments: Record<string, string | null> = {};
    for (const [column, key] of SEGMENTS) {
      const value = (cells[column] ?? '').toUpperCase();
      if (value && !/^[A-Z0-9]{1,16}$/.test(value)) fail(column, 'Use 1–16 letters or digits');
      segments[key] = value || null;
    }
    const description = cells.Description ?? '';
    if (description.length > 255) fail('Description', 'Description is too long (at most 255 characters)');

    if (errors.length === before) {
      locations.push({
        row, code, type: type!, capacity, description: description || null,
        zone: segments.zone, aisle: segments.aisle, rack: segments.rack, level: segments.level, bin: segments.bin,
      });
    }
  }
  return { locations, errors };
}

/**
 * Row errors as the API error's details: keyed "row.column" for machines, each value saying row and column
 * for people (the web's error toast joins the values).
 */
export function rowErrorDetails(errors: UploadRowError[]): Record<string, string> {
  const shown = [...errors].sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ERRORS);
  const details = Object.fromEntries(shown.map((e) => [`${e.row}.${e.column}`, `Row ${e.row}, ${e.column}: ${e.message}`]));
  if (errors.length > shown.length) details.more = `…and ${errors.length - shown.length} more errors`;
  return details;
}
