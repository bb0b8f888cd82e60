import type { Tx } from '../schema.js';
import { inventoryRepository as inventory, type LedgerRow, type Place } from '../../modules/inventory/inventory.repository.js';

/** One demo stock movement leg: a signed quantity at a place, with its ledger type and document. */
export interface DemoLeg {
  place: Place;
  qty: number;
  txnType: string;
  documentType: string;
  documentId: string;
  reason?: string | null;
  /** For stock arriving: its lot's expiry. */
  expiryDate?: string | null;
}

/**
 * Posts the demo's stock with the inventory engine's own statements (see InventoryService.post): every leg
 * changes its balance row (created by the first receipt) and writes its ledger row, in the seed's transaction,
 * so a fresh demo database's ledger sums exactly to its balances. Legs apply in order; a take never goes negative.
 */
export async function postDemoStock(tx: Tx, legs: DemoLeg[], at: string): Promise<void> {
  for (const leg of legs) {
    if (leg.qty < 0) {
      const taken = await inventory.takeStock(tx, leg.place, -leg.qty, at);
      if (!taken) throw new Error(`demo stock: ${-leg.qty} units are not at location ${leg.place.locationId}`);
    } else {
      await inventory.addStock(tx, leg.place, leg.qty, leg.expiryDate ?? null, at);
    }
  }
  const rows: LedgerRow[] = legs.map((leg) => ({
    place: leg.place, qtyChange: leg.qty, txnType: leg.txnType, reason: leg.reason ?? null,
    documentType: leg.documentType, documentId: leg.documentId, userId: null, at,
  }));
  for (let i = 0; i < rows.length; i += 200) await inventory.insertLedger(tx, rows.slice(i, i + 200));
}
