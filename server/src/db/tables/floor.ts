import type { Generated } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from '../column-types.js';

/** A saved batch-allocation rule (migration 0023): its criteria as JSON (contracts' batchRuleCriteria). */
export interface BatchRuleTable {
  id: Id; warehouse_id: number; name: string; criteria: string; last_run_at: Generated<Timestamp | null>;
  created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
}
/** A wave of released orders, cut into pick jobs by its strategy. */
export interface WaveTable {
  id: Id; wave_number: string; warehouse_id: number; strategy: string; totes_per_job: Generated<number>; status: Generated<string>;
  rule_id: number | null; created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
}
/** A pick job of a wave: its zone (zone strategy), who picks it, when it started and finished. */
export interface PickJobTable {
  id: Id; job_number: string; wave_id: number; warehouse_id: number; strategy: string; zone: string | null; status: Generated<string>;
  assigned_to: number | null; priority: Generated<number>; started_at: Generated<Timestamp | null>; finished_at: Generated<Timestamp | null>;
  created_at: CreatedAt; updated_at: Timestamp;
}
/** An order of a job in its slot, with the tote (a location of type tote) its units go into. */
export interface PickJobOrderTable { id: Id; job_id: number; order_id: number; slot: number; tote_location_id: Generated<number | null> }
/** One order line's units to take from one place; tasks of one seq are one stop of the pick path. */
export interface PickTaskTable {
  id: Id; job_id: number; seq: number; order_id: number; order_line_id: number; warehouse_id: number; customer_id: number;
  sku_id: number; location_id: number; lot: string; pallet: string; quantity: number; picked_qty: Generated<number>; short_qty: Generated<number>; status: Generated<string>;
}
/** A carton type of a warehouse: inner dimensions (cm), tare weight (kg). */
export interface CartonTypeTable {
  id: Id; warehouse_id: number; code: string; name: string; length_cm: number; width_cm: number; height_cm: number;
  tare_weight_kg: number; max_weight_kg: number | null; is_active: Generated<Flag>; created_at: CreatedAt; updated_at: Timestamp;
}
/** A carton of an order: Open while packing, Closed with its gross weight; location_id where its stock waits to ship. */
export interface CartonTable {
  id: Id; carton_number: string; order_id: number; warehouse_id: number; customer_id: number; carton_type_id: number; status: Generated<string>;
  length_cm: number; width_cm: number; height_cm: number; weight_kg: Generated<number | null>; location_id: Generated<number | null>;
  tracking_number: Generated<string | null>; packed_by: number | null; created_at: CreatedAt; closed_at: Generated<Timestamp | null>;
}
export interface CartonLineTable { id: Id; carton_id: number; order_line_id: number; sku_id: number; lot: string; quantity: number }
/**
 * One floor step (contracts' FLOOR_EVENT_KINDS): who, when, where, what, and seconds since the same user's previous
 * event (labour reports and billing read these). at_ms: epoch milliseconds.
 */
export interface FloorEventTable {
  id: Id; kind: string; warehouse_id: number; customer_id: number; user_id: number | null; job_id: number | null; task_id: number | null;
  order_id: number | null; order_line_id: number | null; carton_id: number | null; sku_id: number | null; location_id: number | null;
  quantity: number; at: Timestamp; at_ms: number | string; business_day: string; seconds_since_previous: number | null;
  /** Migration 0024: the document a step belongs to when no column above names it, a detail, a money amount (minor units). */
  doc_type: Generated<string | null>; doc_id: Generated<number | null>; detail: Generated<string | null>; amount_minor: Generated<number | string | null>;
  /** Migration 0042: the inbound carton (its label or LPN) a receive step names; receiving per carton bills from it. */
  carton_code: Generated<string | null>;
}

/** Tables of the floor (migration 0023). Merged into DB in db/schema.ts. */
export interface FloorTables {
  batch_rule: BatchRuleTable;
  wave: WaveTable;
  pick_job: PickJobTable;
  pick_job_order: PickJobOrderTable;
  pick_task: PickTaskTable;
  carton_type: CartonTypeTable;
  carton: CartonTable;
  carton_line: CartonLineTable;
  floor_event: FloorEventTable;
}
