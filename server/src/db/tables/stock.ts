import type { ColumnType } from 'kysely';
import type { Flag, Id, Timestamp } from '../column-types.js';

/** Allocated units of one balance owned by a document line (migration 0014); open while quantity > 0. */
export interface StockReservationTable {
  id: Id; balance_id: number; warehouse_id: number; customer_id: number; sku_id: number;
  document_type: string; document_id: string; document_line: ColumnType<string, string | undefined, string>;
  quantity: number; created_at: Timestamp; updated_at: Timestamp;
}
/** A location (one client's, or every client's when customer_id is NULL) or a balance that stock may not leave. */
export interface StockHoldTable {
  id: Id; warehouse_id: number; customer_id: number | null; location_id: number | null; balance_id: number | null;
  hold_type: string; document_id: string; is_open: ColumnType<Flag, Flag | undefined, Flag>;
  placed_by: number | null; placed_at: Timestamp; lifted_at: Timestamp | null;
}

/** Tables of the stock engine (migration 0014). Merged into DB in db/schema.ts. */
export interface StockTables {
  stock_reservation: StockReservationTable;
  stock_hold: StockHoldTable;
}
