import type { CreateOrderInput } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { UnitOfWork } from '../../platform/unit-of-work.js';
import type { ReceivingService } from '../receiving/receiving.service.js';
import { orderRepository as repo } from './orders.repository.js';

/** What the intake knows of an order it just wrote, for the receiving order it makes. */
export interface TakenOrder {
  orderId: number; soNumber: string; orderType: CreateOrderInput['orderType']; warehouseId: number; customerId: number;
  toWarehouseId: number | null; orderDate: string; requestedShipDate: string | null; shipToName: string | null;
  lines: { skuId: number; quantity: number; lot: string }[];
}

/**
 * The goods a Transfer or Purchase order brings in: a Transfer's destination is another warehouse serving the same
 * client, where its intake makes the expected receiving order; a Purchase order makes one in its own warehouse.
 * Both through the receiving service, in the intake's transaction; the RO's reference is the SO number.
 */
export class OrderReceipts {
  constructor(private readonly receiving: Pick<ReceivingService, 'createExpected'>) {}

  /**
   * The order as it will be written, and what is wrong with its destination (422 details): a Transfer needs one, a
   * warehouse other than its own that serves the client; no other type takes one. A Transfer without a ship-to
   * ships to its destination's address.
   */
  async review(db: Executor, input: CreateOrderInput): Promise<{ input: CreateOrderInput; details: Record<string, string> }> {
    const to = input.toWarehouseId;
    if (input.orderType !== 'Transfer') return { input, details: to ? { toWarehouseId: 'Only a Transfer order has a destination warehouse' } : {} };
    if (!to) return { input, details: { toWarehouseId: 'A Transfer order needs its destination warehouse' } };
    if (to === input.warehouseId) return { input, details: { toWarehouseId: 'The destination must be another warehouse' } };
    const destination = await repo.warehouse(db, to);
    if (!destination || Number(destination.is_active) !== 1 || !(await repo.servesWarehouse(db, input.customerId, to))) {
      return { input, details: { toWarehouseId: 'This client is not served by the destination warehouse' } };
    }
    if (input.shipToName || input.shipToAddress1) return { input, details: {} };
    const or = (v: string | null) => v ?? undefined;
    return {
      input: {
        ...input, shipToName: destination.name, shipToAddress1: or(destination.address1), shipToAddress2: or(destination.address2),
        shipToCity: or(destination.city), shipToState: or(destination.state), shipToZip: or(destination.zip), shipToCountry: or(destination.country),
      },
      details: {},
    };
  }

  /**
   * Makes a Transfer's or Purchase order's expected receiving order and links it to the order (nothing for a Sales
   * order). Answers whether it changed the order's row.
   */
  async taken(uow: UnitOfWork, actor: Actor, order: TakenOrder): Promise<boolean> {
    if (order.orderType === 'Sales') return false;
    const transfer = order.orderType === 'Transfer';
    const source = transfer ? await repo.warehouse(uow.tx, order.warehouseId) : undefined;
    const ro = await this.receiving.createExpected(uow, actor, {
      warehouseId: transfer ? order.toWarehouseId! : order.warehouseId,
      customerId: order.customerId,
      supplier: (transfer ? `Transfer from ${source?.name ?? order.soNumber}` : order.shipToName || `Purchase order ${order.soNumber}`).slice(0, 128),
      expectedDeliveryDate: order.requestedShipDate ?? order.orderDate,
      referenceNumber: order.soNumber,
      notes: `${order.orderType} order ${order.soNumber}`,
    }, receiptLines(order.lines));
    await repo.setReceivingOrder(uow.tx, order.orderId, ro.id);
    return true;
  }
}

/** One RO line per SKU (a receiving order names a SKU once): the quantities added, the lot kept when every line asks the same. */
export function receiptLines(lines: TakenOrder['lines']) {
  const bySku = new Map<number, { skuId: number; expectedQuantity: number; lots: Set<string> }>();
  for (const l of lines) {
    const at = bySku.get(l.skuId) ?? { skuId: l.skuId, expectedQuantity: 0, lots: new Set<string>() };
    at.expectedQuantity += l.quantity;
    at.lots.add(l.lot);
    bySku.set(l.skuId, at);
  }
  return [...bySku.values()].map(({ skuId, expectedQuantity, lots }) => {
    const [lot] = [...lots];
    return { skuId, expectedQuantity, ...(lots.size === 1 && lot ? { lot } : {}) };
  });
}
