import type { StockDocumentType, StockTxnType } from '@bolx/contracts';
import type { Insertable } from 'kysely';
import type { InventoryBalanceTable, Tx } from '../schema.js';
import type { DemoLeg } from './demo-stock.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import type { FloorEvent } from '../../platform/floor-events.js';

type Balance = Insertable<InventoryBalanceTable> & { on_hand: number; lot: string; pallet: string };

const SUPPLIERS = ['Shenzhen Brightway Manufacturing', 'Nordic Trade Partners AS', 'Pacific Rim Packaging Co.', 'Great Lakes Wholesale'];
const HOUR_MS = 3_600_000;
const day = (offset: number) => new Date(Date.now() + offset * 864e5).toISOString().slice(0, 10);

async function order(tx: Tx, v: { warehouseId: number; customerId: number; supplier: string; reference: string; expected: string; status: string; at: string; userId: number | null; finalized?: boolean }) {
  // Numbered like every RO, from the RO sequence (in the seed's transaction).
  const { number: roNumber } = await documentNumbers.next({ tx, afterCommit: () => {} }, 'RO');
  const { id } = await tx.insertInto('receiving_order').values({
    ro_number: roNumber, warehouse_id: v.warehouseId, customer_id: v.customerId, supplier: v.supplier,
    reference_number: v.reference, expected_date: v.expected, status: v.status, notes: null, created_by: v.userId, created_at: v.at, updated_at: v.at,
    received_at: v.status === 'Open' ? null : v.at, finalized_at: v.finalized ? v.at : null, closed_at: v.status === 'Closed' ? v.at : null, cancelled_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  return { id, roNumber };
}

/**
 * Demo receiving orders for one warehouse and client: a closed one whose receipts are some of the opening stock
 * (received at the dock, then put away, all in the ledger), one being received (stock waiting at the dock), and
 * one due next week. Its stock movements are added to `legs` (the caller posts them) and its floor steps to
 * `events` (the caller records them), as the receiving service writes them: each ledger row names its RO line and
 * each receipt and putaway is in the activity log — what billing (per line, per unit, per order) and labour read.
 * Answers the indexes of `balances` whose stock those legs bring, so the caller does not post them again as opening stock.
 */
export async function seedReceivingOrders(tx: Tx, p: {
  warehouseId: number; customerId: number; supplierIndex: number; dockId: number; balances: Balance[]; skuIds: number[]; at: string; legs: DemoLeg[]; events: FloorEvent[];
}): Promise<Set<number>> {
  const covered = new Set<number>();
  const supplier = SUPPLIERS[p.supplierIndex % SUPPLIERS.length];
  const entry = (b: { sku_id: number; location_id: number; lot: string; pallet: string; expiry_date?: string | null }, qty: number, type: StockTxnType, doc: string, documentType: StockDocumentType, line: number) => p.legs.push({
    place: { warehouseId: p.warehouseId, customerId: p.customerId, skuId: b.sku_id, locationId: b.location_id, lot: b.lot, pallet: b.pallet },
    qty, txnType: type, documentType, documentId: doc, documentLine: String(line), expiryDate: b.expiry_date ?? null,
  });
  const step = (kind: 'receive' | 'putaway', orderId: number, b: { sku_id: number; location_id: number }, quantity: number) => p.events.push({
    kind, warehouseId: p.warehouseId, customerId: p.customerId, skuId: b.sku_id, locationId: b.location_id, quantity, docType: 'RO', docId: orderId,
  });

  // Closed: three lines received (one short by 5) and put away into stock that is on hand now.
  const mine = p.balances.map((b, i) => ({ b, i })).filter(({ b }) => b.customer_id === p.customerId && b.warehouse_id === p.warehouseId).slice(0, 3);
  if (mine.length) {
    // Received at the dock a day or so ago and put away hours later, line by line, as a crew does: the dashboard's
    // and the report's dock-to-stock time read these (a receipt and its putaway at one instant would read 0 h).
    const now = Date.parse(p.at);
    const receivedAt = now - (20 + 7 * p.supplierIndex) * HOUR_MS;
    const receiptAt = (n: number) => new Date(receivedAt + n * 10 * 60_000).toISOString();
    const putawayAt = (n: number) => new Date(Math.min(now, receivedAt + (2.5 + 1.5 * n + 2 * p.supplierIndex) * HOUR_MS)).toISOString();
    const closed = await order(tx, { warehouseId: p.warehouseId, customerId: p.customerId, supplier, reference: `PO-${4100 + p.supplierIndex}`, expected: day(-12), status: 'Closed', at: receiptAt(0), userId: null, finalized: true });
    for (const [n, { b, i }] of mine.entries()) {
      covered.add(i);
      const { id: lineId } = await tx.insertInto('receiving_order_line').values({
        order_id: closed.id, line_no: n + 1, sku_id: b.sku_id, expected_qty: b.on_hand + (n === 1 ? 5 : 0), received_qty: b.on_hand, damaged_qty: 0, putaway_qty: b.on_hand, notes: null,
      }).returning('id').executeTakeFirstOrThrow();
      const atDock = { ...b, location_id: p.dockId };
      entry(atDock, b.on_hand, 'receive', closed.roNumber, 'RECEIPT', lineId);
      entry(atDock, -b.on_hand, 'putaway_out', closed.roNumber, 'PUTAWAY', lineId);
      entry(b, b.on_hand, 'putaway_in', closed.roNumber, 'PUTAWAY', lineId);
      step('receive', closed.id, atDock, b.on_hand);
      step('putaway', closed.id, b, b.on_hand);
      await tx.insertInto('receiving_receipt').values({
        order_id: closed.id, line_id: lineId, warehouse_id: p.warehouseId, customer_id: p.customerId, sku_id: b.sku_id, location_id: p.dockId,
        lot: b.lot, expiry_date: b.expiry_date ?? null, pallet: b.pallet, quantity: b.on_hand, damaged_qty: 0, damaged_location_id: null,
        document_id: closed.roNumber, user_id: null, username: 'demo', at: receiptAt(n),
      }).execute();
      await tx.insertInto('receiving_putaway').values({
        order_id: closed.id, line_id: lineId, from_location_id: p.dockId, to_location_id: b.location_id, lot: b.lot, pallet: b.pallet,
        quantity: b.on_hand, document_id: closed.roNumber, user_id: null, username: 'demo', at: putawayAt(n),
      }).execute();
    }
    const stocked = putawayAt(mine.length - 1);
    await tx.updateTable('receiving_order').set({ finalized_at: stocked, closed_at: stocked, updated_at: stocked }).where('id', '=', closed.id).execute();
  }

  // Receiving: the first line partly arrived and waits at the dock; the second has not arrived yet.
  const [first, second, third] = p.skuIds;
  const receiving = await order(tx, { warehouseId: p.warehouseId, customerId: p.customerId, supplier, reference: `PO-${4200 + p.supplierIndex}`, expected: day(0), status: 'Receiving', at: p.at, userId: null });
  const { id: partLine } = await tx.insertInto('receiving_order_line').values({ order_id: receiving.id, line_no: 1, sku_id: first, expected_qty: 120, received_qty: 48, damaged_qty: 0, putaway_qty: 0, notes: null })
    .returning('id').executeTakeFirstOrThrow();
  await tx.insertInto('receiving_order_line').values({ order_id: receiving.id, line_no: 2, sku_id: second, expected_qty: 60, received_qty: 0, damaged_qty: 0, putaway_qty: 0, notes: null }).execute();
  const pallet = `PLT-RCV-${receiving.id}`;
  entry({ sku_id: first, location_id: p.dockId, lot: '', pallet }, 48, 'receive', receiving.roNumber, 'RECEIPT', partLine);
  step('receive', receiving.id, { sku_id: first, location_id: p.dockId }, 48);
  await tx.insertInto('receiving_receipt').values({
    order_id: receiving.id, line_id: partLine, warehouse_id: p.warehouseId, customer_id: p.customerId, sku_id: first, location_id: p.dockId,
    lot: '', expiry_date: null, pallet, quantity: 48, damaged_qty: 0, damaged_location_id: null, document_id: receiving.roNumber, user_id: null, username: 'demo', at: p.at,
  }).execute();

  // Open: due next week.
  const open = await order(tx, { warehouseId: p.warehouseId, customerId: p.customerId, supplier: SUPPLIERS[(p.supplierIndex + 1) % SUPPLIERS.length], reference: `PO-${4300 + p.supplierIndex}`, expected: day(7), status: 'Open', at: p.at, userId: null });
  await tx.insertInto('receiving_order_line').values([first, second, third].map((sku_id, n) => ({ order_id: open.id, line_no: n + 1, sku_id, expected_qty: 24 * (n + 2), received_qty: 0, damaged_qty: 0, putaway_qty: 0, notes: null }))).execute();

  return covered;
}
