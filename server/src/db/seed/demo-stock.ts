import type { StockDocumentType, StockTxnType } from '@bolx/contracts';
import type { Tx } from '../schema.js';
import { systemActor } from '../../platform/actor.js';
import type { Place, StockEngine } from '../../platform/stock/stock-engine.js';

/** One demo stock movement leg: a signed quantity at a place, with its ledger type and document. */
export interface DemoLeg {
  place: Place;
  qty: number;
  txnType: StockTxnType;
  documentType: StockDocumentType;
  documentId: string;
  /** The document's line the leg belongs to (a receipt's RO line). */
  documentLine?: string;
  reason?: string | null;
  /** For stock arriving: its lot's expiry. */
  expiryDate?: string | null;
}

/**
 * Posts the demo's stock through the stock engine, one posting per run of legs of one document, in the seed's
 * transaction: a fresh demo database's ledger sums exactly to its balances, with its audit rows. Documents apply
 * in order (a receipt before its putaway); a take never goes negative.
 */
export async function postDemoStock(tx: Tx, stock: StockEngine, legs: DemoLeg[]): Promise<void> {
  const uow = { tx, afterCommit: () => {} }; // nothing listens while the database is being prepared
  const actor = systemActor('demo');
  for (let i = 0; i < legs.length;) {
    const first = legs[i];
    let j = i;
    while (j < legs.length && legs[j].documentType === first.documentType && legs[j].documentId === first.documentId && (legs[j].reason ?? null) === (first.reason ?? null)) j++;
    const run = legs.slice(i, j);
    await stock.post(uow, {
      documentType: first.documentType, documentId: first.documentId, reason: first.reason ?? null,
      legs: run.map((l) => ({ place: l.place, qty: l.qty, txnType: l.txnType, expiryDate: l.expiryDate ?? null, documentLine: l.documentLine })),
      record: { kind: first.documentType === 'PUTAWAY' ? 'Putaway' : first.documentType === 'RECEIPT' ? 'Receive' : 'Import', after: { demo: true, legs: run.length } },
    }, actor);
    i = j;
  }
}
