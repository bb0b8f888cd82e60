import type { ReceivingOrderDetail, ReceivingStatus } from '@bolx/contracts';
import { mayAct } from '../../lib/status-actions';

/** What staff may still do with an RO in a status (the server refuses the rest). */
/**
 * Whether an error is the server asking to confirm an expired lot: its 409 ends "… expired on YYYY-MM-DD" (the
 * screen's error keeps the message, not the server's details, MSG_RECEIVING.expiredLot).
 */
export const asksExpiredConfirmation = (e: { status: number; message: string }) => e.status === 409 && / expired on \d{4}-\d{2}-\d{2}$/.test(e.message);

export function roActions(status: ReceivingStatus) {
  return {
    edit: status === 'Open' || status === 'Receiving',
    receive: status === 'Open' || status === 'Receiving',
    putaway: status === 'Receiving' || status === 'Received',
    // The moves of the status machine, from its table (the server refuses any other).
    finalize: mayAct('RECEIVING_ORDER', status, 'finalize'),
    cancel: mayAct('RECEIVING_ORDER', status, 'cancel'),
  };
}

/** One RO's detail on the /InBound screen (the screen keeps the spec's path; the RO is a query parameter). */
export const roDetailPath = (receivingOrderId: number) => `/InBound?roid=${receivingOrderId}`;

/** Good units of one line still at one dock place (location, lot, pallet), waiting to be put away. */
export interface PutawaySource {
  key: string;
  lineId: number;
  locationId: number;
  locationCode: string;
  lot: string;
  pallet: string;
  expiryDate: string | null;
  quantity: number;
}

/**
 * Where a line's received goods still wait: its receipts' good units per dock place, less what was put away
 * from that place. The server checks again; this only offers the places that still hold something.
 */
export function putawaySources(order: Pick<ReceivingOrderDetail, 'receipts' | 'putaways'>, lineId: number): PutawaySource[] {
  const byPlace = new Map<string, PutawaySource>();
  const keyOf = (code: string, lot: string, pallet: string) => `${code}\u0000${lot}\u0000${pallet}`;
  for (const r of order.receipts) {
    if (r.lineId !== lineId || r.quantity <= 0) continue;
    const key = keyOf(r.locationCode, r.lot, r.pallet);
    const found = byPlace.get(key);
    if (found) found.quantity += r.quantity;
    else byPlace.set(key, { key, lineId, locationId: r.locationId, locationCode: r.locationCode, lot: r.lot, pallet: r.pallet, expiryDate: r.expiryDate, quantity: r.quantity });
  }
  for (const p of order.putaways) {
    if (p.lineId !== lineId) continue;
    const found = byPlace.get(keyOf(p.fromLocationCode, p.lot, p.pallet));
    if (found) found.quantity -= p.quantity;
  }
  return [...byPlace.values()].filter((s) => s.quantity > 0);
}

/** Spec section 5: an RO takes Excel or CSV files. */
export const RO_FILE_EXTENSIONS = ['.csv', '.xlsx'] as const;
export function roFileProblem(file: { name: string; size: number }, maxBytes: number): 'type' | 'size' | 'empty' | null {
  const name = file.name.toLowerCase();
  if (!RO_FILE_EXTENSIONS.some((ext) => name.endsWith(ext))) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > maxBytes) return 'size';
  return null;
}
