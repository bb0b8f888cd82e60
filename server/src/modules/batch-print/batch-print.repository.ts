import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/**
 * What /BatchPrint reads: pick jobs with their totes and tasks, and orders with their lines, picked lots and
 * closed cartons. Read only, a fixed number of statements however many jobs or orders are printed.
 */
export const batchPrintRepository = {
  /** Where each job belongs (unscoped: the service answers 404 for an unknown id and 403 for another's). */
  jobOwners(db: Executor, jobIds: number[]) {
    return db.selectFrom('pick_job').select(['id', 'warehouse_id']).where('id', 'in', jobIds).execute();
  },

  /** Where each order of the jobs belongs, by job and slot. */
  jobOrders(db: Executor, jobIds: number[]) {
    return db.selectFrom('pick_job_order as po').innerJoin('sales_order as o', 'o.id', 'po.order_id')
      .select(['po.job_id', 'po.order_id', 'po.slot', 'o.warehouse_id', 'o.customer_id'])
      .where('po.job_id', 'in', jobIds).orderBy('po.job_id').orderBy('po.slot').execute();
  },

  wave(db: Executor, waveId: number) {
    return db.selectFrom('wave').select(['id', 'warehouse_id', 'wave_number']).where('id', '=', waveId).executeTakeFirst();
  },

  /** The orders a wave released, by SO number. */
  waveOrders(db: Executor, waveId: number) {
    return db.selectFrom('sales_order').select(['id as order_id', 'warehouse_id', 'customer_id']).where('wave_id', '=', waveId).orderBy('so_number').execute();
  },

  orderOwners(db: Executor, orderIds: number[]) {
    return db.selectFrom('sales_order').select(['id', 'warehouse_id', 'customer_id']).where('id', 'in', orderIds).execute();
  },

  jobs(db: Executor, jobIds: number[]) {
    return db.selectFrom('pick_job as j')
      .innerJoin('wave as w', 'w.id', 'j.wave_id')
      .innerJoin('warehouse as wh', 'wh.id', 'j.warehouse_id')
      .leftJoin('app_user as u', 'u.id', 'j.assigned_to')
      .select(['j.id', 'j.job_number', 'j.strategy', 'j.zone', 'j.status', 'j.created_at', 'w.wave_number', 'wh.name as warehouse_name',
        'wh.timezone', 'u.username', 'u.first_name', 'u.last_name'])
      .where('j.id', 'in', jobIds).execute();
  },

  totes(db: Executor, jobIds: number[]) {
    return db.selectFrom('pick_job_order as po')
      .innerJoin('sales_order as o', 'o.id', 'po.order_id')
      .innerJoin('customer as c', 'c.id', 'o.customer_id')
      .leftJoin('location as t', 't.id', 'po.tote_location_id')
      .select(['po.job_id', 'po.order_id', 'po.slot', 'o.so_number', 'c.name as customer_name', 't.code as tote_code'])
      .where('po.job_id', 'in', jobIds).orderBy('po.job_id').orderBy('po.slot').execute();
  },

  /**
   * Every task of the jobs in pick-path order (seq, then slot), with its place, SKU, order and tote, and the expiry
   * date of the stock it takes (the balance it was allocated from).
   */
  tasks(db: Executor, jobIds: number[]) {
    return db.selectFrom('pick_task as t')
      .innerJoin('location as l', 'l.id', 't.location_id')
      .innerJoin('sku as s', 's.id', 't.sku_id')
      .innerJoin('sales_order as o', 'o.id', 't.order_id')
      .innerJoin('pick_job_order as po', (j) => j.onRef('po.job_id', '=', 't.job_id').onRef('po.order_id', '=', 't.order_id'))
      .leftJoin('location as tote', 'tote.id', 'po.tote_location_id')
      .select(['t.id', 't.job_id', 't.seq', 't.lot', 't.quantity', 'l.code as location_code', 's.sku_code', 's.description', 'o.so_number', 'po.slot',
        'tote.code as tote_code',
        sql<string | null>`(select max(b.expiry_date) from inventory_balance b where b.warehouse_id = t.warehouse_id and b.customer_id = t.customer_id
          and b.sku_id = t.sku_id and b.location_id = t.location_id and b.lot = t.lot and b.pallet = t.pallet)`.as('expiry_date')])
      .where('t.job_id', 'in', jobIds).orderBy('t.job_id').orderBy('t.seq').orderBy('po.slot').orderBy('t.id').execute();
  },

  orders(db: Executor, orderIds: number[]) {
    return db.selectFrom('sales_order as o')
      .innerJoin('warehouse as w', 'w.id', 'o.warehouse_id')
      .innerJoin('customer as c', 'c.id', 'o.customer_id')
      .leftJoin('customer_integration as ci', 'ci.id', 'o.carrier_account_id')
      .leftJoin('integration_type as it', 'it.id', 'ci.integration_type_id')
      .select(['o.id', 'o.so_number', 'o.reference_number', 'o.order_date', 'o.requested_ship_date', 'o.ship_date', 'o.status', 'o.carrier_service',
        'o.ship_to_name', 'o.ship_to_address1', 'o.ship_to_address2', 'o.ship_to_city', 'o.ship_to_state', 'o.ship_to_zip', 'o.ship_to_country', 'o.ship_to_phone',
        'o.customer_id', 'c.name as customer_name', 'ci.account_name as carrier_account', 'it.name as carrier_name',
        'w.name as warehouse_name', 'w.address1 as wh_address1', 'w.address2 as wh_address2', 'w.city as wh_city', 'w.state as wh_state', 'w.zip as wh_zip',
        'w.country as wh_country'])
      .where('o.id', 'in', orderIds).execute();
  },

  lines(db: Executor, orderIds: number[]) {
    return db.selectFrom('sales_order_line as l').innerJoin('sku as s', 's.id', 'l.sku_id')
      .select(['l.id', 'l.order_id', 'l.line_no', 'l.lot', 'l.quantity', 'l.picked_qty', 'l.packed_qty', 'l.shipped_qty', 's.sku_code', 's.description'])
      .where('l.order_id', 'in', orderIds).orderBy('l.order_id').orderBy('l.line_no').execute();
  },

  /** The lots each line's units were picked from (a line ordered in any lot names its lots this way). */
  pickedLots(db: Executor, orderIds: number[]) {
    return db.selectFrom('pick_task').select(['order_line_id', 'lot']).where('order_id', 'in', orderIds).where('picked_qty', '>', 0).where('lot', '<>', '')
      .groupBy(['order_line_id', 'lot']).orderBy('order_line_id').orderBy('lot').execute();
  },

  closedCartons(db: Executor, orderIds: number[]) {
    return db.selectFrom('carton as c').innerJoin('carton_type as ct', 'ct.id', 'c.carton_type_id')
      .select(['c.id', 'c.order_id', 'c.carton_number', 'ct.code as type_code', 'c.length_cm', 'c.width_cm', 'c.height_cm', 'c.weight_kg', 'c.tracking_number'])
      .where('c.order_id', 'in', orderIds).where('c.status', '=', 'Closed').orderBy('c.order_id').orderBy('c.id').execute();
  },

  cartonLines(db: Executor, cartonIds: number[]) {
    if (cartonIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('carton_line as cl').innerJoin('sku as s', 's.id', 'cl.sku_id')
      .select(['cl.carton_id', 'cl.lot', 'cl.quantity', 's.sku_code'])
      .where('cl.carton_id', 'in', cartonIds).orderBy('cl.carton_id').orderBy('cl.id').execute();
  },

  /**
   * The customer's logo for its packing slips. Customers have no logo yet (no column, no upload): this answers
   * none, and is the one place to read it from (a stored_file id on the customer) once they do.
   */
  async customerLogos(_db: Executor, _customerIds: number[]): Promise<Map<number, Buffer>> {
    return new Map();
  },
};
