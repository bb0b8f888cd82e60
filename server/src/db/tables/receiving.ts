import type { Generated } from 'kysely';
import type { CreatedAt, Id, Timestamp } from '../column-types.js';

/** A receiving order (RO): goods a supplier is due to deliver for a customer into a warehouse. */
export interface ReceivingOrderTable {
  id: Id; ro_number: string; warehouse_id: number; customer_id: number; supplier: string; reference_number: string;
  expected_date: string; status: string; notes: string | null; created_by: number | null;
  created_at: CreatedAt; updated_at: Timestamp; received_at: Timestamp | null; finalized_at: Timestamp | null;
  closed_at: Timestamp | null; cancelled_at: Timestamp | null;
}
/** One SKU of an RO: what was expected, received good, received damaged and put away so far. */
export interface ReceivingOrderLineTable {
  id: Id; order_id: number; line_no: number; sku_id: number; expected_qty: number; received_qty: Generated<number>;
  damaged_qty: Generated<number>; putaway_qty: Generated<number>; notes: string | null;
  /** The lot and expiry the supplier announced (migration 0013): what "receive as expected" receives. */
  lot: Generated<string>; expiry_date: string | null;
}
/** One receipt (a scan at the dock): its ledger document, lot, expiry and pallet. */
export interface ReceivingReceiptTable {
  id: Id; order_id: number; line_id: number; warehouse_id: number; customer_id: number; sku_id: number; location_id: number;
  lot: string; expiry_date: string | null; pallet: string; quantity: number; damaged_qty: number; damaged_location_id: number | null;
  document_id: string; user_id: number | null; username: string | null; at: Timestamp;
  /** Migration 0042: the inbound carton scanned (its label or LPN), '' when none. */
  carton: Generated<string>;
}
/** One putaway: a move from the dock to storage, with its ledger document. */
export interface ReceivingPutawayTable {
  id: Id; order_id: number; line_id: number; from_location_id: number; to_location_id: number; lot: string; pallet: string;
  quantity: number; document_id: string; user_id: number | null; username: string | null; at: Timestamp;
}
/** A file kept with an RO (the uploaded sheet, delivery documents). */
export interface ReceivingOrderDocumentTable { id: Id; order_id: number; file_id: number; created_at: CreatedAt }

/** Tables of the receiving area (migration 0007). Merged into DB in db/schema.ts. */
export interface ReceivingTables {
  receiving_order: ReceivingOrderTable;
  receiving_order_line: ReceivingOrderLineTable;
  receiving_receipt: ReceivingReceiptTable;
  receiving_putaway: ReceivingPutawayTable;
  receiving_order_document: ReceivingOrderDocumentTable;
}
