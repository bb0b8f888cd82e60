import { MAX_SKU_UPLOAD_ROWS, SKU_UPLOAD_COLUMNS, SKU_UPLOAD_MAX_BYTES, skuInput, type SkuInput } from '@bolx/contracts';
import { readSheet as readGenericSheet, type RowError, type SheetRow as GenericSheetRow } from '../../platform/sheet.js';

type Column = (typeof SKU_UPLOAD_COLUMNS)[number];
export type SheetRow = GenericSheetRow<Column>;

/** The data rows of an uploaded CSV or XLSX sheet of SKUs (platform/sheet.ts checks and reads it). */
export async function readSkuSheet(file: { fileName: string; bytes: Buffer }): Promise<SheetRow[]> {
  const spec = { columns: SKU_UPLOAD_COLUMNS, required: ['SKU', 'Description'] as const, maxRows: MAX_SKU_UPLOAD_ROWS, noun: 'SKUs', maxBytes: SKU_UPLOAD_MAX_BYTES };
  return (await readGenericSheet(file, spec)).rows;
}

/** Which sheet column a field of the SKU form comes from, so a rule's message lands on the cell to fix. */
const COLUMN_OF: Partial<Record<keyof SkuInput, Column>> = {
  skuCode: 'SKU', description: 'Description', uom: 'UOM', upc: 'UPC', weightKg: 'Weight (kg)', lengthCm: 'Length (cm)',
  widthCm: 'Width (cm)', heightCm: 'Height (cm)', minQty: 'Min Qty', maxQty: 'Max Qty',
};

const numberCell = (text: string | undefined) => (text ? Number(text) : null);

/**
 * Checks every row against the same rules as the Add SKU form (contracts' skuInput), so a sheet can never hold
 * what the form would refuse. Duplicate codes within the file are errors too; rules that need the database
 * (code taken, UOM known, UPC free) are the caller's.
 */
export function validateSkuRows(rows: SheetRow[], customerId: number, category: string): { skus: (SkuInput & { row: number })[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const skus: (SkuInput & { row: number })[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of rows) {
    const before = errors.length;
    const parsed = skuInput.safeParse({
      customerId, category, skuCode: cells.SKU ?? '', description: cells.Description ?? '', uom: cells.UOM || undefined, upc: cells.UPC || null,
      weightKg: numberCell(cells['Weight (kg)']), lengthCm: numberCell(cells['Length (cm)']), widthCm: numberCell(cells['Width (cm)']),
      heightCm: numberCell(cells['Height (cm)']), minQty: numberCell(cells['Min Qty']), maxQty: numberCell(cells['Max Qty']),
    });
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const column = COLUMN_OF[issue.path[0] as keyof SkuInput] ?? 'SKU';
        if (!seen.has(column)) errors.push({ row, column, message: issue.message });
        seen.add(column);
      }
    } else {
      const key = parsed.data.skuCode;
      if (firstRowOf.has(key)) errors.push({ row, column: 'SKU', message: `Duplicate of row ${firstRowOf.get(key)}` });
      else firstRowOf.set(key, row);
    }
    if (errors.length === before && parsed.success) skus.push({ ...parsed.data, row });
  }
  return { skus, errors };
}
