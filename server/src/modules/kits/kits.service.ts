import {
  QUANTITY_MAX, type CreateWorkOrderInput, type HubEventMap, type KitAvailability, type KitAvailabilityFilters, type WorkOrderComponent,
  type WorkOrderFilters, type WorkOrderStatus, type WorkOrderSummary, type WorkOrderType,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { WarehouseTimeZones } from '../../platform/business-day.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { domainEvent, type RaisedEvent } from '../../platform/domain-events.js';
import { documentNumbers } from '../../platform/document-numbers.js';
import { conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { ListRequest } from '../../platform/list.js';
import { count } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { Leg, Place, StockEngine } from '../../platform/stock/stock-engine.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { FloorEvents } from '../../platform/floor-events.js';
import { kitsRepository as repo, WO_DOCUMENT, type WorkOrderRow } from './kits.repository.js';

type SubEvent = HubEventMap['ReceiveKitData']['subEvent'];
type Line = Awaited<ReturnType<typeof repo.lines>>[number];

const n = (v: unknown) => Number(v);
/** A component's reservations: the work order (by its number) owns them, one owner line per component SKU. */
const ownerOf = (woNumber: string, componentSkuId: number) => ({ documentType: WO_DOCUMENT, documentId: woNumber, documentLine: String(componentSkuId) });
const closedMeanwhile = (status: string) => `This work order is already ${status.toLowerCase()}`;

/** What a Build still misses, component by component: "COMP-1 is short by 3". */
const shortText = (short: { skuCode: string; short: number }[]) => short.map((s) => `${s.skuCode} is short by ${s.short}`).join('; ');

/**
 * Kits: availability (built kits, and how many the components allow, with the component that limits it) and work
 * orders that build kits from their components or take them apart, each completed in one ledger posting through
 * the stock engine. A Build reserves its components when it is made (FEFO/FIFO from pickable stock), or names one
 * source location; completing it consumes exactly those and nothing is written when anything is short.
 */
export class KitService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;
  private readonly statuses: StatusMachine;
  /** The activity log: a completed work order is labour (productivity, labour time per task type, kitting charges). */
  private readonly floor: FloorEvents;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly stock: StockEngine) {
    this.floor = new FloorEvents(deps.timeZones);
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
    this.statuses = new StatusMachine(deps);
  }

  private today(warehouseId: number, tx: Executor = this.db) {
    return this.timeZones.dayOf(warehouseId, new Date(), tx);
  }

  // ---- Availability ----

  /**
   * One row per warehouse and kit SKU: built kits on hand and free, and buildable = the smallest over its
   * components of floor(free component units / units per kit), naming the component that sets it.
   */
  async availability(principal: Principal, req: ListRequest<KitAvailabilityFilters>) {
    const page = await repo.kitPage(this.db, this.dialect, principal.scope, req);
    const kitIds = [...new Set(page.rows.map((r) => n(r.kit_sku_id)))];
    const components = await repo.componentsOf(this.db, kitIds);
    const onHand = new Map((await repo.onHand(this.db, [...new Set(page.rows.map((r) => n(r.warehouse_id)))], kitIds))
      .map((r) => [`${r.warehouse_id}|${r.sku_id}`, n(r.on_hand)]));
    // Free stock per warehouse and client (a page is mostly one of each): kits and their components at once.
    const free = new Map<string, number>();
    const groups = new Map<string, { warehouseId: number; customerId: number; skuIds: Set<number> }>();
    for (const r of page.rows) {
      const key = `${r.warehouse_id}|${r.customer_id}`;
      const g = groups.get(key) ?? { warehouseId: n(r.warehouse_id), customerId: n(r.customer_id), skuIds: new Set<number>() };
      g.skuIds.add(n(r.kit_sku_id));
      for (const c of components) if (c.kit_sku_id === r.kit_sku_id) g.skuIds.add(n(c.component_sku_id));
      groups.set(key, g);
    }
    for (const g of groups.values()) {
      const byId = await this.stock.freeStock(this.db, { warehouseId: g.warehouseId, customerId: g.customerId, skuIds: [...g.skuIds], today: await this.today(g.warehouseId), locations: 'pickable' });
      for (const [skuId, units] of byId) free.set(`${g.warehouseId}|${skuId}`, units);
    }
    const items: KitAvailability[] = page.rows.map((r) => {
      const wh = n(r.warehouse_id);
      const parts = components.filter((c) => c.kit_sku_id === r.kit_sku_id).map((c) => {
        const units = free.get(`${wh}|${c.component_sku_id}`) ?? 0;
        return { skuId: n(c.component_sku_id), skuCode: c.sku_code, perKit: n(c.quantity), free: units, buildable: Math.floor(units / n(c.quantity)) };
      });
      const limiting = parts.reduce<(typeof parts)[number] | null>((least, c) => (!least || c.buildable < least.buildable ? c : least), null);
      return {
        uniqueid: `${wh}-${r.kit_sku_id}`, warehouseId: wh, warehouseName: r.warehouse_name, customerId: n(r.customer_id), customerName: r.customer_name,
        kitSkuId: n(r.kit_sku_id), kitSkuCode: r.sku_code, kitDescription: r.description,
        onHand: onHand.get(`${wh}|${r.kit_sku_id}`) ?? 0, free: free.get(`${wh}|${r.kit_sku_id}`) ?? 0,
        buildable: limiting?.buildable ?? 0, limitingComponent: limiting, components: parts,
      };
    });
    return { items, totalCount: page.total };
  }

  // ---- Work orders ----

  async list(principal: Principal, req: ListRequest<WorkOrderFilters>) {
    const page = await repo.listWorkOrders(this.db, this.dialect, principal.scope, req);
    return { items: await this.summaries(this.db, page.rows), totalCount: page.total };
  }

  async get(principal: Principal, workOrderId: number) {
    return this.detail(this.db, principal.scope, workOrderId);
  }

  private async detail(db: Executor, scope: Scope, id: number) {
    const row = await repo.find(db, scope, id);
    if (!row) throw notFound('Work order');
    const [summary] = await this.summaries(db, [row]);
    const history = await repo.history(db, id);
    return { ...summary, history: history.map((h) => ({ fromStatus: h.from_status, toStatus: h.to_status, at: h.at, username: h.username, reason: h.reason })) };
  }

  /**
   * Work orders with their components and, for an open Build, what each component still misses: its units less
   * those reserved for it (or, with a source location, free there). A fixed few statements for any page.
   */
  private async summaries(db: Executor, rows: WorkOrderRow[]): Promise<WorkOrderSummary[]> {
    const lines = await repo.lines(db, rows.map((r) => r.id));
    const openBuilds = rows.filter((r) => r.status === 'Open' && r.type === 'Build');
    const reserved = new Map((await repo.reserved(db, openBuilds.filter((r) => !r.component_location_id).map((r) => r.wo_number)))
      .map((r) => [`${r.document_id}|${r.sku_id}`, n(r.reserved)]));
    const atSource = new Map<string, number>();
    const sourced = openBuilds.filter((r) => r.component_location_id);
    for (const warehouseId of new Set(sourced.map((r) => r.warehouse_id))) {
      const here = sourced.filter((r) => r.warehouse_id === warehouseId);
      const found = await repo.freeAtLocations(db, {
        locationIds: here.map((r) => r.component_location_id!), today: await this.today(warehouseId, db),
        skuIds: lines.filter((l) => here.some((r) => r.id === l.work_order_id)).map((l) => l.component_sku_id),
      });
      for (const f of found) atSource.set(`${f.location_id}|${f.sku_id}`, n(f.free));
    }
    return rows.map((r) => {
      const open = r.status === 'Open' && r.type === 'Build';
      const components: WorkOrderComponent[] = lines.filter((l) => l.work_order_id === r.id).map((l) => {
        const have = !open ? 0 : r.component_location_id
          ? Math.min(n(l.quantity), atSource.get(`${r.component_location_id}|${l.component_sku_id}`) ?? 0)
          : reserved.get(`${r.wo_number}|${l.component_sku_id}`) ?? 0;
        return { skuId: n(l.component_sku_id), skuCode: l.sku_code, perKit: n(l.per_kit), quantity: n(l.quantity), reserved: have, short: open ? n(l.quantity) - have : 0 };
      });
      return {
        uniqueid: r.id, workOrderId: r.id, woNumber: r.wo_number, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name,
        customerId: r.customer_id, customerName: r.customer_name, type: r.type as WorkOrderType, kitSkuId: r.kit_sku_id,
        kitSkuCode: r.kit_sku_code, kitDescription: r.kit_description, quantity: n(r.quantity), locationId: r.location_id,
        locationCode: r.location_code ?? '', componentLocationId: r.component_location_id, componentLocationCode: r.component_location_code,
        status: r.status as WorkOrderStatus, notes: r.notes, orderLineId: r.order_line_id, soNumber: r.so_number, components,
        shortQuantity: components.reduce((s, c) => s + c.short, 0), createdBy: r.created_by_name, createdAt: r.created_at,
        completedBy: r.completed_by_name, completedAt: r.completed_at,
      };
    });
  }

  /**
   * Makes a work order. Its references are checked first (the client's active kit SKU with components, locations
   * of the warehouse); a Build without a source location reserves its components FEFO/FIFO from pickable stock,
   * as much as there is — what is missing shows on the dashboard and is taken again when it is completed.
   */
  async create(principal: Principal, input: CreateWorkOrderInput, actor: Actor, orderLineId: number | null = null) {
    principal.scope.assert({ warehouseId: input.warehouseId, customerId: input.customerId });
    const locationIds = [input.locationId, ...(input.componentLocationId ? [input.componentLocationId] : [])];
    await this.stock.references({ warehouseId: input.warehouseId, customerId: input.customerId, locationIds });
    const kit = await repo.kitSku(this.db, input.customerId, input.kitSkuId);
    if (!kit) throw notFound('SKU');
    if (n(kit.is_kit) !== 1) throw unprocessable(`SKU ${kit.sku_code} is not a kit`, { kitSkuId: `SKU ${kit.sku_code} is not a kit` });
    if (n(kit.is_active) !== 1) throw unprocessable(`Kit ${kit.sku_code} is inactive`, { kitSkuId: `Kit ${kit.sku_code} is inactive` });
    const components = await repo.componentsOf(this.db, [input.kitSkuId]);
    if (components.length === 0) throw unprocessable(`Kit ${kit.sku_code} has no components`, { kitSkuId: `Kit ${kit.sku_code} has no components` });
    const tooMany = components.find((c) => n(c.quantity) * input.quantity > QUANTITY_MAX);
    if (tooMany) throw unprocessable(`Too many units of ${tooMany.sku_code} for one work order`, { quantity: `At most ${Math.floor(QUANTITY_MAX / n(tooMany.quantity))} kits` });

    const id = await inTransaction(this.db, async (uow) => {
      const woNumber = (await documentNumbers.next(uow, 'WO')).number;
      const at = new Date().toISOString();
      const workOrderId = await repo.insertWorkOrder(uow.tx, {
        wo_number: woNumber, warehouse_id: input.warehouseId, customer_id: input.customerId, type: input.type, kit_sku_id: input.kitSkuId,
        quantity: input.quantity, location_id: input.locationId, component_location_id: input.componentLocationId ?? null, status: 'Open',
        notes: input.notes || null, order_line_id: orderLineId, created_by: actor.userId, created_at: at, updated_at: at,
      });
      await repo.insertLines(uow.tx, components.map((c) => ({
        work_order_id: workOrderId, component_sku_id: n(c.component_sku_id), per_kit: n(c.quantity), quantity: n(c.quantity) * input.quantity,
      })));
      if (input.type === 'Build' && !input.componentLocationId) {
        const today = await this.today(input.warehouseId, uow.tx);
        // Every component in one allocation: its balances are locked in one sweep, by id (not a SKU at a time).
        await this.stock.allocateMany(uow, components.map((c) => ({
          owner: ownerOf(woNumber, n(c.component_sku_id)), warehouseId: input.warehouseId, customerId: input.customerId,
          skuId: n(c.component_sku_id), quantity: n(c.quantity) * input.quantity, today, locations: 'pickable' as const, allowPartial: true,
        })));
      }
      const after = await this.detail(uow.tx, Scope.everything, workOrderId);
      await this.record(uow, actor, after, 'create', 'AddWorkOrder', undefined, orderLineId ? { orderLineId } : undefined);
      return workOrderId;
    });
    const wo = await this.detail(this.db, Scope.everything, id);
    const short = wo.components.filter((c) => c.short > 0);
    return { message: `Work order ${wo.woNumber} created${short.length ? `; ${shortText(short)}` : ''}`, data: wo };
  }

  /**
   * Raises a Build for an order line of a kit SKU: the kits the line still misses beyond those allocated to it and
   * the free built kits of the warehouse. Reads the order tables only; 422 when nothing is missing.
   */
  async createForOrderLine(principal: Principal, input: { orderLineId: number; locationId?: number }, actor: Actor) {
    const line = await repo.orderLine(this.db, input.orderLineId);
    if (!line) throw notFound('Order line');
    principal.scope.assert({ warehouseId: line.warehouse_id, customerId: line.customer_id });
    if (n(line.is_kit) !== 1) throw unprocessable(`SKU ${line.sku_code} is not a kit`, { orderLineId: `SKU ${line.sku_code} is not a kit` });
    if (['Cancelled', 'Shipped'].includes(line.status)) throw conflict(`Order ${line.so_number} is ${line.status}`);
    const today = await this.today(line.warehouse_id);
    const free = (await this.stock.freeStock(this.db, { warehouseId: line.warehouse_id, customerId: line.customer_id, skuIds: [line.sku_id], today, locations: 'pickable' })).get(line.sku_id) ?? 0;
    const missing = n(line.quantity) - n(line.allocated_qty) - free;
    if (missing <= 0) {
      throw unprocessable(`Nothing to build: ${count(n(line.quantity) - n(line.allocated_qty), 'kit')} still wanted, ${free} built and free`,
        { orderLineId: 'Enough kits are built' });
    }
    const components = (await repo.componentsOf(this.db, [line.sku_id])).map((c) => n(c.component_sku_id));
    const locationId = input.locationId ?? await repo.busiestLocation(this.db, { warehouseId: line.warehouse_id, customerId: line.customer_id, skuIds: components, today });
    if (!locationId) throw unprocessable('Choose where to build: no component stock is free', { locationId: 'Please select a location!' });
    return this.create(principal, {
      warehouseId: line.warehouse_id, customerId: line.customer_id, type: 'Build', kitSkuId: line.sku_id, quantity: missing, locationId,
      notes: `For order ${line.so_number}`,
    }, actor, line.id);
  }

  /**
   * Completes a work order in one transaction: the status moves (409 unless Open), then one posting takes what it
   * uses up and gives what it makes — a Build its reserved components (topped up first when short) into kits at
   * its location, an Unbuild its kits into components. Anything short: 422 naming it, and nothing is written.
   */
  async complete(principal: Principal, input: { workOrderId: number }, actor: Actor) {
    const wo = await repo.find(this.db, principal.scope, input.workOrderId);
    if (!wo) throw notFound('Work order');
    const after = await inTransaction(this.db, async (uow) => {
      const at = new Date().toISOString();
      await this.statuses.transition(uow, actor, {
        kind: 'KIT_WORK_ORDER', id: wo.id, to: 'Completed', refusal: closedMeanwhile,
        set: { completed_by: actor.userId, completed_at: at, updated_at: at },
      });
      const lines = await repo.lines(uow.tx, [wo.id]);
      const today = await this.today(wo.warehouse_id, uow.tx);
      const legs = wo.type === 'Build' ? await this.buildLegs(uow, wo, lines, today, at) : await this.unbuildLegs(uow, wo, lines, today, at);
      const verb = wo.type === 'Build' ? 'Built' : 'Unbuilt';
      if (wo.type === 'Build') await this.stock.assertRoom(uow, wo.location_id, n(wo.quantity));
      await this.floor.record(uow, actor, [{
        kind: 'kit-build', warehouseId: wo.warehouse_id, customerId: wo.customer_id, skuId: wo.kit_sku_id, locationId: wo.location_id,
        quantity: n(wo.quantity), docType: 'KIT_WO', docId: wo.id, detail: wo.type,
      }], new Date(at));
      await this.stock.post(uow, {
        documentType: WO_DOCUMENT, documentId: wo.wo_number, reason: `${verb} ${count(n(wo.quantity), 'kit')} ${wo.kit_sku_code} (${wo.wo_number})`, legs,
        record: { kind: 'Kit', skuId: wo.kit_sku_id, locationId: wo.location_id, after: { workOrderId: wo.id, woNumber: wo.wo_number, type: wo.type, quantity: n(wo.quantity) } },
      }, actor);
      const now = await this.detail(uow.tx, Scope.everything, wo.id);
      await this.record(uow, actor, now, 'complete', 'CompleteWorkOrder', { status: wo.status }, undefined, [domainEvent('kit-work-order.completed', {
        workOrderId: wo.id, woNumber: wo.wo_number, warehouseId: wo.warehouse_id, customerId: wo.customer_id, type: wo.type as WorkOrderType,
        kitSkuId: wo.kit_sku_id, quantity: n(wo.quantity), locationId: wo.location_id, document: wo.wo_number,
      })]);
      return now;
    });
    return { message: `Work order ${after.woNumber} completed: ${count(after.quantity, 'kit')} ${after.kitSkuCode} ${after.type === 'Build' ? 'built' : 'taken apart'}`, data: after };
  }

  /**
   * A Build's legs: each component taken from where it is reserved (or from the source location), the kits put
   * at the location. Reservations are topped up first; what is still short refuses the whole completion.
   */
  private async buildLegs(uow: UnitOfWork, wo: WorkOrderRow, lines: Line[], today: string, at: string): Promise<Leg[]> {
    const takes: { place: Place; qty: number; skuId: number }[] = [];
    const short: { skuCode: string; short: number }[] = [];
    const reserved = wo.component_location_id ? [] : await repo.reserved(uow.tx, [wo.wo_number]);
    for (const line of lines) {
      const skuId = n(line.component_sku_id);
      if (wo.component_location_id) {
        const found = await this.takesAt(uow.tx, wo, skuId, wo.component_location_id, n(line.quantity), today);
        takes.push(...found.takes.map((t) => ({ ...t, skuId })));
        if (found.short) short.push({ skuCode: line.sku_code, short: found.short });
        continue;
      }
      const owner = ownerOf(wo.wo_number, skuId);
      const held = n(reserved.find((r) => r.sku_id === skuId)?.reserved ?? 0);
      if (held < n(line.quantity)) {
        const topUp = await this.stock.allocate(uow, {
          owner, warehouseId: wo.warehouse_id, customerId: wo.customer_id, skuId, quantity: n(line.quantity) - held, today, locations: 'pickable', allowPartial: true,
        });
        if (topUp.short) short.push({ skuCode: line.sku_code, short: topUp.short });
      }
      const released = await this.stock.release(uow, owner);
      const places = new Map((await repo.places(uow.tx, released.map((r) => r.balanceId))).map((p) => [p.id, p]));
      for (const r of released) {
        const p = places.get(r.balanceId)!;
        takes.push({ skuId, qty: r.quantity, place: { warehouseId: p.warehouse_id, customerId: p.customer_id, skuId: p.sku_id, locationId: p.location_id, lot: p.lot, pallet: p.pallet } });
      }
    }
    if (short.length) {
      throw unprocessable(`Not enough components to build ${count(n(wo.quantity), 'kit')}: ${shortText(short)}`,
        Object.fromEntries(short.map((s) => [`components.${s.skuCode}`, `${s.short} missing`])));
    }
    const kitPlace: Place = { warehouseId: wo.warehouse_id, customerId: wo.customer_id, skuId: wo.kit_sku_id, locationId: wo.location_id, lot: '', pallet: '' };
    return [
      ...takes.map((t) => ({ place: t.place, qty: -t.qty, txnType: 'kit_consume' as const, documentLine: String(t.skuId) })),
      { place: kitPlace, qty: n(wo.quantity), txnType: 'kit_produce', receivedAt: at, documentLine: String(wo.kit_sku_id) },
    ];
  }

  /** An Unbuild's legs: the kits taken from the location, each component given back (to the component location, else there). */
  private async unbuildLegs(uow: UnitOfWork, wo: WorkOrderRow, lines: Line[], today: string, at: string): Promise<Leg[]> {
    const kits = await this.takesAt(uow.tx, wo, wo.kit_sku_id, wo.location_id, n(wo.quantity), today);
    if (kits.short) {
      const free = n(wo.quantity) - kits.short;
      throw unprocessable(`Not enough built kits at ${wo.location_code}: ${free} free, ${wo.quantity} asked`, { quantity: `At most ${free} available` });
    }
    const to = wo.component_location_id ?? wo.location_id;
    const given = lines.reduce((s, l) => s + n(l.quantity), 0);
    const room = to === wo.location_id ? given - n(wo.quantity) : given;
    if (room > 0) await this.stock.assertRoom(uow, to, room);
    return [
      ...kits.takes.map((t) => ({ place: t.place, qty: -t.qty, txnType: 'kit_consume' as const, documentLine: String(wo.kit_sku_id) })),
      ...lines.map((l) => ({
        place: { warehouseId: wo.warehouse_id, customerId: wo.customer_id, skuId: n(l.component_sku_id), locationId: to, lot: '', pallet: '' },
        qty: n(l.quantity), txnType: 'kit_produce' as const, receivedAt: at, documentLine: String(l.component_sku_id),
      })),
    ];
  }

  /** Takes of `quantity` units of a SKU from one location's free balances, FEFO/FIFO; `short`: what they lack. */
  private async takesAt(tx: Executor, wo: WorkOrderRow, skuId: number, locationId: number, quantity: number, today: string) {
    const balances = await repo.freeAt(tx, { warehouseId: wo.warehouse_id, customerId: wo.customer_id, skuId, locationId, today });
    const takes: { place: Place; qty: number }[] = [];
    let need = quantity;
    for (const b of balances) {
      if (need === 0) break;
      const qty = Math.min(need, n(b.free));
      takes.push({ qty, place: { warehouseId: wo.warehouse_id, customerId: wo.customer_id, skuId, locationId, lot: b.lot, pallet: b.pallet } });
      need -= qty;
    }
    return { takes, short: need };
  }

  /** Cancels an open work order, releasing every component it reserved. */
  async cancel(principal: Principal, input: { workOrderId: number; reason?: string }, actor: Actor) {
    const wo = await repo.find(this.db, principal.scope, input.workOrderId);
    if (!wo) throw notFound('Work order');
    const after = await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'KIT_WORK_ORDER', id: wo.id, to: 'Cancelled', refusal: closedMeanwhile, reason: input.reason ?? null,
        set: { updated_at: new Date().toISOString() },
      });
      let released = 0;
      for (const line of await repo.lines(uow.tx, [wo.id])) {
        released += (await this.stock.release(uow, ownerOf(wo.wo_number, n(line.component_sku_id)))).reduce((s, r) => s + r.quantity, 0);
      }
      const now = await this.detail(uow.tx, Scope.everything, wo.id);
      await this.record(uow, actor, now, 'cancel', 'CancelWorkOrder', { status: wo.status }, { released, ...(input.reason ? { reason: input.reason } : {}) });
      return { now, released };
    });
    return {
      message: `Work order ${after.now.woNumber} cancelled${after.released ? `; ${count(after.released, 'reserved unit')} released` : ''}`,
      data: after.now,
    };
  }

  /** The audit row, hub event and domain events of a work order's change, in its transaction. */
  private record(uow: UnitOfWork, actor: Actor, after: WorkOrderSummary, action: string, subEvent: SubEvent, before?: unknown, extra?: Record<string, unknown>,
    raises: RaisedEvent[] = []) {
    return this.recorder.record(uow, actor, {
      audit: { action, entity: 'kit_work_order', entityId: after.workOrderId, warehouseId: after.warehouseId, customerId: after.customerId, before, after: extra ? { ...after, ...extra } : after },
      events: { target: 'ReceiveKitData', payload: { subEvent, payload: after }, warehouseId: after.warehouseId, customerId: after.customerId },
      raises,
    });
  }
}

