import type { Tx } from '../schema.js';

/** Totes per warehouse (TOTE-001…): a pick job's slots are totes, and totes are locations (migration 0023). */
export const DEMO_TOTES = 20;
export const DEMO_PACK_STATION = 'PACK-01';
/** A warehouse's carton types: inner dimensions in cm, tare weight in kg. */
export const DEMO_CARTON_TYPES = [
  { code: 'SMALL', name: 'Small carton', length_cm: 30, width_cm: 20, height_cm: 15, tare_weight_kg: 0.2 },
  { code: 'MEDIUM', name: 'Medium carton', length_cm: 40, width_cm: 30, height_cm: 25, tare_weight_kg: 0.35 },
  { code: 'LARGE', name: 'Large carton', length_cm: 60, width_cm: 40, height_cm: 40, tare_weight_kg: 0.6 },
] as const;

/**
 * What the floor screens need in a demo warehouse: totes to pick into (never pickable: nothing is taken from a
 * tote by allocation), a pack station where picked totes are packed (a staging location, unless one is there),
 * and the carton types packing offers.
 */
export async function seedFloor(tx: Tx, p: { warehouseId: number; at: string }): Promise<void> {
  const place = { warehouse_id: p.warehouseId, aisle: null, rack: null, level: null, bin: null, capacity: 0, is_active: 1, created_at: p.at, updated_at: p.at };
  await tx.insertInto('location').values(Array.from({ length: DEMO_TOTES }, (_, i) => ({
    ...place, code: `TOTE-${String(i + 1).padStart(3, '0')}`, type: 'tote', zone: 'TOTE', is_pickable: 0, description: 'Pick tote',
  }))).execute();
  const pack = await tx.selectFrom('location').select('id').where('warehouse_id', '=', p.warehouseId).where('code', '=', DEMO_PACK_STATION).executeTakeFirst();
  if (!pack) {
    await tx.insertInto('location').values({ ...place, code: DEMO_PACK_STATION, type: 'staging', zone: 'PACK', is_pickable: 0, description: 'Pack station' }).execute();
  }
  await tx.insertInto('carton_type').values(DEMO_CARTON_TYPES.map((c) => ({
    ...c, warehouse_id: p.warehouseId, max_weight_kg: null, is_active: 1, created_at: p.at, updated_at: p.at,
  }))).execute();
}
