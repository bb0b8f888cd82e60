import type { Generated } from 'kysely';
import type { CreatedAt, Id, Timestamp } from '../column-types.js';

/** A return authorisation against a shipped order (migration 0029). expires_on: the warehouse's day it lapses after. */
export interface RmaTable {
  id: Id; rma_number: string; warehouse_id: number; customer_id: number; order_id: number; status: Generated<string>; resolution: string;
  expires_on: string; tracking_number: string | null; carrier: string | null; notes: string | null; created_via: Generated<string>;
  created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
}
/** An order line's units authorised for return, and how many have come back. */
export interface RmaLineTable {
  id: Id; rma_id: number; order_line_id: number; sku_id: number; quantity: number; received_qty: Generated<number>;
  reason: string; expected_condition: string; notes: string | null;
}
/** Units that came back (with an RMA or without: rma_id NULL), where they wait, their inspection and disposition. */
export interface ReturnItemTable {
  id: Id; rma_id: number | null; rma_line_id: number | null; warehouse_id: number; customer_id: number; order_id: number | null;
  order_line_id: number | null; sku_id: number; lot: string; expiry_date: string | null; quantity: number; reason: string; location_id: number;
  business_day: string; received_at: Timestamp; received_by: number | null; condition: Generated<string | null>; notes: Generated<string | null>;
  inspected_at: Generated<Timestamp | null>; disposition: Generated<string | null>; disposition_location_id: Generated<number | null>;
  disposition_reason: Generated<string | null>; disposed_at: Generated<Timestamp | null>;
}
export interface ReturnPhotoTable { id: Id; return_item_id: number; file_id: number; uploaded_by: number | null; created_at: CreatedAt }

/** Tables of the returns area (migration 0029). Merged into DB in db/schema.ts. */
export interface ReturnTables {
  rma: RmaTable;
  rma_line: RmaLineTable;
  return_item: ReturnItemTable;
  return_photo: ReturnPhotoTable;
}
