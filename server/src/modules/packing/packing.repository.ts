import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

const CARTON_TYPE_LIST: ListSpec = {
  sortable: { code: 't.code', name: 't.name', lengthCm: 't.length_cm', widthCm: 't.width_cm', heightCm: 't.height_cm', tareWeightKg: 't.tare_weight_kg' },
  defaultSort: { column: 't.code', direction: 'asc' },
  searchable: ['t.code', 't.name'],
  tieBreaker: 't.id',
};

const cartonTypeColumns = ['t.id', 't.warehouse_id', 't.code', 't.name', 't.length_cm', 't.width_cm', 't.height_cm', 't.tare_weight_kg', 't.max_weight_kg', 't.is_active'] as const;

export interface CartonTypeRow {
  id: number; warehouse_id: number; code: string; name: string; length_cm: number; width_cm: number; height_cm: number;
  tare_weight_kg: number; max_weight_kg: number | null; is_active: number;
}

/** Statements of the pack station: carton types, the order as the packer sees it, cartons and their lines. */
export const packingRepository = {
  listCartonTypes(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<{ warehouseId?: number; active?: boolean }>) {
    const f = req.filters ?? {};
    let base = db.selectFrom('carton_type as t').where(scope.where({ warehouse: 't.warehouse_id' }, { warehouseId: f.warehouseId }));
    if (f.active !== undefined) base = base.where('t.is_active', '=', f.active ? 1 : 0);
    return listRows(dialect, base, (qb) => qb.select([...cartonTypeColumns]), req, CARTON_TYPE_LIST);
  },

  cartonType(db: Executor, id: number) {
    return db.selectFrom('carton_type as t').select([...cartonTypeColumns]).where('t.id', '=', id).executeTakeFirst();
  },

  /** Another carton type of the warehouse with this code. */
  cartonTypeCodeTaken(db: Executor, warehouseId: number, code: string, exceptId?: number) {
    let q = db.selectFrom('carton_type').select('id').where('warehouse_id', '=', warehouseId).where('code', '=', code);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return q.executeTakeFirst().then((r) => r !== undefined);
  },

  insertCartonType(tx: Executor, row: Omit<CartonTypeRow, 'id'>, at: string) {
    return tx.insertInto('carton_type').values({ ...row, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },

  updateCartonType(tx: Executor, id: number, row: Omit<CartonTypeRow, 'id' | 'warehouse_id'>, at: string) {
    return tx.updateTable('carton_type').set({ ...row, updated_at: at }).where('id', '=', id).execute();
  },

  /** Orders of a warehouse a scanned code names, in the caller's scope: by SO number, by a tote holding their picked stock, or by reference. */
  ordersByCode(db: Executor, scope: Scope, warehouseId: number, code: string) {
    const upper = code.toUpperCase();
    return db.selectFrom('sales_order as o')
      .select(['o.id', 'o.so_number', 'o.status', 'o.customer_id',
        sql<number>`case when upper(o.so_number) = ${upper} then 0 when o.reference_number = ${code} then 2 else 1 end`.as('rank')])
      .where('o.warehouse_id', '=', warehouseId)
      .where(scope.where({ customer: 'o.customer_id' }))
      .where((eb) => eb.or([
        eb(sql`upper(o.so_number)`, '=', upper),
        eb('o.reference_number', '=', code),
        eb.exists(eb.selectFrom('stock_reservation as r')
          .innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
          .innerJoin('location as l', 'l.id', 'b.location_id')
          .select(sql`1`.as('one'))
          .where('r.document_type', '=', 'SO').whereRef('r.document_id', '=', 'o.so_number').where('r.quantity', '>', 0)
          .where('l.type', '=', 'tote').where('l.code', '=', upper).where('l.warehouse_id', '=', warehouseId)),
      ]))
      .orderBy('rank').orderBy('o.id').limit(5).execute();
  },

  /** An order's header as the pack station shows it (undefined: none in the caller's scope). */
  orderHeader(db: Executor, scope: Scope, orderId: number) {
    return db.selectFrom('sales_order as o').innerJoin('customer as c', 'c.id', 'o.customer_id')
      .select(['o.id', 'o.so_number', 'o.reference_number', 'o.warehouse_id', 'o.customer_id', 'c.name as customer_name', 'o.status', 'o.ship_to_name',
        'o.carrier_service', sql<string | null>`(select account_name from customer_integration ci where ci.id = o.carrier_account_id)`.as('carrier_name')])
      .where('o.id', '=', orderId).where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' })).executeTakeFirst();
  },

  orderLines(db: Executor, orderId: number) {
    return db.selectFrom('sales_order_line as l').innerJoin('sku as s', 's.id', 'l.sku_id')
      .select(['l.id', 'l.line_no', 'l.sku_id', 's.sku_code', 's.description', 's.is_lot_tracked', 'l.lot', 'l.quantity', 'l.picked_qty', 'l.packed_qty'])
      .where('l.order_id', '=', orderId).orderBy('l.line_no').execute();
  },

  cartonsOf(db: Executor, orderId: number) {
    return db.selectFrom('carton as c').innerJoin('carton_type as t', 't.id', 'c.carton_type_id')
      .select(['c.id', 'c.carton_number', 'c.order_id', 'c.carton_type_id', 't.code as carton_type_code', 'c.status', 'c.length_cm', 'c.width_cm', 'c.height_cm',
        'c.weight_kg', 'c.tracking_number', 'c.closed_at', 'c.location_id'])
      .where('c.order_id', '=', orderId).orderBy('c.id').execute();
  },

  cartonLinesOf(db: Executor, orderId: number) {
    return db.selectFrom('carton_line as cl').innerJoin('carton as c', 'c.id', 'cl.carton_id').innerJoin('sku as s', 's.id', 'cl.sku_id')
      .select(['cl.id', 'cl.carton_id', 'cl.order_line_id', 'cl.sku_id', 's.sku_code', 'cl.lot', 'cl.quantity', 'c.status'])
      .where('c.order_id', '=', orderId).orderBy('cl.carton_id').orderBy('cl.id').execute();
  },

  /**
   * Where an order's picked units wait: its lines' open reservations at totes of the warehouse, with each place,
   * in the caller's transaction (the order row is held first).
   */
  toteReservations(db: Executor, soNumber: string) {
    return db.selectFrom('stock_reservation as r')
      .innerJoin('inventory_balance as b', 'b.id', 'r.balance_id')
      .innerJoin('location as l', 'l.id', 'b.location_id')
      .select(['r.document_line', 'r.quantity', 'b.warehouse_id', 'b.customer_id', 'b.sku_id', 'b.location_id', 'l.code as location_code', 'b.lot', 'b.pallet'])
      .where('r.document_type', '=', 'SO').where('r.document_id', '=', soNumber).where('r.quantity', '>', 0).where('l.type', '=', 'tote')
      .orderBy('l.code').orderBy('b.id').execute();
  },

  /** A carton with what its order is and its type's code (undefined: none in the caller's scope). */
  carton(db: Executor, scope: Scope, cartonId: number) {
    return db.selectFrom('carton as c').innerJoin('sales_order as o', 'o.id', 'c.order_id').innerJoin('carton_type as t', 't.id', 'c.carton_type_id')
      .select(['c.id', 'c.carton_number', 'c.order_id', 'c.status', 'c.carton_type_id', 'c.warehouse_id', 'c.customer_id', 'o.so_number',
        't.code as carton_type_code', 'c.length_cm', 'c.width_cm', 'c.height_cm'])
      .where('c.id', '=', cartonId).where(scope.where({ warehouse: 'c.warehouse_id', customer: 'c.customer_id' })).executeTakeFirst();
  },

  cartonStatus(db: Executor, cartonId: number) {
    return db.selectFrom('carton').select('status').where('id', '=', cartonId).executeTakeFirstOrThrow().then((r) => r.status);
  },

  insertCarton(tx: Executor, row: {
    carton_number: string; order_id: number; warehouse_id: number; customer_id: number; carton_type_id: number;
    length_cm: number; width_cm: number; height_cm: number; packed_by: number | null; created_at: string;
  }) {
    return tx.insertInto('carton').values(row).returning('id').executeTakeFirstOrThrow().then((r) => r.id);
  },

  /**
   * Adds units of an order line's lot to a carton while it is open: one upsert on the carton line's key, written
   * only if the carton is still Open as the statement runs. Answers the line (undefined: the carton was closed).
   */
  async addToCarton(tx: Executor, row: { carton_id: number; order_line_id: number; sku_id: number; lot: string; quantity: number }) {
    const r = await sql<{ id: number; quantity: number }>`insert into carton_line (carton_id, order_line_id, sku_id, lot, quantity)
      select cast(${row.carton_id} as integer), cast(${row.order_line_id} as integer), cast(${row.sku_id} as integer), cast(${row.lot} as varchar(64)), cast(${row.quantity} as integer)
      where exists (select 1 from carton where id = ${row.carton_id} and status = 'Open')
      on conflict (carton_id, order_line_id, lot) do update set quantity = carton_line.quantity + excluded.quantity
      returning id, quantity`.execute(tx);
    return r.rows[0];
  },

  /**
   * What one scan at the pack station needs of its order, for the SKUs the scan may be, in one statement: the
   * order's lines of those SKUs (picked and packed), where their picked units wait (tote reservations, by lot, the
   * first totes first) and what open cartons already hold of them. Nothing of the order's other lines is read: the
   * reservations are found by their lines (PostgreSQL otherwise read all the order's reservations at every scan:
   * 3 ms a scan on an order of 750 lines).
   */
  async packScan(db: Executor, orderId: number, soNumber: string, skuIds: number[]) {
    if (skuIds.length === 0) return { lines: [], totes: [], inOpenCartons: [] };
    const skus = sql.join(skuIds);
    const r = await sql<{ kind: string; line_id: number; sku_id: number; sort: number; picked: number; packed: number; lot: string; quantity: number; location_id: number | null; code: string; bid: number }>`
      select 'line' as kind, l.id as line_id, l.sku_id, l.line_no as sort, l.picked_qty as picked, l.packed_qty as packed, l.lot, 0 as quantity,
        null as location_id, '' as code, 0 as bid
      from sales_order_line l where l.order_id = ${orderId} and l.sku_id in (${skus})
      union all
      select 'tote', l.id, b.sku_id, 0, 0, 0, b.lot, r.quantity, b.location_id, lo.code, b.id
      from sales_order_line l
      join stock_reservation r on r.document_type = 'SO' and r.document_id = ${soNumber} and r.document_line = cast(l.id as varchar(64))
      join inventory_balance b on b.id = r.balance_id join location lo on lo.id = b.location_id
      where l.order_id = ${orderId} and l.sku_id in (${skus}) and r.quantity > 0 and lo.type = 'tote' and b.sku_id in (${skus})
      union all
      select 'carton', cl.order_line_id, cl.sku_id, 0, 0, 0, cl.lot, cl.quantity, null, '', cl.id
      from carton_line cl join carton c on c.id = cl.carton_id
      where c.order_id = ${orderId} and c.status = 'Open' and cl.sku_id in (${skus})
      order by 1, 4, 10, 11`.execute(db);
    const num = (v: unknown) => Number(v ?? 0);
    const of = (kind: string) => r.rows.filter((x) => x.kind === kind);
    return {
      lines: of('line').map((x) => ({ id: num(x.line_id), sku_id: num(x.sku_id), lot: x.lot, picked_qty: num(x.picked), packed_qty: num(x.packed) })),
      totes: of('tote').map((x) => ({ line_id: num(x.line_id), lot: x.lot, quantity: num(x.quantity), location_id: num(x.location_id) })),
      inOpenCartons: of('carton').map((x) => ({ line_id: num(x.line_id), lot: x.lot, quantity: num(x.quantity) })),
    };
  },

  /** Takes units off a carton line only if it holds that many; an emptied line goes. Answers whether it held them. */
  async takeFromCarton(tx: Executor, cartonId: number, orderLineId: number, lot: string, quantity: number) {
    const taken = await tx.updateTable('carton_line').set({ quantity: sql`quantity - ${quantity}` })
      .where('carton_id', '=', cartonId).where('order_line_id', '=', orderLineId).where('lot', '=', lot).where('quantity', '>', quantity)
      .returning('id').execute();
    if (taken.length) return true;
    const removed = await tx.deleteFrom('carton_line')
      .where('carton_id', '=', cartonId).where('order_line_id', '=', orderLineId).where('lot', '=', lot).where('quantity', '=', quantity)
      .returning('id').execute();
    return removed.length > 0;
  },

  /** Counts units packed on an order line, only while no more are packed than were picked. Answers the line (undefined: it did not). */
  async addPacked(tx: Executor, lineId: number, quantity: number) {
    return tx.updateTable('sales_order_line').set({ packed_qty: sql`packed_qty + ${quantity}` })
      .where('id', '=', lineId).where(sql<boolean>`picked_qty - packed_qty >= ${quantity}`).returning(['id', 'picked_qty', 'packed_qty']).executeTakeFirst();
  },

  async takePacked(tx: Executor, lineId: number, quantity: number) {
    const rows = await tx.updateTable('sales_order_line').set({ packed_qty: sql`packed_qty - ${quantity}` })
      .where('id', '=', lineId).where('packed_qty', '>=', quantity).returning('id').execute();
    return rows.length > 0;
  },

  cartonLines(db: Executor, cartonId: number) {
    return db.selectFrom('carton_line').select(['id', 'order_line_id', 'sku_id', 'lot', 'quantity']).where('carton_id', '=', cartonId).orderBy('id').execute();
  },

  /** Closes an open carton; answers whether it was open. */
  async closeCarton(tx: Executor, cartonId: number, set: { weight_kg: number; location_id: number; closed_at: string }) {
    const rows = await tx.updateTable('carton').set({ ...set, status: 'Closed' }).where('id', '=', cartonId).where('status', '=', 'Open').returning('id').execute();
    return rows.length > 0;
  },

  /** A location of the warehouse, active, as a pack station (staging or dock). */
  stationLocation(db: Executor, warehouseId: number, locationId: number) {
    return db.selectFrom('location').select(['id', 'code', 'type', 'is_active']).where('id', '=', locationId).where('warehouse_id', '=', warehouseId).executeTakeFirst();
  },

  /** The warehouse's default pack station: its first active staging location, else its first active dock. */
  defaultStation(db: Executor, warehouseId: number) {
    return db.selectFrom('location').select(['id', 'code'])
      .where('warehouse_id', '=', warehouseId).where('is_active', '=', 1).where('type', 'in', ['staging', 'dock'])
      .orderBy(sql`case when type = 'staging' then 0 else 1 end`).orderBy('code').orderBy('id').limit(1).executeTakeFirst();
  },

  /** Whether every picked unit of the order is in a closed carton (something was picked, all of it packed, no open carton holds any). */
  async allPackedAndClosed(db: Executor, orderId: number) {
    const row = await db.selectFrom('sales_order_line as l')
      .select([
        sql<number>`coalesce(sum(l.picked_qty), 0)`.as('picked'),
        sql<number>`coalesce(sum(l.packed_qty), 0)`.as('packed'),
        sql<number>`(select count(*) from carton_line cl join carton c on c.id = cl.carton_id where c.order_id = ${orderId} and c.status = 'Open')`.as('open_lines'),
      ])
      .where('l.order_id', '=', orderId).executeTakeFirstOrThrow();
    return Number(row.picked) > 0 && Number(row.picked) === Number(row.packed) && Number(row.open_lines) === 0;
  },
};
