/** Spec section 5, file limits: which files a form takes, and how many. */
export interface FileKinds {
  extensions: readonly string[];
  /** Message id naming the kinds. */
  label: string;
}

export const SHEETS: FileKinds = { extensions: ['.xlsx', '.csv'], label: 'addData.fileKinds.sheet' };
export const DOCUMENTS: FileKinds = { extensions: ['.pdf', '.xlsx', '.csv'], label: 'addData.fileKinds.documents' };

/** The server's upload size limit (contracts' *_MAX_BYTES: 10 MB). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Orders up to 5 files (PDF, Excel or CSV); RO up to 3; SKUs, inventory, locations and pallets 1 each. */
export const FILE_LIMITS = { orders: 5, ro: 3, sku: 1, inventory: 1, locations: 1, pallets: 1 } as const;

export function fileProblem(file: { name: string; size: number }, kinds: FileKinds): 'type' | 'size' | null {
  const name = file.name.toLowerCase();
  if (!kinds.extensions.some((ext) => name.endsWith(ext))) return 'type';
  if (file.size === 0 || file.size > MAX_FILE_BYTES) return 'size';
  return null;
}
