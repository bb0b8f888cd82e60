import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { AppError, badRequest, unprocessable } from './errors.js';
import { checkUpload } from './files.js';
import { xlsxGrid, type GridLimits, type GridRow, type Pause } from './xlsx-grid.js';

/**
 * THE way to read an uploaded spreadsheet (CSV or XLSX): `readSheet` checks the file (files.ts' one upload
 * check: its content must be a spreadsheet and match its name), then reads it within fixed bounds, stopping at
 * the first bound crossed — an .xlsx's package before anything is unpacked (zip.ts), its unpacked bytes while
 * unpacking, and the rows and columns of either kind while parsing. Parsing runs in slices of a few
 * milliseconds with the event loop served between them, so a large legal sheet never stalls other requests.
 * (Slices rather than a worker thread: the reader runs unchanged under tsx, vitest and the built server, and
 * the bounds already cap what one upload can cost.)
 */

/** Most parts an .xlsx package may hold (a workbook has about a dozen; images and sheets add a few each). */
export const SHEET_MAX_ZIP_ENTRIES = 1000;
/** Most bytes an .xlsx's parts may unpack to, together: a 50,000-row, ten-column sheet from exceljs is 23 MB. */
export const SHEET_MAX_UNPACKED_BYTES = 48 * 1024 * 1024;
/** Highest unpacked : packed ratio of a part over 1 MB: that sheet's parts pack 2–14 to 1, a zip bomb's ~1000 to 1. */
export const SHEET_MAX_PACKING_RATIO = 100;
/** Most columns a sheet may use (a value further right is refused). */
export const SHEET_MAX_COLUMNS = 100;
/** Most data rows any upload may take; each upload's own limit (contracts) is at most this. */
export const SHEET_MAX_ROWS = 50_000;
/** How long one parsing slice may hold the event loop before it yields. */
const SLICE_MS = 8;

const LIMITS: GridLimits = {
  maxEntries: SHEET_MAX_ZIP_ENTRIES, maxUnpackedBytes: SHEET_MAX_UNPACKED_BYTES, maxRatio: SHEET_MAX_PACKING_RATIO, maxColumns: SHEET_MAX_COLUMNS,
};

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

/** What a sheet upload expects: its columns (matched by name, any case or order), the required ones, its row limit. */
export interface SheetSpec<C extends string> {
  columns: readonly C[];
  required: readonly C[];
  /** Most data rows (at most SHEET_MAX_ROWS). */
  maxRows: number;
  /** What a row is, for messages ("SKUs", "lines"). */
  noun: string;
  /** The largest file this upload takes. */
  maxBytes: number;
}

/** A read sheet: its data rows and the file's checked MIME type (to store it under). */
export interface UploadedSheet<C extends string> {
  mimeType: string;
  rows: SheetRow<C>[];
}

/** A pause that yields to the event loop once the current slice has run SLICE_MS. */
function slicer(): Pause {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < SLICE_MS) return undefined;
    return nextTurn().then(() => { sliceStart = performance.now(); });
  };
}

/** CSV is fed to the parser this much at a time (csv-parse takes some 10 ms for it on a busy machine). */
const CSV_CHUNK_BYTES = 16 * 1024;

