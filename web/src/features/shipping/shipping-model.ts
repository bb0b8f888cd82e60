import type { ShipmentStatus, WaitingOrder } from '@bolx/contracts';

/**
 * /ShippingDashboard's rules as plain functions: packed orders by carrier account (earliest cut-off first), the
 * exceptions, what a row offers, and what a bulk action takes from a selection.
 */

export interface CarrierGroup {
  key: string;
  carrierAccountId: number | null;
  accountName: string | null;
  cutoff: string | null;
  orders: WaitingOrder[];
  cartons: number;
}

/** Packed orders grouped by carrier account: earliest cut-off first, orders without a carrier last. */
export function groupWaiting(orders: WaitingOrder[]): CarrierGroup[] {
  const groups = new Map<string, CarrierGroup>();
  for (const o of orders) {
    const key = o.carrierAccountId === null ? 'none' : String(o.carrierAccountId);
    let g = groups.get(key);
    if (!g) {
      g = { key, carrierAccountId: o.carrierAccountId, accountName: o.accountName, cutoff: null, orders: [], cartons: 0 };
      groups.set(key, g);
    }
    g.orders.push(o);
    g.cartons += o.cartons;
    if (o.cutoff && (!g.cutoff || o.cutoff < g.cutoff)) g.cutoff = o.cutoff;
  }
  return [...groups.values()].sort((a, b) => (a.carrierAccountId === null ? 1 : 0) - (b.carrierAccountId === null ? 1 : 0)
    || (a.cutoff ?? '99:99').localeCompare(b.cutoff ?? '99:99') || (a.accountName ?? '').localeCompare(b.accountName ?? ''));
}

/** The exception's kind and its words: "overweight: Package 1 bills 45 kg…" → ['overweight', 'Package 1 bills 45 kg…']. */
export function exceptionParts(exception: string | null): { kind: string; text: string } | null {
  if (!exception) return null;
  const at = exception.indexOf(': ');
  return at < 0 ? { kind: exception, text: exception } : { kind: exception.slice(0, at), text: exception.slice(at + 2) };
}

export const isLabelled = (status: ShipmentStatus | null) => status === 'Labelled';

/** What one waiting order offers: rate and label while it has no standing label; print, void and ship once it has. */
export function rowActions(o: WaitingOrder): { rate: boolean; label: boolean; print: boolean; void: boolean; ship: boolean } {
  const labelled = isLabelled(o.shipmentStatus);
  return { rate: !labelled, label: !labelled, print: labelled, void: labelled, ship: labelled };
}

/** A bulk action's share of a selection: orders still to label, and the shipments whose labels stand (to print or ship). */
export function selectionPlan(selected: WaitingOrder[]): { toLabel: number[]; labelled: number[] } {
  return {
    toLabel: selected.filter((o) => !isLabelled(o.shipmentStatus)).map((o) => o.orderId),
    labelled: selected.filter((o) => isLabelled(o.shipmentStatus) && o.shipmentId !== null).map((o) => o.shipmentId!),
  };
}

/** Minor units as money ("$11.25"); null as a dash. */
export function money(minor: number | null, currency = 'USD', locale = 'en-US'): string {
  if (minor === null) return '—';
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
}
