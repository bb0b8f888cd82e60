import { sql, type Insertable, type Updateable } from 'kysely';
import type { FreightShipmentFilters } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { FreightHandlingUnitTable, FreightShipmentTable } from '../../db/tables/freight.js';
import { listRows, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Scope } from '../../platform/scope.js';

const SHIPMENT_LIST: ListSpec = {
  sortable: {
    shipNumber: 'f.ship_number', status: 'f.status', customerName: 'c.name', warehouseName: 'w.name', carrierName: 'f.carrier_name',
    scac: 'f.scac', proNumber: 'f.pro_number', pickupDate: 'f.pickup_date', createdAt: 'f.created_at', consigneeName: 'f.consignee_name',
  },
  defaultSort: { column: 'f.id', direction: 'desc' },
  searchable: ['f.ship_number', 'f.bol_number', 'f.pro_number', 'f.consignee_name', 'f.carrier_name', 'f.scac'],
  tieBreaker: 'f.id',
};

function shipmentsQuery(db: Executor, scope: Scope, f: FreightShipmentFilters = {}) {
  let q = db.selectFrom('freight_shipment as f')
    .innerJoin('warehouse as w', 'w.id', 'f.warehouse_id')
    .innerJoin('customer as c', 'c.id', 'f.customer_id')
    .where(scope.where({ warehouse: 'f.warehouse_id', customer: 'f.customer_id' }, { warehouseId: f.warehouseId, customerId: f.customerId }));
  if (f.status) q = q.where('f.status', '=', f.status);
  if (f.scac) q = q.where('f.scac', '=', f.scac.toUpperCase());
  return q;
}

function shipmentColumns(q: ReturnType<typeof shipmentsQuery>) {
  return q.selectAll('f').select([
    'w.name as warehouse_name', 'c.name as customer_name',
    sql<string | null>`(select username from app_user u where u.id = f.created_by)`.as('created_by_name'),
    sql<string | null>`(select file_name from stored_file sf where sf.id = f.pod_file_id)`.as('pod_file_name'),
    sql<string | null>`(select mime_type from stored_file sf where sf.id = f.pod_file_id)`.as('pod_mime_type'),
  ]);
}

export type ShipmentRow = Awaited<ReturnType<ReturnType<typeof shipmentColumns>['executeTakeFirstOrThrow']>>;

