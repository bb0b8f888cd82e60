import { sql } from 'kysely';
import { ERROR_CODES, type Carton, type CartonType, type PackItemResult, type PackOrderView, type ScanSku } from '@bolx/contracts';
import type { z } from 'zod';
import type {
  cartonTypeInput, cartonTypeListRequest, closeCartonInput, openCartonInput, openPackInput, packItemInput, unpackItemInput,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { Change, ChangeRecorder } from '../../platform/change-recorder.js';
import { AppError, conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { FloorEvents } from '../../platform/floor-events.js';
import { toListPage } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import type { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import type { ReservedMove, StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { count } from '../../platform/plural.js';
import type { OrderService } from '../orders/orders.service.js';
import type { ScanService } from '../scans/scans.service.js';
import { packingRepository as repo, type CartonTypeRow } from './packing.repository.js';

const n = (v: unknown) => Number(v);

type CartonTypeInput = z.infer<typeof cartonTypeInput>;
type CartonTypeListRequest = z.infer<typeof cartonTypeListRequest>;

/** The order line that owns an order's reserved units, from bin to tote to pack station to truck. */
export const lineOwner = (soNumber: string, lineId: number) => ({ documentType: 'SO', documentId: soNumber, documentLine: String(lineId) });

const toCartonType = (r: CartonTypeRow): CartonType => ({
  cartonTypeId: r.id, warehouseId: r.warehouse_id, code: r.code, name: r.name, lengthCm: n(r.length_cm), widthCm: n(r.width_cm), heightCm: n(r.height_cm),
  tareWeightKg: n(r.tare_weight_kg), maxWeightKg: r.max_weight_kg == null ? null : n(r.max_weight_kg), isActive: n(r.is_active) === 1,
});

type HeldCarton = NonNullable<Awaited<ReturnType<typeof repo.carton>>>;

/**
 * The pack station: carton types, and packing a picked order into cartons. A scan resolves through the platform's
 * scan resolver to an item of the order (a package GTIN counts its units) and is refused, writing nothing, when it
 * is not on the order, another client's, or one more than was picked. Closing a carton moves its units, still
 * reserved for their order lines, from the totes to the pack station location; the order is Packed when every
 * picked unit is in a closed carton. Every step holds the order row first (Picked), so two packers of one order
 * take turns, and each writes its floor event.
 */
export class PackingService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;

  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, private readonly parts: {
    stock: StockEngine; floorEvents: FloorEvents; orders: OrderService; scans: ScanService;
  }) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.statuses = new StatusMachine(deps);
  }

  // ---- Carton types ----

  async cartonTypes(principal: Principal, req: CartonTypeListRequest) {
    return toListPage(await repo.listCartonTypes(this.db, this.dialect, principal.scope, req), (r) => toCartonType(r as CartonTypeRow));
  }

  /** Adds or changes a carton type of a warehouse; its code is unique in the warehouse (409). */
  async saveCartonType(principal: Principal, input: CartonTypeInput, actor: Actor) {
    principal.scope.assert({ warehouseId: input.warehouseId });
    const before = input.cartonTypeId ? await repo.cartonType(this.db, input.cartonTypeId) : undefined;
    if (input.cartonTypeId && (!before || !principal.scope.canSeeWarehouse(before.warehouse_id))) throw notFound('Carton type');
    if (before && before.warehouse_id !== input.warehouseId) {
      throw unprocessable('A carton type stays in its warehouse', { warehouseId: 'A carton type stays in its warehouse' });
    }
    if (input.maxWeightKg != null && input.maxWeightKg <= input.tareWeightKg) {
      throw unprocessable('The maximum weight must be more than the tare weight', { maxWeightKg: 'More than the tare weight' });
    }
    if (await repo.cartonTypeCodeTaken(this.db, input.warehouseId, input.code, input.cartonTypeId)) {
      throw conflict(`Carton type ${input.code} already exists in this warehouse`, `code: Carton type ${input.code} already exists in this warehouse`);
    }
    const row = {
      code: input.code, name: input.name, length_cm: input.lengthCm, width_cm: input.widthCm, height_cm: input.heightCm,
      tare_weight_kg: input.tareWeightKg, max_weight_kg: input.maxWeightKg ?? null, is_active: input.isActive ? 1 : 0,
    };
    const saved = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      const id = before ? before.id : await repo.insertCartonType(uow.tx, { ...row, warehouse_id: input.warehouseId }, at);
      if (before) await repo.updateCartonType(uow.tx, id, row, at);
      const after = toCartonType((await repo.cartonType(uow.tx, id))!);
      await this.recorder.record(uow, actor, {
        audit: { action: before ? 'update' : 'create', entity: 'carton_type', entityId: id, warehouseId: input.warehouseId, before: before ? toCartonType(before) : undefined, after },
      });
      return after;
    });
    return { message: `Carton type ${saved.code} ${before ? 'updated' : 'created'} successfully`, data: saved };
  }

  // ---- Pack station ----

  /** Opens the pack station on a tote, an SO number or an order's reference: a Picked order of the warehouse. */
  async openPack(principal: Principal, input: z.infer<typeof openPackInput>): Promise<PackOrderView> {
    principal.scope.assert({ warehouseId: input.warehouseId });
    const found = await repo.ordersByCode(this.db, principal.scope, input.warehouseId, input.code);
    if (found.length === 0) {
      throw new AppError(404, ERROR_CODES.NOT_FOUND, `No order or tote of picked stock matches '${input.code}' in this warehouse`, { code: 'Unknown order or tote' });
    }
    // A tote or reference naming several orders: the one still to pack, else the first.
    const order = found.find((o) => o.status === 'Picked') ?? found[0];
    if (order.status !== 'Picked') throw conflict(packRefusal(order.so_number, order.status), `status: ${order.status}`);
    return this.view(this.db, principal.scope, order.id);
  }

  /** Opens a carton of a carton type of the order's warehouse, with the type's inner dimensions. */
  async openCarton(principal: Principal, input: z.infer<typeof openCartonInput>, actor: Actor) {
    const header = await repo.orderHeader(this.db, principal.scope, input.orderId);
    if (!header) throw notFound('Order');
    const number = await inTransaction(this.db, async (uow) => {
      await this.holdPicked(uow, header.id, header.so_number);
      const type = await repo.cartonType(uow.tx, input.cartonTypeId);
      if (!type || type.warehouse_id !== header.warehouse_id || n(type.is_active) !== 1) {
        throw unprocessable('Not an active carton type of this warehouse', { cartonTypeId: 'Not an active carton type of this warehouse' });
      }
      const opened = await this.insertCarton(uow, actor, header, type);
      await this.recorder.record(uow, actor, opened.change);
      return opened.carton.cartonNumber;
    });
    return { message: `Carton ${number} opened`, order: await this.view(this.db, principal.scope, header.id) };
  }

  /**
   * One scan into a carton: the code's item must be on the order (the customer's SKU), with units picked and not yet
   * packed — in the scanned lot, else the lot with units left. The carton is one open already, or (orderId and
   * cartonTypeId) a new one of that type, opened only once the scan is accepted: a refused scan writes nothing, so
   * no empty carton is left open. Writes the carton line, the line's packed quantity and the floor event, and
   * answers only what changed (packItemResult): a scan costs the same statements whatever the order's length.
   */
  async packItem(principal: Principal, input: z.infer<typeof packItemInput>, actor: Actor): Promise<PackItemResult> {
    const carton = input.cartonId ? await this.cartonOf(principal.scope, input.cartonId) : undefined;
    const header = carton ? undefined : await repo.orderHeader(this.db, principal.scope, input.orderId!);
    if (!carton && !header) throw notFound('Order');
    const order = carton
      ? { id: carton.order_id, so_number: carton.so_number, warehouse_id: carton.warehouse_id, customer_id: carton.customer_id }
      : { id: header!.id, so_number: header!.so_number, warehouse_id: header!.warehouse_id, customer_id: header!.customer_id };
    return inTransaction(this.db, async (uow) => {
      // The order's row first; with it, the carton's status as it now is (closing a carton holds the order too).
      const held = await this.statuses.hold<'SALES_ORDER', { carton_status?: string }>(uow, {
        kind: 'SALES_ORDER', id: order.id, in: ['Picked'], refusal: (status) => packRefusal(order.so_number, status),
        returning: carton ? [sql<string>`(select status from carton where id = ${carton.id})`.as('carton_status')] : undefined,
      });
      if (carton && held.carton_status !== 'Open') throw conflict(`Carton ${carton.carton_number} is closed`, `status: ${held.carton_status}`);
      const type = carton ? undefined : await repo.cartonType(uow.tx, input.cartonTypeId!);
      if (!carton && (!type || type.warehouse_id !== order.warehouse_id || n(type.is_active) !== 1)) {
        throw unprocessable('Not an active carton type of this warehouse', { cartonTypeId: 'Not an active carton type of this warehouse' });
      }
      const skus = await this.parts.scans.skuMatches(uow.tx, order.warehouse_id, input.code);
      const own = skus.filter((s) => s.customerId === order.customer_id);
      if (own.length === 0) {
        const message = skus.length ? `${input.code} is another client's item: it is not on order ${order.so_number}` : `No item matches '${input.code}' in this warehouse`;
        throw unprocessable(message, { code: message });
      }
      const scan = await repo.packScan(uow.tx, order.id, order.so_number, own.map((s) => s.skuId));
      const match = own.find((s) => scan.lines.some((l) => l.sku_id === s.skuId));
      if (!match) {
        const message = `${own[0].skuCode} is not on order ${order.so_number}`;
        throw unprocessable(message, { code: message });
      }
      const units = input.quantity * match.unitsPerScan;
      const candidates = scan.lines.filter((l) => l.sku_id === match.skuId);
      const line = candidates.find((l) => l.picked_qty - l.packed_qty >= units);
      if (!line) {
        const left = candidates.reduce((s, l) => s + l.picked_qty - l.packed_qty, 0);
        const message = `${units === 1 ? 'One' : count(units, 'unit')} more than ordered: ${match.skuCode} has ${count(Math.max(0, left), 'unit')} picked and not yet packed on order ${order.so_number}`;
        throw unprocessable(message, { code: message });
      }
      const { lot, toteId } = lotToPack(scan, line.id, match, units, input.lot);
      const changes: Change[] = [];
      let target: Omit<Carton, 'lines'>;
      if (carton) {
        target = {
          cartonId: carton.id, cartonNumber: carton.carton_number, orderId: order.id, cartonTypeId: carton.carton_type_id, cartonTypeCode: carton.carton_type_code,
          status: 'Open', lengthCm: n(carton.length_cm), widthCm: n(carton.width_cm), heightCm: n(carton.height_cm), weightKg: null, trackingNumber: null, closedAt: null,
        };
      } else {
        const opened = await this.insertCarton(uow, actor, order, type!);
        changes.push(opened.change);
        target = opened.carton;
      }
      const packed = await repo.addToCarton(uow.tx, { carton_id: target.cartonId, order_line_id: line.id, sku_id: line.sku_id, lot, quantity: units });
      if (!packed) throw conflict(`Carton ${target.cartonNumber} is closed`);
      const after = await repo.addPacked(uow.tx, line.id, units);
      if (!after) throw conflict('The order line changed meanwhile; scan again');
      await this.parts.floorEvents.record(uow, actor, [{
        kind: 'pack', warehouseId: order.warehouse_id, customerId: order.customer_id, orderId: order.id, orderLineId: line.id,
        cartonId: target.cartonId, skuId: line.sku_id, locationId: toteId, quantity: units,
      }]);
      changes.push({
        audit: { action: 'pack', entity: 'carton', entityId: target.cartonId, warehouseId: order.warehouse_id, customerId: order.customer_id,
          after: { cartonNumber: target.cartonNumber, orderLineId: line.id, skuCode: match.skuCode, lot, quantity: units, inCarton: n(packed.quantity) } },
      });
      await this.recorder.record(uow, actor, ...changes);
      return {
        message: `${count(units, 'unit')} of ${match.skuCode}${lot ? ` (lot ${lot})` : ''} packed into ${target.cartonNumber}`,
        orderId: order.id, carton: target, opened: !carton,
        cartonLine: { orderLineId: line.id, skuId: line.sku_id, skuCode: match.skuCode, lot, quantity: n(packed.quantity) },
        line: { orderLineId: line.id, pickedQuantity: n(after.picked_qty), packedQuantity: n(after.packed_qty) },
      };
    });
  }

  /** A new open carton of a type for an order (CTN number, the type's inner dimensions), and its change to record. */
  private async insertCarton(uow: UnitOfWork, actor: Actor, order: { id: number; warehouse_id: number; customer_id: number }, type: CartonTypeRow) {
    const ctn = (await documentNumbers.next(uow, 'CTN')).number;
    const cartonId = await repo.insertCarton(uow.tx, {
      carton_number: ctn, order_id: order.id, warehouse_id: order.warehouse_id, customer_id: order.customer_id, carton_type_id: type.id,
      length_cm: n(type.length_cm), width_cm: n(type.width_cm), height_cm: n(type.height_cm), packed_by: actor.userId, created_at: new Date().toISOString(),
    });
    const change: Change = {
      audit: { action: 'open', entity: 'carton', entityId: cartonId, warehouseId: order.warehouse_id, customerId: order.customer_id, after: { cartonNumber: ctn, orderId: order.id, cartonType: type.code } },
    };
    const carton: Omit<Carton, 'lines'> = {
      cartonId, cartonNumber: ctn, orderId: order.id, cartonTypeId: type.id, cartonTypeCode: type.code, status: 'Open',
      lengthCm: n(type.length_cm), widthCm: n(type.width_cm), heightCm: n(type.height_cm), weightKg: null, trackingNumber: null, closedAt: null,
    };
    return { carton, change };
  }

  /** Takes units of an order line's lot back out of an open carton (a wrong item put in). */
  async unpackItem(principal: Principal, input: z.infer<typeof unpackItemInput>, actor: Actor) {
    const carton = await this.cartonOf(principal.scope, input.cartonId);
    await inTransaction(this.db, async (uow) => {
      await this.holdPicked(uow, carton.order_id, carton.so_number);
      await this.assertOpen(uow.tx, carton);
      const lot = input.lot ?? '';
      if (!(await repo.takeFromCarton(uow.tx, carton.id, input.orderLineId, lot, input.quantity))) {
        throw unprocessable(`Carton ${carton.carton_number} does not hold ${count(input.quantity, 'unit')} of that line${lot ? ` in lot ${lot}` : ''}`, { quantity: 'More than the carton holds of that line' });
      }
      if (!(await repo.takePacked(uow.tx, input.orderLineId, input.quantity))) throw conflict('The order line changed meanwhile; try again');
      const line = (await repo.orderLines(uow.tx, carton.order_id)).find((l) => l.id === input.orderLineId)!;
      await this.parts.floorEvents.record(uow, actor, [{
        kind: 'unpack', warehouseId: carton.warehouse_id, customerId: carton.customer_id, orderId: carton.order_id, orderLineId: input.orderLineId,
        cartonId: carton.id, skuId: line.sku_id, quantity: input.quantity,
      }]);
      await this.recorder.record(uow, actor, {
        audit: { action: 'unpack', entity: 'carton', entityId: carton.id, warehouseId: carton.warehouse_id, customerId: carton.customer_id,
          after: { cartonNumber: carton.carton_number, orderLineId: input.orderLineId, lot, quantity: input.quantity } },
      });
    });
    return { message: `${count(input.quantity, 'unit')} taken out of ${carton.carton_number}`, order: await this.view(this.db, principal.scope, carton.order_id) };
  }

  /**
   * Closes a carton with its gross weight (more than its tare, at most its type's maximum): its units move, still
   * reserved for their lines, from the totes they were picked into to the pack station location (pack_out/pack_in,
   * document PACK/<carton number>, one ledger line per carton line). When every picked unit of the order is in a
   * closed carton, the order is Packed.
   */
  async closeCarton(principal: Principal, input: z.infer<typeof closeCartonInput>, actor: Actor) {
    const carton = await this.cartonOf(principal.scope, input.cartonId);
    const packedOrder = await inTransaction(this.db, async (uow) => {
      await this.holdPicked(uow, carton.order_id, carton.so_number);
      await this.assertOpen(uow.tx, carton);
      const type = (await repo.cartonType(uow.tx, carton.carton_type_id))!;
      const tare = n(type.tare_weight_kg);
      if (input.weightKg <= tare) throw unprocessable(`The weight must be more than the carton's tare weight (${tare} kg)`, { weightKg: `More than the tare weight (${tare} kg)` });
      if (type.max_weight_kg != null && input.weightKg > n(type.max_weight_kg)) {
        throw unprocessable(`Carton ${type.code} takes at most ${n(type.max_weight_kg)} kg; this one weighs ${input.weightKg} kg`, { weightKg: `At most ${n(type.max_weight_kg)} kg` });
      }
      const lines = await repo.cartonLines(uow.tx, carton.id);
      if (lines.length === 0) throw unprocessable(`Carton ${carton.carton_number} is empty: pack an item before closing it`, { cartonId: 'The carton is empty' });
      const station = await this.station(uow.tx, carton.warehouse_id, input.locationId);
      const moves = this.movesToStation(carton, lines, await repo.toteReservations(uow.tx, carton.so_number), station.id);
      const units = lines.reduce((s, l) => s + n(l.quantity), 0);
      await this.parts.stock.moveReserved(uow, {
        documentType: 'PACK', documentId: carton.carton_number, reason: `Packed into ${carton.carton_number} for ${carton.so_number}`,
        outType: 'pack_out', inType: 'pack_in', moves,
        record: { kind: 'Pack', locationId: station.id, after: { cartonNumber: carton.carton_number, orderId: carton.order_id, soNumber: carton.so_number, station: station.code, units } },
      }, actor);
      const at = new Date().toISOString();
      if (!(await repo.closeCarton(uow.tx, carton.id, { weight_kg: input.weightKg, location_id: station.id, closed_at: at }))) throw conflict(`Carton ${carton.carton_number} was closed meanwhile`);
      await this.parts.floorEvents.record(uow, actor, [{
        kind: 'close-carton', warehouseId: carton.warehouse_id, customerId: carton.customer_id, orderId: carton.order_id, cartonId: carton.id, locationId: station.id, quantity: units,
      }]);
      await this.recorder.record(uow, actor, {
        audit: { action: 'close', entity: 'carton', entityId: carton.id, warehouseId: carton.warehouse_id, customerId: carton.customer_id,
          after: { cartonNumber: carton.carton_number, weightKg: input.weightKg, locationId: station.id, units } },
      });
      if (!(await repo.allPackedAndClosed(uow.tx, carton.order_id))) return false;
      await this.statuses.transition(uow, actor, { kind: 'SALES_ORDER', id: carton.order_id, to: 'Packed', from: ['Picked'], set: { updated_at: at } });
      await this.parts.orders.recordFloorChange(uow, actor, carton.order_id, { action: 'pack', subEvent: 'PackOrder', before: { status: 'Picked' } });
      return true;
    });
    const message = packedOrder ? `Carton ${carton.carton_number} closed: order ${carton.so_number} is Packed` : `Carton ${carton.carton_number} closed`;
    return { message, order: await this.view(this.db, principal.scope, carton.order_id) };
  }

  // ---- Helpers ----

  /** Holds the order row for the transaction while it is Picked (partially packed orders are still Picked); else 409 naming its status. */
  private holdPicked(uow: UnitOfWork, orderId: number, soNumber: string) {
    return this.statuses.hold(uow, { kind: 'SALES_ORDER', id: orderId, in: ['Picked'], refusal: (status) => packRefusal(soNumber, status) });
  }

  private async cartonOf(scope: Scope, cartonId: number) {
    const carton = await repo.carton(this.db, scope, cartonId);
    if (!carton) throw notFound('Carton');
    return carton;
  }

  /** 409 unless the carton is still open (read again under the order's hold). */
  private async assertOpen(tx: Executor, carton: HeldCarton) {
    const status = await repo.cartonStatus(tx, carton.id);
    if (status !== 'Open') throw conflict(`Carton ${carton.carton_number} is closed`, `status: ${status}`);
  }

  /**
   * The reserved moves that take a carton's lines from the totes their units wait in to the station (a line's lot
   * may lie in several totes: the first ones first). 409 when the totes no longer hold them.
   */
  private movesToStation(carton: HeldCarton, lines: Awaited<ReturnType<typeof repo.cartonLines>>, totes: Awaited<ReturnType<typeof repo.toteReservations>>, stationId: number) {
    const left = totes.map((r) => ({ ...r, left: n(r.quantity) }));
    const moves: ReservedMove[] = [];
    for (const line of lines) {
      let need = n(line.quantity);
      for (const r of left) {
        if (need === 0) break;
        if (r.document_line !== String(line.order_line_id) || r.lot !== line.lot || r.left === 0) continue;
        const take = Math.min(need, r.left);
        r.left -= take;
        need -= take;
        moves.push({
          owner: lineOwner(carton.so_number, line.order_line_id), to: stationId, quantity: take, documentLine: String(line.id),
          from: { warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: r.location_id, lot: r.lot, pallet: r.pallet },
        });
      }
      if (need > 0) throw conflict(`${count(need, 'unit')} of carton ${carton.carton_number} are no longer in a tote of order ${carton.so_number}`);
    }
    return moves;
  }

  /** The pack station location: the one given (a staging or dock location of the warehouse), else its first staging, else its first dock. */
  private async station(tx: Executor, warehouseId: number, locationId?: number) {
    if (locationId) {
      const l = await repo.stationLocation(tx, warehouseId, locationId);
      if (!l || n(l.is_active) !== 1 || !['staging', 'dock'].includes(l.type)) {
        throw unprocessable('Not an active staging or dock location of this warehouse', { locationId: 'Choose a staging or dock location of this warehouse' });
      }
      return l;
    }
    const l = await repo.defaultStation(tx, warehouseId);
    if (!l) throw unprocessable('This warehouse has no staging or dock location for packed cartons: add one, or choose where the carton waits', { locationId: 'Choose a pack station location' });
    return l;
  }

  /** The pack station's view of an order: what was picked and packed per line, the totes, the cartons and their lines. */
  async view(db: Executor, scope: Scope, orderId: number): Promise<PackOrderView> {
    const header = await repo.orderHeader(db, scope, orderId);
    if (!header) throw notFound('Order');
    const [lines, cartons, cartonLines, totes] = await Promise.all([
      repo.orderLines(db, orderId), repo.cartonsOf(db, orderId), repo.cartonLinesOf(db, orderId), repo.toteReservations(db, header.so_number),
    ]);
    return {
      orderId: header.id, soNumber: header.so_number, referenceNumber: header.reference_number, customerId: header.customer_id, customerName: header.customer_name,
      status: header.status as PackOrderView['status'], shipToName: header.ship_to_name, carrierName: header.carrier_name, carrierService: header.carrier_service,
      toteCodes: [...new Set(totes.map((t) => t.location_code))],
      lines: lines.map((l) => ({
        orderLineId: l.id, lineNo: n(l.line_no), skuId: l.sku_id, skuCode: l.sku_code, skuDescription: l.description, lot: l.lot,
        quantity: n(l.quantity), pickedQuantity: n(l.picked_qty), packedQuantity: n(l.packed_qty),
      })),
      cartons: cartons.map((c) => ({
        cartonId: c.id, cartonNumber: c.carton_number, orderId: c.order_id, cartonTypeId: c.carton_type_id, cartonTypeCode: c.carton_type_code,
        status: c.status as 'Open' | 'Closed', lengthCm: n(c.length_cm), widthCm: n(c.width_cm), heightCm: n(c.height_cm),
        weightKg: c.weight_kg == null ? null : n(c.weight_kg), trackingNumber: c.tracking_number, closedAt: c.closed_at,
        lines: cartonLines.filter((l) => l.carton_id === c.id).map((l) => ({ orderLineId: l.order_line_id, skuId: l.sku_id, skuCode: l.sku_code, lot: l.lot, quantity: n(l.quantity) })),
      })),
    };
  }
}

