/** One problem of an uploaded sheet: its spreadsheet row, its column and what is wrong. */
export interface RowError {
  key: string;
  row: number;
  column: string;
  message: string;
}

/**
 * The row errors of a refused upload (every screen that uploads a sheet reads them here). The server's
 * API_ERROR details are keyed "row.column" with values "Row N, Column: message" (server platform/sheet.ts
 * rowErrorDetails); the repeated prefix is dropped and rows are sorted. A key that is not a row (e.g. "more",
 * or a form field's message) is kept as a note.
 */
export function rowErrorsOf(details: unknown): { rows: RowError[]; notes: string[] } {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return { rows: [], notes: [] };
  const rows: RowError[] = [];
  const notes: string[] = [];
  for (const [key, value] of Object.entries(details as Record<string, unknown>)) {
    const text = String(value);
    const match = /^(\d+)\.(.+)$/.exec(key);
    if (!match) {
      notes.push(text);
      continue;
    }
    const prefix = `Row ${match[1]}, ${match[2]}: `;
    rows.push({ key, row: Number(match[1]), column: match[2], message: text.startsWith(prefix) ? text.slice(prefix.length) : text });
  }
  rows.sort((a, b) => a.row - b.row || a.column.localeCompare(b.column));
  return { rows, notes };
}
