import type { Tx } from '../schema.js';
import type { DemoLeg } from './demo-stock.js';

/** Positions this adds per warehouse: a reserve (bulk) aisle and a pick aisle of the same size. */
export const REPLENISHMENT_BAYS = 6;
/** The pick faces' on hand against min 24 / max 120: four are below min, so a generation run makes four tasks. */
const PICK_ON_HAND = [6, 10, 15, 18, 60, 90];
const MIN = 24;
const MAX = 120;
const PALLET_QTY = 480;

/**
 * A replenishment flow for one warehouse and client: reserve racking (zone R, not pickable) holding a full
 * pallet of each of six SKUs, pick shelves (zone P) holding a few loose units of each, and a min/max rule per
 * pick face. The stock is added to `legs` as receipts (the caller posts them through the ledger).
 */
export async function seedReplenishment(tx: Tx, p: {
  warehouseId: number; warehouseCode: string; customerId: number; skuIds: number[]; lots: boolean; at: string; legs: DemoLeg[];
}): Promise<void> {
  const bay = (zone: 'R' | 'P', n: number) => ({
    warehouse_id: p.warehouseId, code: `${zone}-01-01-${n}`, zone, aisle: '01', rack: '01', level: String(n), bin: null,
    type: zone === 'R' ? 'rack' : 'shelf', capacity: zone === 'R' ? 2000 : 200, is_pickable: zone === 'R' ? 0 : 1,
    description: zone === 'R' ? 'Reserve racking (bulk, not pickable)' : 'Pick face', is_active: 1, created_at: p.at, updated_at: p.at,
  });
  const bays = Array.from({ length: REPLENISHMENT_BAYS }, (_, i) => i + 1);
  const reserve = await tx.insertInto('location').values(bays.map((n) => bay('R', n))).returning('id').execute();
  const pick = await tx.insertInto('location').values(bays.map((n) => bay('P', n))).returning('id').execute();
  const expiry = (days: number) => (p.lots ? new Date(Date.parse(p.at) + days * 864e5).toISOString().slice(0, 10) : null);
  const doc = { txnType: 'receive' as const, documentType: 'DEMO' as const, documentId: 'opening-stock', reason: 'Opening stock (demo data)' };
  for (const [i, skuId] of p.skuIds.slice(0, REPLENISHMENT_BAYS).entries()) {
    const place = { warehouseId: p.warehouseId, customerId: p.customerId, skuId };
    p.legs.push({ ...doc, place: { ...place, locationId: reserve[i].id, lot: p.lots ? `L26${String(100 + i)}` : '', pallet: `PLT-${p.warehouseCode}-R${i + 1}` }, qty: PALLET_QTY, expiryDate: expiry(300 + 10 * i) });
    p.legs.push({ ...doc, place: { ...place, locationId: pick[i].id, lot: p.lots ? `L25${String(900 + i)}` : '', pallet: '' }, qty: PICK_ON_HAND[i], expiryDate: expiry(120 + 10 * i) });
  }
  await tx.insertInto('replenishment_rule').values(p.skuIds.slice(0, REPLENISHMENT_BAYS).map((skuId, i) => ({
    warehouse_id: p.warehouseId, customer_id: p.customerId, sku_id: skuId, location_id: pick[i].id, min_qty: MIN, max_qty: MAX, is_active: 1, created_at: p.at, updated_at: p.at,
  }))).execute();
}