/**
 * The lot a scan packs: the one scanned (or the line's own), else the lot with units left — units at the totes
 * for the line, less what open cartons already hold of it — and the tote it is taken from (the floor event's where).
 */
function lotToPack(scan: Awaited<ReturnType<typeof repo.packScan>>, lineId: number, sku: ScanSku, units: number, scanned?: string) {
  const atTotes = new Map<string, number>();
  const toteOf = new Map<string, number>();
  for (const r of scan.totes) {
    if (r.line_id !== lineId) continue;
    atTotes.set(r.lot, (atTotes.get(r.lot) ?? 0) + r.quantity);
    if (!toteOf.has(r.lot)) toteOf.set(r.lot, r.location_id);
  }
  for (const l of scan.inOpenCartons) {
    if (l.line_id === lineId) atTotes.set(l.lot, (atTotes.get(l.lot) ?? 0) - l.quantity);
  }
  if (scanned) {
    const left = atTotes.get(scanned) ?? 0;
    if (left < units) {
      const message = `Lot ${scanned} of ${sku.skuCode}: ${count(Math.max(0, left), 'unit')} picked and not yet packed`;
      throw unprocessable(message, { lot: message });
    }
    return { lot: scanned, toteId: toteOf.get(scanned)! };
  }
  const lots = [...atTotes].filter(([, left]) => left >= units).map(([lot]) => lot);
  if (lots.length === 0) {
    const message = `The picked units of ${sku.skuCode} are not in a tote of this order`;
    throw unprocessable(message, { code: message });
  }
  return { lot: lots[0], toteId: toteOf.get(lots[0])! };
}

/** The 409 of a pack step on an order that is not Picked. */
function packRefusal(soNumber: string, status: string) {
  if (status === 'Cancelled') return `Order ${soNumber} is Cancelled: it cannot be packed`;
  if (status === 'Packed') return `Order ${soNumber} is Packed already`;
  return `Order ${soNumber} is ${status}; only Picked orders are packed`;
}
