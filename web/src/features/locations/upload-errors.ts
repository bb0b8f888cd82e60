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
