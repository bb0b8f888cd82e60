import { z } from 'zod';

/**
 * The stock engine's closed vocabularies. The database refuses anything else (a CHECK on PostgreSQL, a trigger on
 * SQLite: migration 0014), so a typo in a module cannot write a ledger row no report knows how to read.
 */
export const STOCK_TXN_TYPES = [
  'receive', 'receive_damaged', 'putaway_out', 'putaway_in', 'move_out', 'move_in', 'adjust', 'count', 'opening', 'reverse',
  // A kit work order: what it uses up (components on a build, kits on an unbuild) and what it makes.
  'kit_consume', 'kit_produce',
  // The floor: bin to tote (pick), tote to pack station (pack), out of the building (ship).
  'pick_out', 'pick_in', 'pack_out', 'pack_in', 'ship',
  // Returns: units back into stock from a customer (restock or quarantine), and units written off on disposal.
  'return', 'dispose',
] as const;
export type StockTxnType = (typeof STOCK_TXN_TYPES)[number];

/**
 * The documents stock is posted, reserved or held by. BENCH: the benchmark's seeded history (bench/). SO: an
 * outbound order's lines (their reservations). WO: a kit work order. A type added here needs a migration
 * re-stating the database's checks (see 0020_allocation, 0021_kits), as databases made before it keep the old list.
 */
export const STOCK_DOCUMENT_TYPES = [
  'RECEIPT', 'PUTAWAY', 'MOVE', 'PALLET_MOVE', 'ADJUSTMENT', 'IMPORT', 'CYCLE_COUNT', 'REPLENISHMENT', 'DEMO', 'BENCH', 'SO', 'WO',
  // The floor's postings: PICK (document: the job number, line: the task), PACK (the carton number), SHIP (the SO number).
  'PICK', 'PACK', 'SHIP',
  // Returns: an RMA's receipts and dispositions, a parcel returned without one (RETURN), a shipment made by hand.
  'RMA', 'RETURN', 'SHIPMENT',
] as const;
export type StockDocumentType = (typeof STOCK_DOCUMENT_TYPES)[number];

/** What may hold a location or a balance: nothing leaves held stock until the hold is lifted. */
export const STOCK_HOLD_TYPES = ['CYCLE_COUNT', 'QUARANTINE', 'INSPECTION'] as const;
export type StockHoldType = (typeof STOCK_HOLD_TYPES)[number];

/** A balance whose allocated figure differs from the sum of its open reservations. */
export const reservationDifference = z.object({
  balanceId: z.number().int(), warehouseId: z.number().int(), customerId: z.number().int(), skuId: z.number().int(),
  locationId: z.number().int(), lot: z.string(), pallet: z.string(),
  allocated: z.number().int(), reserved: z.number().int(), difference: z.number().int(),
});
export const reservationReconciliation = z.object({
  balanced: z.boolean(),
  differences: z.array(reservationDifference),
});
