import { INVENTORY_UPLOAD_COLUMNS, INVENTORY_UPLOAD_MAX_BYTES, MAX_INVENTORY_UPLOAD_ROWS, type InventoryUploadType } from '@bolx/contracts';
import { parseDay, readSheet, type RowError, type SheetRow } from '../../platform/sheet.js';

type Column = (typeof INVENTORY_UPLOAD_COLUMNS)[number];

/** A SKU as the import needs it (looked up by code, whatever the case). */
export interface ImportSku { id: number; sku_code: string; code: string; is_active: number; is_lot_tracked: number; is_expiry_tracked: number }

/** A row that passed every check: the quantity to add (Opening Stock) or to set (Stock Count) at its place. */
export interface ImportLine { row: number; skuId: number; skuCode: string; quantity: number; lot: string; pallet: string; expiryDate: string | null }

/** The data rows of an uploaded count sheet (platform/sheet.ts checks and reads CSV or XLSX). */
export async function readCountSheet(file: { fileName: string; bytes: Buffer }): Promise<SheetRow<Column>[]> {
  const spec = { columns: INVENTORY_UPLOAD_COLUMNS, required: ['SKU', 'Quantity'] as const, maxRows: MAX_INVENTORY_UPLOAD_ROWS, noun: 'rows', maxBytes: INVENTORY_UPLOAD_MAX_BYTES };
  return (await readSheet(file, spec)).rows;
}

/**
 * Checks every row and returns the good ones and every problem found, so the whole file can be fixed at once.
 * Opening Stock adds, so its quantity must be above 0; a Stock Count may find 0. A place (SKU, lot, pallet)
 * may appear once: two counts of one place would contradict each other.
 */
export function validateCountRows(rows: SheetRow<Column>[], type: InventoryUploadType, skus: ImportSku[]): { lines: ImportLine[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const lines: ImportLine[] = [];
  const skuOf = new Map(skus.map((s) => [s.code, s]));
  const placeRow = new Map<string, number>();
  for (const { row, cells } of rows) {
    const fail = (column: Column, message: string) => errors.push({ row, column, message });
    const before = errors.length;
    const code = cells.SKU ?? '';
    const sku = code ? skuOf.get(code.toUpperCase()) : undefined;
    if (!code) fail('SKU', 'Please enter SKU!');
    else if (!sku) fail('SKU', `No SKU of this client matches '${code.slice(0, 64)}'`);
    else if (sku.is_active !== 1) fail('SKU', `SKU ${sku.sku_code} is inactive`);

    const qtyText = cells.Quantity ?? '';
    const quantity = Number(qtyText);
    const least = type === 'Opening Stock' ? 1 : 0;
    if (!qtyText) fail('Quantity', 'Please enter quantity!');
    else if (!Number.isInteger(quantity) || quantity < least || quantity > 10_000_000) {
      fail('Quantity', type === 'Opening Stock' ? 'Quantity must be a whole number above 0' : 'Counted quantity must be a whole number of 0 or more');
    }

    const lot = cells.Lot ?? '';
    const pallet = cells.Pallet ?? '';
    if (lot.length > 64) fail('Lot', 'At most 64 characters');
    if (pallet.length > 64) fail('Pallet', 'At most 64 characters');
    if (sku?.is_lot_tracked === 1 && !lot) fail('Lot', `SKU ${sku.sku_code} is lot-tracked: enter its lot`);
    // As at receiving: stock of a SKU that tracks no lots (or no expiry) never enters with one.
    if (sku && sku.is_lot_tracked !== 1 && lot) fail('Lot', `SKU ${sku.sku_code} does not track lots: leave the lot empty`);
    const expiryText = cells['Expiry Date'] ?? '';
    const expiryDate = expiryText ? parseDay(expiryText) : null;
    if (expiryText && !expiryDate) fail('Expiry Date', `'${expiryText.slice(0, 32)}' is not a date (use YYYY-MM-DD)`);
    if (sku?.is_expiry_tracked === 1 && !expiryText && quantity > 0) fail('Expiry Date', `SKU ${sku.sku_code} tracks expiry: enter its expiry date`);
    if (sku && sku.is_expiry_tracked !== 1 && expiryText) fail('Expiry Date', `SKU ${sku.sku_code} does not track expiry: leave the expiry date empty`);

    if (sku) {
      const key = JSON.stringify([sku.id, lot, pallet]);
      const first = placeRow.get(key);
      if (first) fail('SKU', `Same SKU, lot and pallet as row ${first}`);
      else placeRow.set(key, row);
    }
    if (errors.length === before) lines.push({ row, skuId: sku!.id, skuCode: sku!.sku_code, quantity, lot, pallet, expiryDate });
  }
  return { lines, errors };
}
