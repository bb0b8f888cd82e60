import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { Scope } from '../../platform/scope.js';

/** Every statement of parcel shipping: orders and cartons to ship, carrier accounts and rate tables, shipments, packages, manifests. */
export const shippingRepository = {
  /** An order with what a label needs (ship-from warehouse, ship-to, customer's GS1 prefix), in the caller's scope. */
  order(db: Executor, scope: Scope, orderId: number) {
    return db.selectFrom('sales_order as o').innerJoin('customer as c', 'c.id', 'o.customer_id').innerJoin('warehouse as w', 'w.id', 'o.warehouse_id')
      .select([
        'o.id', 'o.so_number', 'o.reference_number', 'o.status', 'o.warehouse_id', 'o.customer_id', 'o.requested_ship_date', 'o.carrier_account_id', 'o.carrier_service',
        'o.ship_to_name', 'o.ship_to_address1', 'o.ship_to_address2', 'o.ship_to_city', 'o.ship_to_state', 'o.ship_to_zip', 'o.ship_to_country',
        'c.name as customer_name', 'w.name as warehouse_name', 'w.timezone', 'w.address1 as wh_address1', 'w.address2 as wh_address2', 'w.city as wh_city',
        'w.state as wh_state', 'w.zip as wh_zip', 'w.country as wh_country',
      ])
      .where('o.id', '=', orderId).where(scope.where({ warehouse: 'o.warehouse_id', customer: 'o.customer_id' })).executeTakeFirst();
  },

  /** An order's closed cartons, in packing order. */
  closedCartons(db: Executor, orderId: number) {
    return db.selectFrom('carton').select(['id', 'carton_number', 'weight_kg', 'length_cm', 'width_cm', 'height_cm'])
      .where('order_id', '=', orderId).where('status', '=', 'Closed').orderBy('id').execute();
  },

  /** A customer's active carrier accounts with their carrier's code and rate table. */
  carrierAccounts(db: Executor, customerId: number, accountId?: number) {
    let q = db.selectFrom('customer_integration as ci').innerJoin('integration_type as it', 'it.id', 'ci.integration_type_id')
      .leftJoin('carrier_rate_table as rt', 'rt.carrier_account_id', 'ci.id')
      .select(['ci.id', 'ci.customer_id', 'ci.account_name', 'ci.is_active', 'it.code', 'rt.definition'])
      .where('ci.kind', '=', 'carrier').where('ci.customer_id', '=', customerId);
    q = accountId ? q.where('ci.id', '=', accountId) : q.where('ci.is_active', '=', 1);
    return q.orderBy('ci.id').execute();
  },

  /** The properties of carrier accounts as stored (secret ones sealed): a live adapter's account number, its API secret… */
  accountProperties(db: Executor, accountIds: number[]) {
    if (accountIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('customer_integration_value as v').innerJoin('integration_property as p', 'p.id', 'v.property_id')
      .select(['v.customer_integration_id', 'v.property_id', 'p.key', 'v.value', 'p.is_secret']).where('v.customer_integration_id', 'in', accountIds).execute();
  },

  /** A carrier account by id with its customer, within the caller's customers. */
  account(db: Executor, scope: Scope, accountId: number) {
    return db.selectFrom('customer_integration as ci').innerJoin('customer as c', 'c.id', 'ci.customer_id')
      .leftJoin('carrier_rate_table as rt', 'rt.carrier_account_id', 'ci.id')
      .select(['ci.id', 'ci.customer_id', 'ci.account_name', 'c.name as customer_name', 'rt.definition', 'rt.updated_at'])
      .where('ci.id', '=', accountId).where('ci.kind', '=', 'carrier').where(scope.where({ customer: 'ci.customer_id' })).executeTakeFirst();
  },

  /** The shipment of an order that is not cancelled. */
  liveShipmentOfOrder(db: Executor, orderId: number) {
    return db.selectFrom('shipment').selectAll().where('order_id', '=', orderId).where('status', '<>', 'Cancelled').executeTakeFirst();
  },

  /** Shipments by id in the caller's scope. */
  shipments(db: Executor, scope: Scope, ids: number[]) {
    return db.selectFrom('shipment as s').innerJoin('warehouse as w', 'w.id', 's.warehouse_id').leftJoin('sales_order as o', 'o.id', 's.order_id')
      .leftJoin('customer_integration as ci', 'ci.id', 's.carrier_account_id')
      .select([
        's.id', 's.shipment_number', 's.status', 's.kind', 's.warehouse_id', 's.customer_id', 's.order_id', 's.carrier_account_id', 's.adapter', 's.service_code', 's.service_name',
        's.reference', 's.ship_to_name', 's.ship_to_address1', 's.ship_to_address2', 's.ship_to_city', 's.ship_to_state', 's.ship_to_zip', 's.ship_to_country',
        's.labelled_at', 's.ship_day', 'o.so_number', 'ci.account_name', 'w.name as warehouse_name', 'w.timezone', 'w.address1 as wh_address1', 'w.address2 as wh_address2',
        'w.city as wh_city', 'w.state as wh_state', 'w.zip as wh_zip', 'w.country as wh_country',
      ])
      .where('s.id', 'in', ids).where(scope.where({ warehouse: 's.warehouse_id', customer: 's.customer_id' })).execute();
  },

  /** The packages whose labels stand (not voided) of these shipments. */
  livePackages(db: Executor, shipmentIds: number[]) {
    if (shipmentIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('shipment_package as p').leftJoin('carton as c', 'c.id', 'p.carton_id')
      .select(['p.id', 'p.shipment_id', 'p.package_no', 'p.carton_id', 'c.carton_number', 'p.sscc', 'p.tracking_number', 'p.weight_kg', 'p.length_cm', 'p.width_cm',
        'p.height_cm', 'p.billed_kg', 'p.charge_minor', 'p.voided'])
      .where('p.shipment_id', 'in', shipmentIds).where('p.voided', '=', 0).orderBy('p.shipment_id').orderBy('p.package_no').execute();
  },

  /** Every package of a shipment, voided ones too (a shipment's history). */
  allPackages(db: Executor, shipmentId: number) {
    return db.selectFrom('shipment_package as p').leftJoin('carton as c', 'c.id', 'p.carton_id')
      .select(['p.id', 'p.shipment_id', 'p.package_no', 'p.carton_id', 'c.carton_number', 'p.sscc', 'p.tracking_number', 'p.weight_kg', 'p.length_cm', 'p.width_cm',
        'p.height_cm', 'p.billed_kg', 'p.charge_minor', 'p.voided'])
      .where('p.shipment_id', '=', shipmentId).orderBy('p.voided').orderBy('p.package_no').orderBy('p.id').execute();
  },

  /** A shipment's status changes, oldest first. */
  history(db: Executor, shipmentId: number) {
    return db.selectFrom('document_status_history').select(['from_status', 'to_status', 'at', 'username', 'reason'])
      .where('kind', '=', 'SHIPMENT').where('document_id', '=', shipmentId).orderBy('id').execute();
  },

  /** What a shipment's own view shows beyond its summary: the full ship-to, the warehouse, its order's status. */
  viewParts(db: Executor, shipmentId: number) {
    return db.selectFrom('shipment as s').innerJoin('warehouse as w', 'w.id', 's.warehouse_id').leftJoin('sales_order as o', 'o.id', 's.order_id')
      .select(['s.ship_to_name', 's.ship_to_address1', 's.ship_to_address2', 's.ship_to_city', 's.ship_to_state', 's.ship_to_zip', 's.ship_to_country',
        's.residential', 's.closed_at', 'w.name as warehouse_name', 'o.status as order_status'])
      .where('s.id', '=', shipmentId).executeTakeFirstOrThrow();
  },

  /** A warehouse's address: where return labels go. */
  warehouse(db: Executor, warehouseId: number) {
    return db.selectFrom('warehouse').select(['id', 'name', 'zip', 'country']).where('id', '=', warehouseId).executeTakeFirst();
  },

  /** An RMA in the caller's scope with its order's ship-to (where a return label's parcel comes from). */
  rma(db: Executor, scope: Scope, rmaId: number) {
    return db.selectFrom('rma as r').innerJoin('sales_order as o', 'o.id', 'r.order_id')
      .select(['r.id', 'r.rma_number', 'r.status', 'r.warehouse_id', 'r.customer_id', 'o.so_number', 'o.ship_to_name', 'o.ship_to_address1', 'o.ship_to_address2',
        'o.ship_to_city', 'o.ship_to_state', 'o.ship_to_zip', 'o.ship_to_country'])
      .where('r.id', '=', rmaId).where(scope.where({ warehouse: 'r.warehouse_id', customer: 'r.customer_id' })).executeTakeFirst();
  },

  /** An RMA's return label that still stands (not voided back to Open and cancelled). */
  liveReturnLabel(db: Executor, rmaId: number) {
    return db.selectFrom('shipment').select(['id', 'shipment_number', 'status']).where('rma_id', '=', rmaId).where('kind', '=', 'return')
      .where('status', 'in', ['Labelled', 'Shipped', 'Closed']).executeTakeFirst();
  },

  /** What a manual shipment took from stock, line by line. */
  lines(db: Executor, shipmentId: number) {
    return db.selectFrom('shipment_line as l').innerJoin('sku as k', 'k.id', 'l.sku_id').innerJoin('location as loc', 'loc.id', 'l.location_id')
      .select(['l.line_no', 'l.sku_id', 'k.sku_code', 'k.description', 'l.location_id', 'loc.code as location_code', 'l.lot', 'l.quantity'])
      .where('l.shipment_id', '=', shipmentId).orderBy('l.line_no').execute();
  },

  /** Voids a shipment's standing labels: one statement. */
  voidPackages(tx: Executor, shipmentId: number, at: string) {
    return tx.updateTable('shipment_package').set({ voided: 1, voided_at: at }).where('shipment_id', '=', shipmentId).where('voided', '=', 0).execute();
  },

  /** Tracking numbers onto an order's cartons that have none, from its shipment's standing labels: one statement. */
  trackingOntoCartons(tx: Executor, orderId: number, shipmentId: number) {
    return tx.updateTable('carton').set({
      tracking_number: sql`(select p.tracking_number from shipment_package p where p.carton_id = carton.id and p.shipment_id = ${shipmentId} and p.voided = 0)`,
    }).where('order_id', '=', orderId).where('tracking_number', 'is', null)
      .where(sql<boolean>`exists (select 1 from shipment_package p where p.carton_id = carton.id and p.shipment_id = ${shipmentId} and p.voided = 0)`).execute();
  },

  /** Shipped shipments of a carrier account in a warehouse not yet on a manifest, with their standing packages' totals. */
  toClose(tx: Executor, warehouseId: number, carrierAccountId: number) {
    return tx.selectFrom('shipment as s').leftJoin('sales_order as o', 'o.id', 's.order_id')
      .select(['s.id', 's.shipment_number', 's.reference', 's.service_name', 's.ship_to_name', 's.ship_to_zip', 's.currency', 'o.so_number'])
      .where('s.warehouse_id', '=', warehouseId).where('s.carrier_account_id', '=', carrierAccountId).where('s.status', '=', 'Shipped').where('s.manifest_id', 'is', null)
      .orderBy('s.id').execute();
  },

  manifest(db: Executor, scope: Scope, manifestId: number) {
    return db.selectFrom('manifest as m').innerJoin('customer as c', 'c.id', 'm.customer_id').innerJoin('warehouse as w', 'w.id', 'm.warehouse_id')
      .innerJoin('customer_integration as ci', 'ci.id', 'm.carrier_account_id')
      .selectAll('m').select(['c.name as customer_name', 'w.name as warehouse_name', 'ci.account_name'])
      .where('m.id', '=', manifestId).where(scope.where({ warehouse: 'm.warehouse_id', customer: 'm.customer_id' })).executeTakeFirst();
  },

  manifestRows(db: Executor, manifestId: number) {
    return db.selectFrom('shipment as s').innerJoin('shipment_package as p', 'p.shipment_id', 's.id').leftJoin('sales_order as o', 'o.id', 's.order_id')
      .select(['s.shipment_number', 'o.so_number', 's.reference', 's.service_name', 's.ship_to_name', 's.ship_to_zip', 'p.tracking_number', 'p.weight_kg', 'p.charge_minor'])
      .where('s.manifest_id', '=', manifestId).where('p.voided', '=', 0).orderBy('s.id').orderBy('p.package_no').execute();
  },

  recentManifests(db: Executor, scope: Scope, warehouseId: number, customerId: number | undefined, limit: number) {
    return db.selectFrom('manifest as m').innerJoin('customer as c', 'c.id', 'm.customer_id').innerJoin('customer_integration as ci', 'ci.id', 'm.carrier_account_id')
      .selectAll('m').select(['c.name as customer_name', 'ci.account_name'])
      .where('m.warehouse_id', '=', warehouseId).where(scope.where({ customer: 'm.customer_id' }, { customerId }))
      .orderBy('m.closed_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
  },

  /** Packed orders of a warehouse with their carrier account, cartons and live shipment: the dashboard's "waiting". */
  waiting(db: Executor, scope: Scope, warehouseId: number, customerId: number | undefined) {
    return db.selectFrom('sales_order as o').innerJoin('customer as c', 'c.id', 'o.customer_id')
      .leftJoin('customer_integration as ci', 'ci.id', 'o.carrier_account_id')
      .leftJoin('carrier_rate_table as rt', 'rt.carrier_account_id', 'o.carrier_account_id')
      .leftJoin('shipment as s', (j) => j.onRef('s.order_id', '=', 'o.id').on('s.status', '<>', 'Cancelled'))
      .select([
        'o.id', 'o.so_number', 'o.reference_number', 'o.customer_id', 'c.name as customer_name', 'o.carrier_account_id', 'ci.account_name', 'o.carrier_service',
        'o.requested_ship_date', 'o.ship_to_name', 'o.ship_to_zip', 'rt.definition', 's.id as shipment_id', 's.shipment_number', 's.status as shipment_status',
        's.service_code', 's.service_name', 's.rate_minor', 's.exception',
        sql<number>`(select count(*) from carton k where k.order_id = o.id and k.status = 'Closed')`.as('cartons'),
        sql<number | null>`(select sum(k.weight_kg) from carton k where k.order_id = o.id and k.status = 'Closed')`.as('weight_kg'),
        sql<number>`(select count(*) from carton k where k.order_id = o.id and k.status = 'Closed' and k.weight_kg is null)`.as('unweighed'),
      ])
      .where('o.warehouse_id', '=', warehouseId).where('o.status', '=', 'Packed')
      .where(scope.where({ customer: 'o.customer_id' }, { customerId }))
      .orderBy('ci.account_name').orderBy('o.requested_ship_date').orderBy('o.id').limit(2000).execute();
  },

  /** Shipped-or-later shipments per carrier account not yet on a manifest. */
  openForClose(db: Executor, scope: Scope, warehouseId: number, customerId: number | undefined) {
    return db.selectFrom('shipment as s').innerJoin('customer_integration as ci', 'ci.id', 's.carrier_account_id').innerJoin('customer as c', 'c.id', 's.customer_id')
      .select(['s.carrier_account_id', 'ci.account_name', 'c.name as customer_name', sql<number>`count(*)`.as('shipments'),
        sql<number>`sum((select count(*) from shipment_package p where p.shipment_id = s.id and p.voided = 0))`.as('packages')])
      .where('s.warehouse_id', '=', warehouseId).where('s.status', '=', 'Shipped').where('s.manifest_id', 'is', null)
      .where(scope.where({ customer: 's.customer_id' }, { customerId }))
      .groupBy(['s.carrier_account_id', 'ci.account_name', 'c.name']).orderBy('ci.account_name').execute();
  },
};