/** Every query of the freight area. Statuses change only through the status machine. */
export const freightRepository = {
  page(db: Executor, dialect: Dialect, scope: Scope, req: ListRequest<FreightShipmentFilters>) {
    return listRows(dialect, shipmentsQuery(db, scope, req.filters), shipmentColumns, req, SHIPMENT_LIST);
  },

  /** One shipment in the caller's scope (another customer's is simply absent). */
  find(db: Executor, scope: Scope, id: number) {
    return shipmentColumns(shipmentsQuery(db, scope)).where('f.id', '=', id).executeTakeFirst();
  },

  /** The orders of the shipments, with their closed cartons' count and weight: one statement for any page. */
  ordersOf(db: Executor, shipmentIds: number[]) {
    if (shipmentIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('freight_shipment_order as fo').innerJoin('sales_order as o', 'o.id', 'fo.order_id')
      .select(['fo.shipment_id', 'o.id', 'o.so_number', 'o.reference_number', 'o.status',
        sql<number>`(select count(*) from carton c where c.order_id = o.id and c.status = 'Closed')`.as('cartons'),
        sql<number>`(select coalesce(sum(c.weight_kg), 0) from carton c where c.order_id = o.id and c.status = 'Closed')`.as('weight_kg')])
      .where('fo.shipment_id', 'in', shipmentIds).orderBy('fo.id').execute();
  },

  unitsOf(db: Executor, shipmentIds: number[]) {
    if (shipmentIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('freight_handling_unit as u').leftJoin('sales_order as o', 'o.id', 'u.order_id')
      .selectAll('u').select('o.so_number').where('u.shipment_id', 'in', shipmentIds).orderBy('u.shipment_id').orderBy('u.line_no').execute();
  },

  history(db: Executor, shipmentId: number) {
    return db.selectFrom('document_status_history').select(['from_status', 'to_status', 'at', 'username', 'reason'])
      .where('kind', '=', 'FREIGHT_SHIPMENT').where('document_id', '=', shipmentId).orderBy('id').execute();
  },

  /** The orders named, of any customer (the service tells the caller which are not theirs to ship). */
  orders(db: Executor, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('sales_order').select(['id', 'so_number', 'warehouse_id', 'customer_id', 'status']).where('id', 'in', ids).execute();
  },

  /** Shipments other than `exceptId`, not cancelled, that already carry one of these orders. */
  ordersOnOtherShipments(db: Executor, orderIds: number[], exceptId: number | null) {
    if (orderIds.length === 0) return Promise.resolve([]);
    let q = db.selectFrom('freight_shipment_order as fo').innerJoin('freight_shipment as f', 'f.id', 'fo.shipment_id')
      .innerJoin('sales_order as o', 'o.id', 'fo.order_id')
      .select(['o.so_number', 'f.ship_number']).where('fo.order_id', 'in', orderIds).where('f.status', '<>', 'Cancelled');
    if (exceptId !== null) q = q.where('f.id', '<>', exceptId);
    return q.execute();
  },

  /** The shipment (other than `exceptId`) holding this carrier's PRO number, if any. */
  proHolder(db: Executor, scac: string, proNumber: string, exceptId: number | null) {
    let q = db.selectFrom('freight_shipment').select(['id', 'ship_number']).where('scac', '=', scac).where('pro_number', '=', proNumber);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return q.executeTakeFirst();
  },

  /** The orders' closed cartons: what a pallet built from them holds. */
  closedCartons(db: Executor, orderIds: number[]) {
    return db.selectFrom('carton').select(['order_id', 'length_cm', 'width_cm', 'height_cm', 'weight_kg'])
      .where('order_id', 'in', orderIds).where('status', '=', 'Closed').orderBy('id').execute();
  },

  insertShipment(tx: Executor, row: Insertable<FreightShipmentTable>) {
    return tx.insertInto('freight_shipment').values(row).returning('id').executeTakeFirstOrThrow().then((r) => Number(r.id));
  },

  updateShipment(tx: Executor, id: number, set: Updateable<FreightShipmentTable>) {
    return tx.updateTable('freight_shipment').set(set).where('id', '=', id).execute();
  },

  /** The shipment's orders become exactly these: two statements. */
  async setOrders(tx: Executor, shipmentId: number, orderIds: number[]) {
    await tx.deleteFrom('freight_shipment_order').where('shipment_id', '=', shipmentId).execute();
    if (orderIds.length) await tx.insertInto('freight_shipment_order').values(orderIds.map((order_id) => ({ shipment_id: shipmentId, order_id }))).execute();
  },

  /** The shipment's handling units become exactly these (each keeping the SSCC it is given). */
  async setUnits(tx: Executor, shipmentId: number, units: Omit<Insertable<FreightHandlingUnitTable>, 'shipment_id'>[]) {
    await tx.deleteFrom('freight_handling_unit').where('shipment_id', '=', shipmentId).execute();
    if (units.length) await tx.insertInto('freight_handling_unit').values(units.map((u) => ({ ...u, shipment_id: shipmentId }))).execute();
  },

  customer(db: Executor, customerId: number) {
    return db.selectFrom('customer').select(['id', 'name', 'gs1_company_prefix']).where('id', '=', customerId).executeTakeFirst();
  },

  warehouse(db: Executor, warehouseId: number) {
    return db.selectFrom('warehouse').select(['id', 'name', 'address1', 'address2', 'city', 'state', 'zip', 'country']).where('id', '=', warehouseId).executeTakeFirst();
  },

  /** Is this customer served by this warehouse? */
  serves(db: Executor, warehouseId: number, customerId: number) {
    return db.selectFrom('customer_warehouse').select('customer_id').where('warehouse_id', '=', warehouseId).where('customer_id', '=', customerId)
      .executeTakeFirst().then((r) => !!r);
  },
};
