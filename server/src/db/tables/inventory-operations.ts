import type { Generated } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from '../column-types.js';

export type AdjustmentStatus = 'Posted' | 'Pending' | 'Approved' | 'Rejected';
/**
 * Every adjustment: 'Posted' at once when within its customer's threshold; above it 'Pending' until a manager
 * approves (posted then) or rejects it. The document of its ledger row is ADJ-{id}.
 */
export interface AdjustmentRequestTable {
  id: Id; warehouse_id: number; customer_id: number; sku_id: number; location_id: number; lot: string; pallet: string;
  expiry_date: string | null; quantity_change: number; reason_code: string; note: string | null; status: AdjustmentStatus;
  requested_by: number | null; requested_at: Timestamp; decided_by: number | null; decided_at: Timestamp | null;
  decision_note: string | null; document_id: string | null;
}

export type CycleCountStatus = 'Open' | 'Recount' | 'Counted' | 'Approved' | 'Cancelled';
export interface CycleCountTable {
  id: Id; count_no: string; warehouse_id: number; customer_id: number; count_type: string;
  /** How the lines were chosen: 'location' (a code range), 'sku' or 'abc' (a class of the customer's SKUs). */
  selection: string; location_from: string | null; location_to: string | null; sku_id: number | null; abc_class: string | null;
  is_blind: Flag; status: CycleCountStatus; count_date: string; note: string | null;
  created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
  approved_by: number | null; approved_at: Timestamp | null; document_id: string | null;
}
/** One place to count; expected_qty is the balance when the count was made (its locations are then held). */
export interface CycleCountLineTable {
  id: Id; cycle_count_id: number; warehouse_id: number; customer_id: number; sku_id: number; location_id: number;
  lot: string; pallet: string; expiry_date: string | null; expected_qty: number;
  counted_qty: number | null; counted_by: number | null; counted_at: Timestamp | null;
  needs_recount: Generated<Flag>; recount_qty: number | null; recounted_by: number | null; recounted_at: Timestamp | null;
}
export interface CycleCountLocationTable {
  cycle_count_id: number; warehouse_id: number; customer_id: number; location_id: number; is_open: Flag;
}

export interface ReplenishmentRuleTable {
  id: Id; warehouse_id: number; customer_id: number; sku_id: number; location_id: number; min_qty: number; max_qty: number;
  is_active: Flag; created_at: CreatedAt; updated_at: Timestamp;
}
export type ReplenishmentTaskStatus = 'Open' | 'Completed' | 'Cancelled';
/** A move from bulk storage to a pick location; its source quantity is allocated while the task is open. */
export interface ReplenishmentTaskTable {
  id: Id; rule_id: number; warehouse_id: number; customer_id: number; sku_id: number; from_location_id: number;
  to_location_id: number; lot: string; pallet: string; quantity: number; moved_qty: number | null;
  status: ReplenishmentTaskStatus; created_by: number | null; created_at: CreatedAt;
  completed_by: number | null; completed_at: Timestamp | null; document_id: string | null;
}

/** Tables of the inventory operations (migration 0008). Merged into DB in db/schema.ts. */
export interface InventoryOperationTables {
  adjustment_request: AdjustmentRequestTable;
  cycle_count: CycleCountTable;
  cycle_count_line: CycleCountLineTable;
  cycle_count_location: CycleCountLocationTable;
  replenishment_rule: ReplenishmentRuleTable;
  replenishment_task: ReplenishmentTaskTable;
}
