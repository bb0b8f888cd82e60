import { sql, type SqlBool } from 'kysely';
import type { ScanMatch, ScanPallet, ScanResolveRequest, ScanResolveResponse, ScanSku } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import { ERROR_CODES, unitsOfPackage } from '@bolx/contracts';
import { AppError, forbidden } from '../../platform/errors.js';
import { hasModule, type Principal } from '../../platform/principal.js';
import { scanRepository as repo, type ScanHitRow } from './scans.repository.js';

/** The screens a scan serves: a caller holding any of them may resolve codes (in their scope). */
export const SCAN_MODULES = ['Move', 'MovePallet', 'Adjustment', 'CycleCount', 'ProductReplenishment', 'InBound'] as const;

// The package rule is shared with the web's order form (contracts); re-exported for the server's callers.
export { unitsOfPackage, type PackageLevel } from '@bolx/contracts';

const n = (v: unknown) => Number(v);

/** Resolves scanned codes for the stock screens (and any later floor screen); one statement per scan. */
export class ScanService {
  private readonly db: Db;
  constructor(deps: { db: Db }) {
    this.db = deps.db;
  }

  async resolve(principal: Principal, req: ScanResolveRequest): Promise<ScanResolveResponse> {
    if (!SCAN_MODULES.some((key) => hasModule(principal, key, 'read'))) throw forbidden();
    principal.scope.assert({ warehouseId: req.warehouseId, customerId: req.customerId });
    const code = req.code.trim();
    const hits = await repo.hits(this.db, {
      warehouseId: req.warehouseId, code,
      customers: (column) => principal.scope.where({ customer: column }, { customerId: req.customerId }),
      // A client account sees the locations holding its stock only (as on its /Location list).
      ownLocationsOnly: principal.role === 'Client',
    });
    const matches = toMatches(hits, req.warehouseId, code);
    if (matches.length === 0) throw new AppError(404, ERROR_CODES.NOT_FOUND, `No SKU, location or pallet matches '${code}' in this warehouse`, { code: 'Unknown code' });
    return { code, kind: matches.length === 1 ? matches[0].kind : 'ambiguous', matches };
  }

  /**
   * The SKUs a scanned code names in a warehouse, of every client it serves (code, UPC, barcode, package GTIN with
   * the units one scan counts), in the caller's transaction: a floor screen that checks the item against a document
   * tells "another client's item" from "no such item". The caller decides what the caller may learn.
   */
  async skusOf(tx: Executor, warehouseId: number, code: string): Promise<ScanSku[]> {
    const hits = await repo.hits(tx, { warehouseId, code: code.trim(), customers: () => sql<SqlBool>`1 = 1`, ownLocationsOnly: false });
    return toMatches(hits, warehouseId, code.trim()).filter((m): m is ScanSku => m.kind === 'sku');
  }

  /**
   * The SKUs a scanned code is in a warehouse, of every client it serves (the floor checks a scan against the SKU
   * it expects and must tell "another client's item" apart from "no such item"; the caller never shows whose).
   * Each with the units one scan counts (a package GTIN: its units). In the caller's transaction; one statement.
   */
  async skuMatches(tx: Executor, warehouseId: number, code: string): Promise<ScanSkuMatch[]> {
    const trimmed = code.trim();
    const hits = await repo.hits(tx, { warehouseId, code: trimmed, customers: () => sql<SqlBool>`1 = 1`, ownLocationsOnly: false });
    return toMatches(hits, warehouseId, trimmed).filter((m): m is ScanSkuMatch => m.kind === 'sku');
  }
}

/** A SKU match of a scan (contracts' scanSku). */
export type ScanSkuMatch = Extract<ScanMatch, { kind: 'sku' }>;

/** The statement's rows as matches: one per SKU (its best way of matching), location, and pallet place. */
export function toMatches(hits: ScanHitRow[], warehouseId: number, code: string): ScanMatch[] {
  const packages = hits.filter((h) => h.kind === 'package').map((h) => ({ id: n(h.package_id), parentId: h.parent_id == null ? null : n(h.parent_id), quantity: n(h.quantity), skuId: n(h.sku_id) }));
  const out: ScanMatch[] = [];
  const seenSkus = new Set<number>();
  const pallets = new Map<number, ScanPallet>();
  for (const h of [...hits].sort((a, b) => n(a.rank) - n(b.rank))) {
    if (h.kind === 'sku') {
      const skuId = n(h.sku_id);
      if (seenSkus.has(skuId)) continue; // a SKU whose code and UPC are both the scan: its best match is enough
      seenSkus.add(skuId);
      const packageId = h.package_id == null ? null : n(h.package_id);
      out.push({
        kind: 'sku', skuId, customerId: n(h.customer_id), customerName: h.customer_name ?? '', skuCode: h.sku_code ?? '',
        description: h.description ?? '', uom: h.uom ?? '', isActive: n(h.is_active) === 1, isLotTracked: n(h.is_lot_tracked) === 1,
        isExpiryTracked: n(h.is_expiry_tracked) === 1, matchedBy: h.matched_by ?? 'sku', packageId, packageName: h.package_name,
        unitsPerScan: packageId == null ? 1 : unitsOfPackage(packages.filter((p) => p.skuId === skuId), packageId),
      });
    } else if (h.kind === 'location') {
      out.push({
        kind: 'location', locationId: n(h.location_id), warehouseId, locationCode: h.location_code ?? '', type: h.location_type ?? '',
        zone: h.zone, isActive: n(h.is_active) === 1,
      });
    } else if (h.kind === 'pallet') {
      const locationId = n(h.location_id);
      let pallet = pallets.get(locationId);
      if (!pallet) {
        pallet = { kind: 'pallet', pallet: code, warehouseId, locationId, locationCode: h.location_code ?? '', onHand: 0, allocated: 0, lines: [] };
        pallets.set(locationId, pallet);
        out.push(pallet);
      }
      pallet.onHand += n(h.on_hand);
      pallet.allocated += n(h.allocated);
      pallet.lines.push({
        customerId: n(h.customer_id), customerName: h.customer_name ?? '', skuId: n(h.sku_id), skuCode: h.sku_code ?? '',
        description: h.description ?? '', lot: h.lot ?? '', expiryDate: h.expiry_date, onHand: n(h.on_hand), allocated: n(h.allocated),
      });
    }
  }
  return out;
}
