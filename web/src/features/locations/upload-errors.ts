/** One problem of an uploaded sheet, as the upload screen's table shows it. */
export interface RowError {
  key: string;
  row: number;
  column: string;
  message: string;
}

/**
 * The row errors of a refused upload. The server's API_ERROR details are keyed "row.column" with values
 * "Row N, Column: message" (server upload.ts rowErrorDetails); a "more" entry says how many were left out.
 */
export function rowErrorsOf(details: unknown): { rows: RowError[]; more: string | null } {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return { rows: [], more: null };
  const rows: RowError[] = [];
  let more: string | null = null;
  for (const [key, value] of Object.entries(details as Record<string, unknown>)) {
    const text = String(value);
    const match = /^(\d+)\.(.+)$/.exec(key);
    if (!match) {
      if (key === 'more') more = text;
      continue;
    }
    const column = match[2];
    const prefix = `Row ${match[1]}, ${column}: `;
    rows.push({ key, row: Number(match[1]), column, message: text.startsWith(prefix) ? text.slice(prefix.length) : text });
  }
  rows.sort((a, b) => a.row - b.row || a.column.localeCompare(b.column));
  return { rows, more };
}

export const UPLOAD_EXTENSIONS = ['.csv', '.xlsx'] as const;
/** The server's multipart limit (server/src/app.ts). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** Spec section 5: locations take one Excel or CSV file. */
export function uploadFileProblem(file: { name: string; size: number }): 'type' | 'size' | null {
  const name = file.name.toLowerCase();
  if (!UPLOAD_EXTENSIONS.some((ext) => name.endsWith(ext))) return 'type';
  if (file.size > MAX_UPLOAD_BYTES) return 'size';
  return null;
}
