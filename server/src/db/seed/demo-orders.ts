import { sql } from 'kysely';
import { closeCartonInput, confirmPickInput, confirmShipmentInput, createOrderInput, createWaveInput, orderBatchInput, packItemInput, pickJobListRequest, type OrderStatus } from '@bolx/contracts';
import type { Database } from '../database.js';
import type { Services } from '../../services.js';
import { knownCaller, type Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { Actor } from '../../platform/actor.js';
import { addDays, businessDay } from '../../platform/business-day.js';
import { DEMO_PACK_STATION, DEMO_TOTES } from './demo-floor.js';

/** The statuses the demo's orders end in: each client in each of its warehouses has one order in every one of them. */
export const DEMO_ORDER_STATUSES = ['New', 'Allocated', 'Backordered', 'Picked', 'Packed', 'Shipped', 'Cancelled'] as const satisfies readonly OrderStatus[];
/** Days ago the shipped orders of a client-warehouse pair were taken in (shifted per pair, so days differ). */
const SHIPPED_DAYS_AGO = [27, 20, 13, 8, 4, 1, 0];

/**
 * Where the rows the floor's steps write keep their time. The services stamp "now" (there is no clock to hand them),
 * so a demo day's work is done and then moved back: its instants by whole days, its business days by as many days.
 * demo-data.test.ts checks that no order's row is left at today's time.
 */
const INSTANTS: Record<string, string[]> = {
  sales_order: ['created_at', 'updated_at', 'shipped_at'],
  document_status_history: ['at'],
  inventory_txn: ['at'],
  stock_reservation: ['created_at', 'updated_at'],
  floor_event: ['at'],
  audit_log: ['at'],
  wave: ['created_at', 'updated_at'],
  pick_job: ['created_at', 'updated_at', 'started_at', 'finished_at'],
  carton: ['created_at', 'closed_at'],
};
/** Business days, each with the instant that tells it was written in this demo day. */
const DAYS: [table: string, day: string, instant: string][] = [
  ['inventory_txn', 'business_day', 'at'],
  ['floor_event', 'business_day', 'at'],
  ['sales_order', 'ship_date', 'shipped_at'],
];

interface Pair { warehouseId: number; zone: string; customerId: number; code: string; index: number }
interface Plan { pair: Pair; status: (typeof DEMO_ORDER_STATUSES)[number]; daysAgo: number; n: number }

/**
 * Demo sales orders for every client in each warehouse that serves it, over the last four weeks, taken through the
 * real services as the floor would: intake, allocation, a wave, picks by scan into a tote, packing at the pack
 * station, ship confirm — so the ledger, the audit, the status history and the floor's activity log are the ones
 * those steps write. Each pair ends with orders in every status of DEMO_ORDER_STATUSES. Runs once, right after the
 * demo data (the caller seeds an empty database only).
 */
export async function seedDemoOrders(database: Database, services: Services): Promise<number> {
  const { db } = database;
  const admin = await db.selectFrom('app_user').select(['id', 'username']).where('username', '=', 'admin').executeTakeFirstOrThrow();
  const principal: Principal = { userId: admin.id, username: admin.username, role: 'SuperAdministrator', sessionId: 'demo-seed', customerId: null, scope: Scope.everything, modules: 'all' };
  const actor: Actor = { userId: admin.id, username: admin.username, ip: null, requestId: null };

  const pairs = (await db.selectFrom('customer_warehouse as cw').innerJoin('customer as c', 'c.id', 'cw.customer_id').innerJoin('warehouse as w', 'w.id', 'cw.warehouse_id')
    .select(['cw.warehouse_id', 'cw.customer_id', 'c.code', 'w.timezone']).orderBy('cw.warehouse_id').orderBy('c.code').execute())
    .map((r, index): Pair => ({ warehouseId: r.warehouse_id, customerId: r.customer_id, code: r.code, zone: r.timezone, index }));

  // Oldest first, so each day's work happens on the stock the days before it left.
  const plans: Plan[] = [];
  let n = 0;
  for (const pair of pairs) {
    for (const d of SHIPPED_DAYS_AGO.filter((_, i) => (i + pair.index) % 3 !== 0 || i >= SHIPPED_DAYS_AGO.length - 2)) {
      plans.push({ pair, status: 'Shipped', daysAgo: Math.max(0, d - (pair.index % 3)), n: ++n });
    }
    for (const [status, daysAgo] of [['Packed', 0], ['Picked', 0], ['Allocated', 1], ['New', 0], ['Cancelled', 2], ['Backordered', 3]] as const) {
      plans.push({ pair, status, daysAgo, n: ++n });
    }
  }
  const days = [...new Set(plans.map((p) => p.daysAgo))].sort((a, b) => b - a);
  const toteNext = new Map<number, number>();
  const stations = new Map<number, number>();
  const cartonTypes = new Map<number, number>();
  for (const { id } of await db.selectFrom('warehouse').select('id').execute()) {
    stations.set(id, (await db.selectFrom('location').select('id').where('warehouse_id', '=', id).where('code', '=', DEMO_PACK_STATION).executeTakeFirstOrThrow()).id);
    cartonTypes.set(id, (await db.selectFrom('carton_type').select('id').where('warehouse_id', '=', id).where('code', '=', 'MEDIUM').executeTakeFirstOrThrow()).id);
  }
  // A tote per order still in one (picked, not yet packed); packed and shipped orders' totes are empty again.
  const tote = (warehouseId: number, keep: boolean) => {
    const i = toteNext.get(warehouseId) ?? 0;
    if (keep) toteNext.set(warehouseId, i + 1);
    return `TOTE-${String((i % DEMO_TOTES) + 1).padStart(3, '0')}`;
  };

  let taken = 0;
  let random = 7;
  const next = (below: number) => ((random = (random * 1103515245 + 12345) % 2 ** 31) % below);

  for (const daysAgo of days) {
    const since = new Date().toISOString();
    const today = plans.filter((p) => p.daysAgo === daysAgo);
    // Orders whose lines must find stock go first; the backorders take what is left of a SKU and wait for more.
    for (const plan of today.filter((p) => p.status !== 'Backordered').concat(today.filter((p) => p.status === 'Backordered'))) {
      const { pair } = plan;
      const orderDay = addDays(businessDay(pair.zone), -daysAgo);
      const free = await freeStock(database, pair);
      if (!free.length) continue;
      const lines = plan.status === 'Backordered'
        ? [{ skuId: free[0].sku_id, quantity: Number(free[0].free) + 12 }]
        : pickLines(free, 1 + next(3), next);
      const { data: order } = await services.orders.intake(principal, createOrderInput.parse({
        warehouseId: pair.warehouseId, customerId: pair.customerId, orderType: 'Sales', referenceNumber: `DEMO-${pair.code}-${String(plan.n).padStart(4, '0')}`,
        orderDate: orderDay, requestedShipDate: addDays(orderDay, 2), priority: 1 + next(9),
        shipToName: SHIP_TO[plan.n % SHIP_TO.length].name, shipToAddress1: SHIP_TO[plan.n % SHIP_TO.length].address1, shipToCity: SHIP_TO[plan.n % SHIP_TO.length].city,
        shipToState: SHIP_TO[plan.n % SHIP_TO.length].state, shipToZip: SHIP_TO[plan.n % SHIP_TO.length].zip, shipToCountry: 'United States',
        lines,
      }), actor, plan.n % 4 === 0 ? 'screen' : 'api');
      taken++;
      if (plan.status === 'New') continue;
      const orderIds = [order.orderId];
      await services.allocation.allocate(principal, orderBatchInput.parse({ orderIds }), actor);
      if (plan.status === 'Allocated' || plan.status === 'Backordered') continue;
      if (plan.status === 'Cancelled') {
        await services.allocation.cancel(principal, { orderId: order.orderId, reason: 'Customer cancelled (demo)' }, actor);
        continue;
      }
      const { data: wave } = await services.waves.create(principal, createWaveInput.parse({ warehouseId: pair.warehouseId, orderIds, strategy: 'discrete' }), actor);
      const jobs = await services.pickJobs.list(principal, pickJobListRequest.parse({ filters: { waveId: wave.wave.waveId }, pageNumber: 1, pageSize: 10 }));
      const { jobId } = jobs.items[0];
      await services.pickJobs.assignTotes(principal, { jobId, totes: [{ slot: 1, toteCode: tote(pair.warehouseId, plan.status === 'Picked') }] }, actor);
      const job = await services.pickJobs.get(principal, jobId);
      for (const stop of job.stops) {
        await services.picking.confirmPick(knownCaller(principal), confirmPickInput.parse({
          jobId, stopSeq: stop.seq, locationCode: stop.locationCode, itemCode: stop.skuCode, lot: stop.tracksLot ? stop.lot : undefined, quantity: stop.quantity,
        }), actor);
      }
      if (plan.status === 'Picked') continue;
      let cartonId: number | undefined;
      for (const stop of job.stops) {
        const packed = await services.packing.packItem(principal, packItemInput.parse({
          ...(cartonId ? { cartonId } : { orderId: order.orderId, cartonTypeId: cartonTypes.get(pair.warehouseId) }),
          code: stop.skuCode, lot: stop.tracksLot ? stop.lot : undefined, quantity: stop.quantity,
        }), actor);
        cartonId = packed.carton.cartonId;
      }
      await services.packing.closeCarton(principal, closeCartonInput.parse({ cartonId, weightKg: 1 + next(12), locationId: stations.get(pair.warehouseId) }), actor);
      if (plan.status === 'Packed') continue;
      await services.shipConfirm.confirm(principal, confirmShipmentInput.parse({ warehouseId: pair.warehouseId, orderIds }), actor);
    }
    if (daysAgo > 0) await redate(database, since, daysAgo);
  }
  return taken;
}

/** A client's free pickable stock in a warehouse by SKU, the most first (where it is taken from is allocation's choice). */
async function freeStock(database: Database, pair: Pair) {
  return database.db.selectFrom('inventory_balance as b').innerJoin('location as l', 'l.id', 'b.location_id')
    .select(['b.sku_id', sql<number>`sum(b.on_hand - b.allocated)`.as('free')])
    .where('b.warehouse_id', '=', pair.warehouseId).where('b.customer_id', '=', pair.customerId)
    .where('l.is_pickable', '=', 1).where('l.type', 'in', ['rack', 'shelf'])
    // The replenishment demo's SKUs keep their pick faces as they are (below their min, for its tasks).
    .where('b.sku_id', 'not in', (q) => q.selectFrom('replenishment_rule').select('sku_id'))
    .groupBy('b.sku_id').having(sql<number>`sum(b.on_hand - b.allocated)`, '>=', 8)
    .orderBy(sql`sum(b.on_hand - b.allocated)`, 'desc').orderBy('b.sku_id').execute();
}

function pickLines(free: { sku_id: number; free: number }[], count: number, next: (below: number) => number) {
  const chosen = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const row = free[next(Math.min(free.length, 12))];
    chosen.set(row.sku_id, 1 + next(4));
  }
  return [...chosen].map(([skuId, quantity]) => ({ skuId, quantity }));
}

