import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { notFound, unprocessable } from '../errors.js';

export interface ReferenceRequest {
  warehouseId: number;
  /** The client whose stock it is; 0 for a check of locations alone (a pallet move, every client's stock). */
  customerId: number;
  /** The SKU, or 0 for none. */
  skuId?: number;
  /**
   * Many SKUs at once (an order's lines), in the same round trip: answered in `skus`, only the client's; the caller
   * refuses the others, and inactive or untracked ones, line by line (nothing is refused for them here).
   */
  skuIds?: number[];
  /** Refuse an inactive SKU (receiving takes no new stock of one; moving stock already here is fine). */
  activeSku?: boolean;
  locationIds: number[];
  /** The location categories allowed (location_type.category); any when omitted. */
  categories?: readonly string[];
}

export interface ReferencedLocation { id: number; code: string; warehouseId: number; isActive: boolean; type: string; category: string | null; capacity: number }
export interface ReferencedSku { id: number; customerId: number; code: string; isActive: boolean; isLotTracked: boolean; isExpiryTracked: boolean }

type Row = {
  kind: 's' | 'l' | 'w'; id: number; owner: number | null; is_active: number; code: string | null; type: string | null; category: string | null;
  capacity: number | null; lot: number | null; expiry: number | null;
};

/**
 * What a stock operation refers to, loaded in ONE round trip: the SKU (or many) and its owner, each location with its
 * warehouse, type and category, and whether the warehouse serves the client. `check` then refuses with the
 * messages every module used to write by hand: 404 for what is not there (or not yours), 422 for what cannot be used.
 */
export async function loadReferences(db: Executor, req: ReferenceRequest) {
  const ids = req.locationIds.length ? req.locationIds : [0];
  const skuIds = [...new Set([req.skuId ?? 0, ...(req.skuIds ?? [])])];
  const rows = (await sql<Row>`
    select 's' as kind, id, customer_id as owner, is_active, sku_code as code, null as type, null as category, null as capacity,
      is_lot_tracked as lot, is_expiry_tracked as expiry from sku where id in (${sql.join(skuIds)})
    union all select 'l', l.id, l.warehouse_id, l.is_active, l.code, l.type, lt.category, l.capacity, null, null
      from location l left join location_type lt on lt.code = l.type where l.id in (${sql.join(ids)})
    union all select 'w', warehouse_id, null, 1, null, null, null, null, null, null
      from customer_warehouse where customer_id = ${req.customerId} and warehouse_id = ${req.warehouseId}`.execute(db)).rows;
  const skus = new Map<number, ReferencedSku>(rows.filter((r) => r.kind === 's').map((s) => [Number(s.id), {
    id: Number(s.id), customerId: Number(s.owner), code: s.code ?? '', isActive: Number(s.is_active) === 1,
    isLotTracked: Number(s.lot) === 1, isExpiryTracked: Number(s.expiry) === 1,
  }]));
  const sku = req.skuId ? skus.get(req.skuId) : undefined;
  const asked = new Set(req.skuIds);
  for (const [id, s] of skus) if (s.customerId !== req.customerId || !asked.has(id)) skus.delete(id);
  const locations = new Map<number, ReferencedLocation>(rows.filter((r) => r.kind === 'l').map((r) => [Number(r.id), {
    id: Number(r.id), code: r.code ?? '', warehouseId: Number(r.owner), isActive: Number(r.is_active) === 1, type: r.type ?? '',
    category: r.category, capacity: Number(r.capacity ?? 0),
  }]));
  const served = rows.some((r) => r.kind === 'w');
  return { sku, skus, locations, served };
}

/** Loads and checks the references of a stock operation; answers them for the caller's own rules. */
export async function checkReferences(db: Executor, req: ReferenceRequest, messages: { inactiveLocation?: (code: string) => string } = {}) {
  const refs = await loadReferences(db, req);
  if (req.skuId) {
    if (!refs.sku || refs.sku.customerId !== req.customerId) throw notFound('SKU');
    if (req.activeSku && !refs.sku.isActive) throw unprocessable(`SKU ${refs.sku.code} is inactive`);
  }
  if (req.customerId && !refs.served) throw unprocessable('This client is not served by this warehouse');
  checkLocations(refs.locations, req, messages);
  return refs;
}

/**
 * The location rules of the reference check, for locations a module read with its own rows (in the statement
 * that read its document, to save a round trip): 404 for one that is not there or another warehouse's, 422 for
 * an inactive one or one of a category not allowed. Such a module posts with `references` (Posting), so the
 * rules hold again, atomically, in the posting's own statement.
 */
export function checkLocations(locations: Map<number, ReferencedLocation>, req: Pick<ReferenceRequest, 'warehouseId' | 'locationIds' | 'categories'>,
  messages: { inactiveLocation?: (code: string) => string } = {}) {
  for (const id of req.locationIds) {
    const loc = locations.get(id);
    if (!loc || loc.warehouseId !== req.warehouseId) throw notFound('Location');
    if (!loc.isActive) throw unprocessable(messages.inactiveLocation?.(loc.code) ?? 'This location is inactive');
    if (req.categories && !req.categories.includes(loc.category ?? '')) throw unprocessable(`Location ${loc.code} is a ${loc.type} location`);
  }
}
