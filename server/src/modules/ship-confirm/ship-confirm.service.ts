import type { ConfirmShipmentResult, CreateOrderInput, OrderType } from '@bolx/contracts';
import type { confirmShipmentInput } from '@bolx/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import { AppError, conflict } from '../../platform/errors.js';
import type { FloorEvent, FloorEvents } from '../../platform/floor-events.js';
import { count } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { ReservedMove, StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { OrderAllocationService } from '../orders/allocation.service.js';
import type { OrderService } from '../orders/orders.service.js';
import { shipConfirmRepository as repo } from './ship-confirm.repository.js';

const n = (v: unknown) => Number(v);
const orUndefined = (v: string | null) => (v === null || v === '' ? undefined : v);

type ConfirmShipmentInput = z.infer<typeof confirmShipmentInput>;
type Shipped = ConfirmShipmentResult['shipped'][number];
/** The order row the status machine's hold answers (sales_order.*). */
interface OrderRow {
  id: number; so_number: string; warehouse_id: number; customer_id: number; order_type: string; reference_number: string; order_date: string;
  requested_ship_date: string | null; priority: number; ship_to_name: string | null; ship_to_address1: string | null; ship_to_address2: string | null;
  ship_to_city: string | null; ship_to_state: string | null; ship_to_zip: string | null; ship_to_country: string | null; ship_to_phone: string | null;
  ship_to_email: string | null; carrier_account_id: number | null; carrier_service: string | null; notes: string | null; to_warehouse_id: number | null;
}

/**
 * Ship confirm: packed orders leave the building. Each order is its own transaction (one refusal never stops the
 * others): the order row is held (Packed, else 409), its closed cartons' units go out through ONE reserved move
 * (txn type ship, document SHIP/<SO number>, each ledger row naming its order line) taking their reservations
 * with them, the lines' shipped quantities, tracking numbers and the Shipped status with the warehouse's business
 * day are written set-based — a fixed number of statements whatever the order's lines — with a floor event per
 * line and the ShipOrder hub event. What was ordered and not packed either becomes a backorder (the customer
 * allows them) or stops the order.
 */
export class ShipConfirmService {
  private readonly db: Db;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly parts: {
    stock: StockEngine; floorEvents: FloorEvents; orders: OrderService; allocation: OrderAllocationService;
  }) {
    this.db = deps.db;
    this.timeZones = deps.timeZones;
    this.statuses = new StatusMachine(deps);
  }

  async confirm(principal: Principal, input: ConfirmShipmentInput, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId });
    const result: ConfirmShipmentResult = { shipped: [], refused: [] };
    let orders: { id: number; so_number: string; warehouse_id: number }[];
    if (input.orderIds) {
      const ids = [...new Set(input.orderIds)];
      const found = new Map((await repo.orders(this.db, principal.scope, ids)).map((o) => [o.id, o]));
      orders = [];
      for (const id of ids) {
        const order = found.get(id);
        if (!order) result.refused.push({ orderId: id, soNumber: null, message: 'Order not found' });
        else if (order.warehouse_id !== input.warehouseId) result.refused.push({ orderId: id, soNumber: order.so_number, message: `Order ${order.so_number} is not in this warehouse` });
        else orders.push(order);
      }
    } else {
      orders = await repo.packedOfCarrier(this.db, principal.scope, input.warehouseId, input.carrierAccountId!);
    }
    for (const order of orders) {
      try {
        result.shipped.push(await inTransaction(this.db, (uow) => this.shipOrder(uow, principal, actor, order.id, order.so_number, input.tracking ?? [])));
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        result.refused.push({ orderId: order.id, soNumber: order.so_number, message: err.message });
      }
    }
    const parts = [`${count(result.shipped.length, 'order')} shipped`];
    if (result.refused.length) parts.push(`${result.refused.length} refused`);
    if (orders.length === 0 && result.refused.length === 0) parts.splice(0, 1, 'No packed orders to ship');
    return { message: parts.join(', '), data: result };
  }

  /**
   * Ships orders in the caller's transaction, all or none (a freight pickup takes every order of its shipment):
   * an order already Shipped is left as it is; any other not Packed refuses the whole (409).
   */
  async shipWithin(uow: UnitOfWork, principal: Principal, actor: Actor, orders: { orderId: number; soNumber: string; status: string }[]): Promise<Shipped[]> {
    const shipped: Shipped[] = [];
    for (const o of orders.filter((x) => x.status !== 'Shipped')) shipped.push(await this.shipOrder(uow, principal, actor, o.orderId, o.soNumber, []));
    return shipped;
  }

  /** Ships one order in the caller's transaction (see the class). */
  private async shipOrder(uow: UnitOfWork, principal: Principal, actor: Actor, orderId: number, soNumber: string, tracking: { cartonId: number; trackingNumber: string }[]): Promise<Shipped> {
    const order = await this.statuses.hold<'SALES_ORDER', OrderRow & Record<string, unknown>>(uow, {
      kind: 'SALES_ORDER', id: orderId, in: ['Packed'], refusal: (status) => `Order ${soNumber} is ${status}; only Packed orders are shipped`,
    });
    const lines = await repo.lines(uow.tx, orderId);
    const missing = lines.reduce((s, l) => s + Math.max(0, n(l.quantity) - n(l.packed_qty)), 0);
    const customer = lines[0]?.customer_name ?? 'the client';
    const allowsBackorders = n(lines[0]?.allow_backorders) === 1;
    if (missing > 0 && !allowsBackorders) {
      throw conflict(`Order ${soNumber}: ${count(missing, 'unit')} ${missing === 1 ? 'is' : 'are'} missing and ${customer} does not take partial shipments`);
    }
    const cartonLines = await repo.closedCartonLines(uow.tx, orderId);
    if (cartonLines.length === 0) throw conflict(`Order ${soNumber} has no closed carton to ship`);
    const units = cartonLines.reduce((s, l) => s + n(l.quantity), 0);
    const cartons = new Set(cartonLines.map((l) => l.carton_id)).size;

    // Every closed carton's units, by line, lot and station, out of the building in one reserved move.
    const byPlace = new Map<string, ReservedMove>();
    for (const l of cartonLines) {
      const key = `${l.order_line_id}|${l.lot}|${l.location_id}`;
      const move = byPlace.get(key);
      if (move) move.quantity += n(l.quantity);
      else byPlace.set(key, {
        owner: { documentType: 'SO', documentId: soNumber, documentLine: String(l.order_line_id) }, to: null, quantity: n(l.quantity), documentLine: String(l.order_line_id),
        from: { warehouseId: l.warehouse_id, customerId: l.customer_id, skuId: l.sku_id, locationId: l.location_id!, lot: l.lot, pallet: '' },
      });
    }
    await this.parts.stock.moveReserved(uow, {
      documentType: 'SHIP', documentId: soNumber, reason: `Shipped ${soNumber}`, outType: 'ship', moves: [...byPlace.values()],
      record: { kind: 'Ship', after: { orderId, soNumber, cartons, units } },
    }, actor);
    // What was ordered and not packed gives its reservations back (a backorder allocates afresh).
    if (missing > 0) {
      for (const l of lines.filter((x) => n(x.quantity) > n(x.packed_qty))) {
        await this.parts.stock.release(uow, { documentType: 'SO', documentId: soNumber, documentLine: String(l.id) });
      }
    }
    await repo.setShipped(uow.tx, orderId);
    const ownTracking = tracking.filter((t) => cartonLines.some((l) => l.carton_id === t.cartonId));
    if (ownTracking.length) await repo.setTracking(uow.tx, orderId, ownTracking);

    const now = new Date();
    const shipDate = await this.timeZones.dayOf(order.warehouse_id, now, uow.tx);
    await this.statuses.transition(uow, actor, {
      kind: 'SALES_ORDER', id: orderId, to: 'Shipped', from: ['Packed'], set: { ship_date: shipDate, shipped_at: now.toISOString(), updated_at: now.toISOString() },
    });
    await this.parts.orders.recordFloorChange(uow, actor, orderId, { action: 'ship', subEvent: 'ShipOrder', before: { status: 'Packed' }, extra: { shipDate, cartons, units } });
    const stationOf = new Map(cartonLines.map((l) => [l.order_line_id, l.location_id]));
    await this.parts.floorEvents.record(uow, actor, lines.filter((l) => n(l.packed_qty) > 0).map((l): FloorEvent => ({
      kind: 'ship', warehouseId: order.warehouse_id, customerId: order.customer_id, orderId, orderLineId: l.id, skuId: l.sku_id,
      locationId: stationOf.get(l.id) ?? null, quantity: n(l.packed_qty),
    })), now);

    let backorder: { orderId: number; soNumber: string } | null = null;
    if (missing > 0) backorder = await this.takeBackorder(uow, principal, actor, order, lines);
    return { orderId, soNumber, shipDate, cartons, units, backorderOrderId: backorder?.orderId ?? null, backorderSoNumber: backorder?.soNumber ?? null };
  }

  /**
   * What did not ship becomes a new order through the orders module's intake (the same header, reference
   * <ref>-BO<n>, a line per remainder, backorder_of_id set), allocated at once: Allocated when stock is there
   * now, else Backordered to wait for it.
   */
  private async takeBackorder(uow: UnitOfWork, principal: Principal, actor: Actor, order: OrderRow, lines: Awaited<ReturnType<typeof repo.lines>>) {
    const number = (await repo.backorderCount(uow.tx, order.id)) + 1;
    const input: CreateOrderInput = {
      warehouseId: order.warehouse_id, customerId: order.customer_id, orderType: order.order_type as OrderType,
      referenceNumber: `${order.reference_number}-BO${number}`, orderDate: order.order_date, requestedShipDate: orUndefined(order.requested_ship_date),
      priority: n(order.priority), shipToName: orUndefined(order.ship_to_name), shipToAddress1: orUndefined(order.ship_to_address1),
      shipToAddress2: orUndefined(order.ship_to_address2), shipToCity: orUndefined(order.ship_to_city), shipToState: orUndefined(order.ship_to_state),
      shipToZip: orUndefined(order.ship_to_zip), shipToCountry: orUndefined(order.ship_to_country), shipToPhone: orUndefined(order.ship_to_phone),
      shipToEmail: orUndefined(order.ship_to_email), carrierAccountId: order.carrier_account_id ?? undefined, carrierService: orUndefined(order.carrier_service),
      notes: `Backorder of ${order.so_number}`, toWarehouseId: order.to_warehouse_id ?? undefined,
      lines: lines.filter((l) => n(l.quantity) > n(l.packed_qty)).map((l) => {
        const remainder = n(l.quantity) - n(l.packed_qty);
        // A package line keeps its package only while the remainder is whole packages of it.
        const whole = l.package_id != null && remainder % n(l.units_per_package) === 0;
        return { skuId: l.sku_id, quantity: remainder, ...(whole ? { packageId: n(l.package_id) } : {}), ...(l.lot ? { lot: l.lot } : {}), ...(l.notes ? { notes: l.notes } : {}) };
      }),
    };
    const taken = await this.parts.orders.intakeWithin(uow, principal, input, actor, 'screen');
    if (taken.duplicate) throw conflict(`Reference ${input.referenceNumber} is already used by order ${taken.soNumber}: the backorder of ${order.so_number} could not be taken in`);
    await repo.markBackorder(uow.tx, taken.orderId, order.id);
    await this.parts.allocation.allocateOrder(uow, actor, taken.orderId, 'AllocateOrder');
    return { orderId: taken.orderId, soNumber: taken.soNumber };
  }
}
