import ExcelJS from 'exceljs';

export interface ExcelColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
  width?: number;
}

/**
 * Text a spreadsheet would run as a formula (= + - @, and tab/CR that some programs strip first) is written
 * with a leading apostrophe, so an exported cell can never execute (CSV/formula injection).
 */
export function safeCell(value: string | number | boolean | null | undefined): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * One sheet, a bold frozen header row, escaped cells; `readMe` lines go on a second sheet (an upload template's
 * instructions: uploads read the first sheet only).
 */
export async function toXlsx<T>(sheetName: string, columns: ExcelColumn<T>[], rows: T[], readMe?: string[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'BOLX-WMS';
  const sheet = book.addWorksheet(sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? Math.max(12, c.header.length + 4) }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((c) => safeCell(c.value(row))));
  if (readMe?.length) {
    const notes = book.addWorksheet('Read me');
    notes.columns = [{ key: 'text', width: 120 }];
    for (const line of readMe) notes.addRow([safeCell(line)]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ExcelSheet<T> { name: string; columns: ExcelColumn<T>[]; rows: T[] }

/** Several sheets in one book (an invoice: its summary, and every line's source), each as toXlsx writes its one. */
export async function toXlsxBook(sheets: ExcelSheet<any>[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'BOLX-WMS';
  for (const s of sheets) {
    const sheet = book.addWorksheet(s.name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = s.columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? Math.max(12, c.header.length + 4) }));
    sheet.getRow(1).font = { bold: true };
    for (const row of s.rows) sheet.addRow(s.columns.map((c) => safeCell(c.value(row))));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
