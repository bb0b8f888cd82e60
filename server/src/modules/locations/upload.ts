import { LOCATION_CODE, LOCATION_UPLOAD_COLUMNS, MAX_LOCATIONS_PER_CALL, MSG_LOCATION, type UploadRowError } from '@bolx/contracts';
import { UPLOAD_MAX_BYTES } from '../../platform/files.js';
import { MAX_REPORTED_ERRORS, readSheet as readGenericSheet, rowErrorDetails, type SheetRow as GenericSheetRow } from '../../platform/sheet.js';

type Column = (typeof LOCATION_UPLOAD_COLUMNS)[number];

/** One data row of a location sheet (platform/sheet.ts reads it). */
export type SheetRow = GenericSheetRow<Column>;

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
export { MAX_REPORTED_ERRORS, rowErrorDetails };

/** The data rows of an uploaded CSV or XLSX sheet of locations, by column (platform/sheet.ts checks and reads it). */
export async function readSheet(file: { fileName: string; bytes: Buffer }): Promise<SheetRow[]> {
  const spec = { columns: LOCATION_UPLOAD_COLUMNS, required: REQUIRED, maxRows: MAX_LOCATIONS_PER_CALL, noun: 'locations', maxBytes: UPLOAD_MAX_BYTES };
  return (await readGenericSheet(file, spec)).rows;
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
