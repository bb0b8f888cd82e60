import type { Generated } from 'kysely';
import type { CreatedAt, Id, Timestamp } from '../column-types.js';

/** A help desk ticket (migration 0032). waiting_since: when it began Waiting on Client (its SLA clock stopped). */
export interface TicketTable {
  id: Id; ticket_number: string; warehouse_id: number; customer_id: number; title: string; description: string | null; category: string;
  priority: string; status: Generated<string>; assignee_id: number | null; link_kind: string | null; link_id: number | null; due_at: Timestamp;
  waiting_since: Generated<Timestamp | null>; created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
}
export interface TicketCommentTable { id: Id; ticket_id: number; body: string; author_id: number | null; created_at: CreatedAt }
export interface TicketAttachmentTable { id: Id; ticket_id: number; file_id: number; uploaded_by: number | null; created_at: CreatedAt }
/** A registered pallet (migration 0033): pallet_code is the id stock rows carry in their `pallet` column. */
export interface PalletTable {
  id: Id; warehouse_id: number; customer_id: number | null; pallet_code: string; sscc: string | null; pallet_type: string; length_cm: number;
  width_cm: number; height_cm: number; weight_capacity_kg: number; location_id: number; created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
}

/** Tables of the help desk and the pallet register (migrations 0032, 0033). Merged into DB in db/schema.ts. */
export interface HelpDeskTables {
  ticket: TicketTable;
  ticket_comment: TicketCommentTable;
  ticket_attachment: TicketAttachmentTable;
  pallet: PalletTable;
}
