// What every part of the SKU catalogue shares: the SKU as the API shows it, loading one in the caller's scope,
// the rule that a code identifies one thing within a customer, and committing a change with its audit row and
// its ReceiveSkuData event.
import type { HubEventMap, Sku } from '@bolx/contracts';
import type { Db, Executor, Tx } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { Change, ChangeRecorder } from '../../platform/change-recorder.js';
import { conflict, notFound } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { skuRepository, type BarcodeSource, type SkuRow } from './skus.repository.js';

export type SkuSubEvent = HubEventMap['ReceiveSkuData']['subEvent'];

const orNull = (n: number | null) => (n == null ? null : Number(n));

export function toSku(s: SkuRow): Sku {
  return {
    uniqueId: s.id, skuId: s.id, customerId: s.customer_id, customerName: s.customer_name, skuCode: s.sku_code,
    description: s.description, category: s.category, uom: s.uom, upc: s.upc, iskititem: s.is_kit === 1, isActive: s.is_active === 1,
    weightKg: orNull(s.weight_kg), lengthCm: orNull(s.length_cm), widthCm: orNull(s.width_cm), heightCm: orNull(s.height_cm),
    minQty: s.min_qty, maxQty: s.max_qty, isLotTracked: s.is_lot_tracked === 1, isExpiryTracked: s.is_expiry_tracked === 1,
    shelfLifeDays: s.shelf_life_days, abcClass: s.abc_class as Sku['abcClass'],
    isHazmat: s.hazmat_id != null, hazmatId: s.hazmat_id, hazmatClass: s.hazmat_class, unNumber: s.un_number,
    packingGroup: s.packing_group as Sku['packingGroup'], createdAt: s.created_at, updatedAt: s.updated_at,
  };
}

/** A SKU the caller may see, or 404 (another customer's SKU is not revealed). */
export async function loadSku(db: Executor, principal: Principal, skuId: number): Promise<Sku> {
  const row = await skuRepository.findById(db, principal.scope, skuId);
  if (!row) throw notFound('SKU');
  return toSku(row);
}

/**
 * A code (barcode, package GTIN, SKU UPC) names one thing within a customer: it may not be used by another
 * SKU, nor twice in the same place. `self` is the record being written (no id when it is new).
 */
export async function assertCodeFree(db: Executor, customerId: number, code: string | null, self: { source: BarcodeSource; id?: number; skuId?: number }) {
  if (!code) return;
  const owners = await skuRepository.barcodeOwners(db, customerId, code);
  const taken = owners.find((o) => o.sku_id !== self.skuId || (o.source === self.source && o.id !== self.id));
  if (taken) throw conflict(`Barcode ${code} is already used by SKU ${taken.sku_code} of this client`);
}

export interface SkuChange {
  action: 'create' | 'update' | 'delete';
  /** Audit entity: sku, sku_package, sku_barcode, sku_attribute, kit_component. */
  entity: string;
  subEvent: SkuSubEvent;
  customerId: number;
  /** The SKU the change belongs to; for a new SKU, the id `apply` returns. */
  skuId?: number;
  before?: unknown;
}

/**
 * Runs one catalogue change in a transaction together with its audit row (before/after) and its
 * ReceiveSkuData event, which carries skuId and customerId and goes only to that customer's listeners.
 */
export async function commitSkuChange<T>(
  deps: { db: Db; recorder: ChangeRecorder },
  actor: Actor,
  change: SkuChange,
  apply: (tx: Tx) => Promise<{ id: number; after: T | null }>,
): Promise<T | null> {
  return inTransaction(deps.db, async (uow) => {
    const { id, after } = await apply(uow.tx);
    await deps.recorder.record(uow, actor, skuChangeRecord(change, id, after));
    return after;
  });
}

/** The audit row and ReceiveSkuData event of one change, for the change recorder (a bulk upload records many at once). */
export function skuChangeRecord(change: SkuChange, id: number, after: unknown): Change {
  return {
    audit: { action: change.action, entity: change.entity, entityId: id, customerId: change.customerId, before: change.before, after: after ?? undefined },
    events: {
      target: 'ReceiveSkuData',
      payload: { subEvent: change.subEvent, payload: after ?? change.before, skuId: change.skuId ?? id, customerId: change.customerId },
      customerId: change.customerId,
    },
  };
}
