import { expect } from 'vitest';
import { sql } from 'kysely';
import { systemActor } from '../../src/platform/actor.js';
import { Scope } from '../../src/platform/scope.js';
import { StatusMachine } from '../../src/platform/status-machine.js';
import { inTransaction } from '../../src/platform/unit-of-work.js';
import type { ReservedMove } from '../../src/platform/stock/stock-engine.js';
import type { Principal } from '../../src/platform/principal.js';
import type { TestApp } from '../helpers.js';

/**
 * Orders as picking leaves them (h/picking's ConfirmPick): taken in and allocated through the real orders
 * services, each reservation of a line moved with moveReserved from its bin to a tote (pick_out/pick_in, the
 * reservation moving with the units), sales_order_line.picked_qty set, and the order moved Released → Picking →
 * Picked through the status machine.
 */
const actor = systemActor('picked-orders');
let seq = 0;

export const staffPrincipal = (): Principal => ({
  userId: 1, username: 'admin', role: 'SuperAdministrator', sessionId: 'test', customerId: null, scope: Scope.everything, modules: 'all',
}) as Principal;

export interface OrderLineSpec { skuId: number; quantity: number; lot?: string; packageId?: number }
export interface OrderSpec {
  warehouseId: number; customerId: number; lines: OrderLineSpec[]; referenceNumber?: string; carrierAccountId?: number;
}