/** A CSV file's records, parsed a chunk at a time with the event loop served between chunks. */
async function* csvGrid(content: Buffer, fileName: string, pause: Pause): AsyncGenerator<GridRow> {
  async function* chunks() {
    for (let at = 0; at < content.length; at += CSV_CHUNK_BYTES) {
      await pause();
      yield content.subarray(at, at + CSV_CHUNK_BYTES);
    }
  }
  const source = Readable.from(chunks());
  // A record is cut at column 101: the rest of its line lands in that last field, so a line of a million commas
  // never becomes a million-cell array.
  const parser = source.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: false, ignore_last_delimiters: SHEET_MAX_COLUMNS + 1 }));
  let row = 0;
  try {
    for await (const values of parser as AsyncIterable<string[]>) {
      row += 1;
      if (values.length > SHEET_MAX_COLUMNS && /[^,\s"]/.test(values[SHEET_MAX_COLUMNS])) {
        const message = `${fileName}: row ${row} has a value past column ${SHEET_MAX_COLUMNS}; a sheet may use at most ${SHEET_MAX_COLUMNS} columns`;
        throw unprocessable(message, { file: message });
      }
      yield { row, values: values.slice(0, SHEET_MAX_COLUMNS) };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const message = `${fileName} could not be read as CSV: ${(err as Error).message.slice(0, 200)}`;
    throw badRequest(message, { file: message });
  } finally {
    source.destroy();
    parser.destroy();
  }
}

/** The spec's column under each header cell (names match whatever their case); 422 when a required one is missing. */
function headerColumns<C extends string>(row: number, names: string[], spec: SheetSpec<C>): (C | undefined)[] {
  const byName = new Map(spec.columns.map((c) => [c.toLowerCase(), c]));
  const columns = names.map((name) => byName.get(name.toLowerCase()));
  const missing = spec.required.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw unprocessable(`The header row lacks ${missing.join(', ')}`, Object.fromEntries(missing.map((c) => [`${row}.${c}`, `Row ${row}, ${c}: column is missing`])));
  }
  return columns;
}

/**
 * The data rows of an uploaded CSV or XLSX file, by column, after the one upload check (400 when the content
 * is not a spreadsheet or does not match the name). The first non-empty row is the header; its names match
 * `columns` whatever their case or order. Blank rows are skipped. Refused with 422: a package or sheet past
 * the bounds above, a header lacking a required column, an empty file, more than `maxRows` rows — reading
 * stops at the first of these.
 */
export async function readSheet<C extends string>(file: { fileName: string; bytes: Buffer }, spec: SheetSpec<C>): Promise<UploadedSheet<C>> {
  const { kind, mimeType } = checkUpload(file, { allowed: ['xlsx', 'csv'], maxBytes: spec.maxBytes });
  const maxRows = Math.min(spec.maxRows, SHEET_MAX_ROWS);
  const pause = slicer();
  const grid = kind === 'csv' ? csvGrid(file.bytes, file.fileName, pause) : xlsxGrid(file.bytes, file.fileName, LIMITS, pause);
  let columns: (C | undefined)[] | undefined;
  const rows: SheetRow<C>[] = [];
  for await (const r of grid) {
    const values = r.values.map((v) => v.trim());
    if (!values.some((v) => v !== '')) continue;
    if (!columns) {
      columns = headerColumns(r.row, values, spec);
      continue;
    }
    if (rows.length === maxRows) throw unprocessable(`A file may hold at most ${maxRows.toLocaleString('en-US')} ${spec.noun}`);
    const cells: SheetRow<C>['cells'] = {};
    columns.forEach((column, i) => { if (column) cells[column] = values[i] ?? ''; });
    rows.push({ row: r.row, cells });
  }
  if (!columns) throw unprocessable('The file is empty');
  if (rows.length === 0) throw unprocessable(`The file has no ${spec.noun} under its header`);
  return { mimeType, rows };
}

/**
 * Reads a file through to its end as a sheet, keeping nothing: every check `readSheet` makes of the file itself
 * (what it is, the package's bounds, columns) without its spec's. A large upload is checked so before it is
 * queued as a job, so a bomb or a broken file is refused in the answer, as a small one is.
 */
export async function checkSheet(file: { fileName: string; bytes: Buffer }, maxBytes: number): Promise<void> {
  const { kind } = checkUpload(file, { allowed: ['xlsx', 'csv'], maxBytes });
  const pause = slicer();
  const grid = kind === 'csv' ? csvGrid(file.bytes, file.fileName, pause) : xlsxGrid(file.bytes, file.fileName, LIMITS, pause);
  for await (const _row of grid) {
    // read only: a bound is checked as the row passes
  }
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
