import { z } from 'zod';
import { field } from './fields.js';

/**
 * Scan resolution: what a scanned (or typed) code is in a warehouse — a SKU (by its code, UPC, barcode or a
 * package level's GTIN, with how many units one scan stands for), a location of any type, or a pallet (licence
 * plate) with what is on it and where. The stock screens fill their fields from it; a code is a SKU only within
 * the caller's clients, so another client's code resolves to nothing.
 */
export const SCAN_KINDS = ['sku', 'location', 'pallet'] as const;
export type ScanKind = (typeof SCAN_KINDS)[number];

/** How a code matched a SKU: its SKU code, UPC, one of its barcodes, or a package level's GTIN. */
export const SKU_MATCHES = ['sku', 'upc', 'barcode', 'gtin'] as const;

export const MSG_SCAN = { code: 'Scan or type a code' } as const;

export const scanResolveRequest = z.object({
  warehouseId: field.id(),
  /** Narrows SKUs and pallets to one client (the form's client); absent: every client of the caller's scope. */
  customerId: field.id().optional(),
  code: field.text(128, { error: MSG_SCAN.code }).trim().min(1, MSG_SCAN.code),
});

export const scanSku = z.object({
  kind: z.literal('sku'),
  skuId: z.number().int(), customerId: z.number().int(), customerName: z.string(),
  skuCode: z.string(), description: z.string(), uom: z.string(),
  isActive: z.boolean(), isLotTracked: z.boolean(), isExpiryTracked: z.boolean(),
  matchedBy: z.enum(SKU_MATCHES),
  /** The package level scanned (a GTIN match), null for the SKU itself. */
  packageId: z.number().int().nullable(), packageName: z.string().nullable(),
  /** Units one scan stands for: 1 for the SKU, e.g. 12 for a case of 12 (through the package hierarchy). */
  unitsPerScan: z.number().int(),
});

export const scanLocation = z.object({
  kind: z.literal('location'),
  locationId: z.number().int(), warehouseId: z.number().int(), locationCode: z.string(),
  /** rack, shelf, zone, aisle, dock, staging, returns, quarantine… */
  type: z.string(), zone: z.string().nullable(), isActive: z.boolean(),
});

export const scanPalletLine = z.object({
  customerId: z.number().int(), customerName: z.string(), skuId: z.number().int(), skuCode: z.string(), description: z.string(),
  lot: z.string(), expiryDate: z.string().nullable(), onHand: z.number().int(), allocated: z.number().int(),
});
/** A pallet at one location (a licence plate split over two locations answers one match per location). */
export const scanPallet = z.object({
  kind: z.literal('pallet'),
  pallet: z.string(), warehouseId: z.number().int(), locationId: z.number().int(), locationCode: z.string(),
  onHand: z.number().int(), allocated: z.number().int(), lines: z.array(scanPalletLine),
});

export const scanMatch = z.discriminatedUnion('kind', [scanSku, scanLocation, scanPallet]);

/**
 * `kind` is the one match's kind, or 'ambiguous' when the code is several things in the caller's scope (a code
 * two clients both use, or a code that is a SKU and a location): `matches` lists them all, best first.
 */
export const scanResolveResponse = z.object({
  code: z.string(),
  kind: z.enum([...SCAN_KINDS, 'ambiguous']),
  matches: z.array(scanMatch),
});

export type ScanResolveRequest = z.infer<typeof scanResolveRequest>;
export type ScanSku = z.infer<typeof scanSku>;
export type ScanLocation = z.infer<typeof scanLocation>;
export type ScanPallet = z.infer<typeof scanPallet>;
export type ScanMatch = z.infer<typeof scanMatch>;
export type ScanResolveResponse = z.infer<typeof scanResolveResponse>;

/** A SKU's package level as the units rule needs it. */
export interface PackageLevel { id: number; parentId: number | null; quantity: number }

/**
 * The units one scan of a package level stands for. A level's `quantity` is how many of it make one of its
 * parent, so a level holds the product of the quantities down its chain of children (a case whose eaches say 12
 * holds 12; a pallet of 40 such cases 480); the lowest level is one unit. A level alone (no parent, no
 * children) can only mean its own quantity (a 'Case of 6' saved with quantity 6). With several children, the
 * first one made counts. A broken chain (a cycle) stops at 100 levels.
 */
export function unitsOfPackage(levels: PackageLevel[], packageId: number): number {
  const level = levels.find((l) => l.id === packageId);
  if (!level) return 1;
  const firstChild = (id: number) => levels.filter((l) => l.parentId === id).sort((a, b) => a.id - b.id)[0];
  let child = firstChild(level.id);
  if (!child) return level.parentId == null ? Math.max(1, level.quantity) : 1;
  let units = 1;
  for (let depth = 0; child && depth < 100; depth++) {
    units *= Math.max(1, child.quantity);
    child = firstChild(child.id);
  }
  return units;
}