/** Takes an order in and allocates it (Allocated, Partially Allocated or Backordered by what the stock allows). */
export async function allocatedOrder(t: TestApp, spec: OrderSpec) {
  const { app } = t;
  const taken = await app.services.orders.intake(staffPrincipal(), {
    warehouseId: spec.warehouseId, customerId: spec.customerId, orderType: 'Sales', orderDate: '2030-03-01',
    referenceNumber: spec.referenceNumber ?? `PK-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
    ...(spec.carrierAccountId ? { carrierAccountId: spec.carrierAccountId } : {}),
    lines: spec.lines.map((l) => ({ skuId: l.skuId, quantity: l.quantity, ...(l.lot ? { lot: l.lot } : {}), ...(l.packageId ? { packageId: l.packageId } : {}) })),
  }, actor, 'screen');
  const orderId = taken.data.orderId;
  const outcome = await inTransaction(t.database.db, (uow) => app.services.allocation.allocateOrder(uow, actor, orderId, 'AllocateOrder'));
  const lines = await t.database.db.selectFrom('sales_order_line').select(['id', 'line_no', 'sku_id', 'quantity']).where('order_id', '=', orderId).orderBy('line_no').execute();
  return { orderId, soNumber: taken.data.soNumber, referenceNumber: taken.data.referenceNumber, status: outcome!.status, lineIds: lines.map((l) => l.id) };
}

/**
 * Picks an allocated order into a tote: every reservation of its lines (or, with `pick`, at most that many units of
 * line i) moved to `toteId`, and the order Picked.
 */
export async function pickOrder(t: TestApp, order: { orderId: number; soNumber: string }, toteId: number, pick?: (lineIndex: number, reserved: number) => number) {
  const db = t.database.db;
  const lines = await db.selectFrom('sales_order_line').select(['id']).where('order_id', '=', order.orderId).orderBy('line_no').execute();
  const reservations = await db.selectFrom('stock_reservation as r').innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
    .select(['r.document_line', 'r.quantity', 'b.warehouse_id', 'b.customer_id', 'b.sku_id', 'b.location_id', 'b.lot', 'b.pallet'])
    .where('r.document_type', '=', 'SO').where('r.document_id', '=', order.soNumber).where('r.quantity', '>', 0).orderBy('r.id').execute();
  const moves: ReservedMove[] = [];
  const picked = new Map<number, number>();
  lines.forEach((line, i) => {
    const own = reservations.filter((r) => r.document_line === String(line.id));
    let want = pick ? pick(i, own.reduce((s, r) => s + Number(r.quantity), 0)) : Infinity;
    for (const r of own) {
      const quantity = Math.min(Number(r.quantity), want);
      if (quantity <= 0) break;
      want -= quantity;
      picked.set(line.id, (picked.get(line.id) ?? 0) + quantity);
      moves.push({
        owner: { documentType: 'SO', documentId: order.soNumber, documentLine: String(line.id) }, to: toteId, quantity, documentLine: String(line.id),
        from: { warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: r.location_id, lot: r.lot, pallet: r.pallet },
      });
    }
  });
  const statuses = new StatusMachine({ dialect: t.database.dialect, recorder: t.app.services.recorder });
  await inTransaction(db, async (uow) => {
    if (moves.length) {
      await t.app.services.stock.moveReserved(uow, {
        documentType: 'PICK', documentId: 'JOB-TEST', reason: null, outType: 'pick_out', inType: 'pick_in', moves, record: { after: {} },
      }, actor);
    }
    for (const [lineId, quantity] of picked) await uow.tx.updateTable('sales_order_line').set({ picked_qty: quantity }).where('id', '=', lineId).execute();
    for (const to of ['Released', 'Picking', 'Picked'] as const) await statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: order.orderId, to });
  });
  return Object.fromEntries(picked);
}

/** An order taken in, allocated and picked into a tote: the pack station's starting point. */
export async function pickedOrder(t: TestApp, spec: OrderSpec & { toteId: number; pick?: (lineIndex: number, reserved: number) => number }) {
  const order = await allocatedOrder(t, spec);
  expect(['Allocated', 'Partially Allocated', 'Backordered']).toContain(order.status);
  await pickOrder(t, order, spec.toteId, spec.pick);
  return order;
}

/**
 * Packs a Picked order without the pack station's scans (for volume): its picked units into closed cartons of
 * `perCarton` lines each at `stationId` — the carton rows written directly, the units moved tote → station with
 * moveReserved as CloseCarton moves them, packed_qty set, and the order Packed through the status machine.
 */
export async function packDirectly(t: TestApp, order: { orderId: number; soNumber: string }, p: { cartonTypeId: number; stationId: number; perCarton: number }) {
  const db = t.database.db;
  const header = await db.selectFrom('sales_order').select(['warehouse_id', 'customer_id']).where('id', '=', order.orderId).executeTakeFirstOrThrow();
  const reservations = await db.selectFrom('stock_reservation as r').innerJoin('inventory_balance as b', 'b.id', 'r.balance_id').innerJoin('location as l', 'l.id', 'b.location_id')
    .select(['r.document_line', 'r.quantity', 'b.warehouse_id', 'b.customer_id', 'b.sku_id', 'b.location_id', 'b.lot', 'b.pallet'])
    .where('r.document_type', '=', 'SO').where('r.document_id', '=', order.soNumber).where('r.quantity', '>', 0).where('l.type', '=', 'tote').orderBy('r.id').execute();
  const statuses = new StatusMachine({ dialect: t.database.dialect, recorder: t.app.services.recorder });
  const at = new Date().toISOString();
  await inTransaction(db, async (uow) => {
    const moves: ReservedMove[] = [];
    for (let i = 0; i < reservations.length; i += p.perCarton) {
      const batch = reservations.slice(i, i + p.perCarton);
      const carton = await uow.tx.insertInto('carton').values({
        carton_number: `CTN-T-${order.soNumber}-${i}`, order_id: order.orderId, warehouse_id: header.warehouse_id, customer_id: header.customer_id,
        carton_type_id: p.cartonTypeId, status: 'Closed', length_cm: 30, width_cm: 20, height_cm: 10, weight_kg: 5, location_id: p.stationId, packed_by: null, created_at: at, closed_at: at,
      }).returning('id').executeTakeFirstOrThrow();
      const lines = await uow.tx.insertInto('carton_line').values(batch.map((r) => ({
        carton_id: carton.id, order_line_id: Number(r.document_line), sku_id: r.sku_id, lot: r.lot, quantity: Number(r.quantity),
      }))).returning(['id', 'order_line_id']).execute();
      batch.forEach((r, k) => moves.push({
        owner: { documentType: 'SO', documentId: order.soNumber, documentLine: r.document_line! }, to: p.stationId, quantity: Number(r.quantity), documentLine: String(lines[k].id),
        from: { warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: r.location_id, lot: r.lot, pallet: r.pallet },
      }));
    }
    await t.app.services.stock.moveReserved(uow, {
      documentType: 'PACK', documentId: `CTN-T-${order.soNumber}`, reason: null, outType: 'pack_out', inType: 'pack_in', moves, record: { after: {} },
    }, actor);
    await uow.tx.updateTable('sales_order_line').set({ packed_qty: sql`picked_qty` }).where('order_id', '=', order.orderId).execute();
    await statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: order.orderId, to: 'Packed' });
  });
}