/** Moves what was written since `since` back by `days`: business days first (found by their instants), then instants. */
async function redate(database: Database, since: string, days: number) {
  const { db, dialect } = database;
  const seconds = days * 86_400;
  for (const [table, day, instant] of DAYS) {
    await db.updateTable(table as never).set({ [day]: dialect.addDays(sql.ref(day), -days) } as never).where(sql.ref(instant), '>=', since).execute();
  }
  const back = (column: string) => (dialect.engine === 'postgres'
    ? sql`${sql.ref(column)} - make_interval(secs => ${seconds})`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.ref(column)}, ${`-${seconds} seconds`})`);
  for (const [table, columns] of Object.entries(INSTANTS)) {
    for (const column of columns) {
      await db.updateTable(table as never).set({ [column]: back(column) } as never).where(sql.ref(column), '>=', since).execute();
    }
  }
}

const SHIP_TO = [
  { name: 'Jordan Ellis', address1: '18 Maple St', city: 'Portland', state: 'OR', zip: '97205' },
  { name: 'Priya Raman', address1: '402 Lakeview Dr', city: 'Austin', state: 'TX', zip: '78704' },
  { name: 'Marcus Chen', address1: '77 Harbor Blvd', city: 'Boston', state: 'MA', zip: '02110' },
  { name: 'Sofia Alvarez', address1: '2301 Sunset Ave', city: 'Phoenix', state: 'AZ', zip: '85004' },
  { name: 'Ethan Brooks', address1: '9 Elm Ct', city: 'Columbus', state: 'OH', zip: '43215' },
  { name: 'Hannah Kim', address1: '560 Pine Rd', city: 'Denver', state: 'CO', zip: '80202' },
];
