import type { Generated } from 'kysely';
import type { CreatedAt, Id, Timestamp } from '../column-types.js';

/**
 * An outbound order (migration 0017): a customer's order shipped from one warehouse. reference_number is the
 * customer's own number, unique per customer (the intake's repeat check). carrier_account_id is one of the
 * customer's carrier accounts (customer_integration of kind carrier).
 */
export interface SalesOrderTable {
  id: Id; so_number: string; warehouse_id: number; customer_id: number; order_type: string; reference_number: string;
  order_date: string; requested_ship_date: string | null; priority: number;
  ship_to_name: string | null; ship_to_address1: string | null; ship_to_address2: string | null; ship_to_city: string | null;
  ship_to_state: string | null; ship_to_zip: string | null; ship_to_country: string | null; ship_to_phone: string | null; ship_to_email: string | null;
  carrier_account_id: number | null; carrier_service: string | null; notes: string | null;
  status: string; source: string; created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
  /** A Transfer's destination, and the expected RO a Transfer or Purchase order made (migration 0022). */
  to_warehouse_id: Generated<number | null>; receiving_order_id: Generated<number | null>;
  /** The floor (migration 0023): the wave it was released in, the day it shipped, and the order a partial shipment's remainder went to. */
  wave_id: Generated<number | null>; ship_date: Generated<string | null>; shipped_at: Generated<Timestamp | null>; backorder_of_id: Generated<number | null>;
}
/**
 * One order line: quantity in the SKU's units; package_id / units_per_package the package level it was ordered in
 * (none: 1). lot '' for any lot. allocated_qty is what reservations hold for it, shipped_qty what left.
 */
export interface SalesOrderLineTable {
  id: Id; order_id: number; line_no: number; sku_id: number; quantity: number; package_id: number | null; units_per_package: number;
  lot: string; allocated_qty: Generated<number>; shipped_qty: Generated<number>; notes: string | null;
  /** Why it holds less than its quantity (migration 0020; contracts' SHORT_REASONS), NULL when whole or not allocated. */
  short_reason: Generated<string | null>;
  /** Units picked into totes, and packed into cartons (migration 0023). */
  picked_qty: Generated<number>; packed_qty: Generated<number>;
}

/** A file kept with an order (migration 0022); the bytes are the stored_file's. */
export interface OrderDocumentTable {
  id: Id; order_id: number; file_id: number; uploaded_by: number | null; created_at: CreatedAt;
}

/** Tables of the orders area (migrations 0017, 0022). Merged into DB in db/schema.ts. */
export interface OrderTables {
  sales_order: SalesOrderTable;
  sales_order_line: SalesOrderLineTable;
  order_document: OrderDocumentTable;
}
