import type { CreatedAt, Id, Timestamp } from '../column-types.js';

/**
 * A kit work order (migration 0021): build `quantity` kits at `location_id` from their components, or take them
 * apart there (Unbuild). component_location_id: a Build's one component source (none: reserved FEFO/FIFO), an
 * Unbuild's place for the components (none: the kit location). order_line_id: the order line it was raised for.
 */
export interface KitWorkOrderTable {
  id: Id; wo_number: string; warehouse_id: number; customer_id: number; type: string; kit_sku_id: number; quantity: number;
  location_id: number; component_location_id: number | null; status: string; notes: string | null; order_line_id: number | null;
  created_by: number | null; created_at: CreatedAt; updated_at: Timestamp; completed_by: number | null; completed_at: Timestamp | null;
}
/** A work order's component as it was made: units per kit and for the whole work order. */
export interface KitWorkOrderLineTable { id: Id; work_order_id: number; component_sku_id: number; per_kit: number; quantity: number }

/** Tables of the kits area (migration 0021). Merged into DB in db/schema.ts. */
export interface KitTables {
  kit_work_order: KitWorkOrderTable;
  kit_work_order_line: KitWorkOrderLineTable;
}
