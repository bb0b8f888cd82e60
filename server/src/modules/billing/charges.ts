import { sql } from 'kysely';
import { CHARGE_TYPES, chargeAmount, divisorOf, type ChargeType } from '@bolx/contracts';
import type { Executor } from '../../db/schema.js';
import { daysBetween } from './storage-snapshots.js';
import { addDays } from '../../platform/business-day.js';

const n = (v: unknown) => Number(v);

/** What a source gives rise to before it is rated: one charge type of one source (the key names the source). */
export interface Candidate {
  chargeType: ChargeType;
  qualifier: string;
  key: string;
  sourceType: 'snapshot' | 'ledger' | 'event' | 'document' | 'manual' | 'recurring' | 'minimum';
  sourceId: string;
  sourceDoc: string | null;
  day: string;
  quantity: number;
  /** Set where the source brings its own base (a label's carrier cost). */
  baseMinor?: number;
  description?: string | null;
}

/** A credit of charges already made, for a source later reversed (a void label, a reversed receipt or build). */
export interface Reversal { sourceType: 'ledger' | 'event'; sourceId: string; day: string; sourceDoc: string; chargeTypes: ChargeType[]; before?: number }

export interface RatedCharge extends Candidate { rateMinor: number; markupBp: number; divisor: number; amountMinor: number; rateVersionId: number | null }

interface VersionRates { id: number; from: string; to: string | null; rates: Map<string, { rateMinor: number; markupBp: number }> }

/** The rate cards of one customer in one warehouse: which version is in force on a day, and its rate of a charge type. */
export class RateBook {
  constructor(readonly versions: VersionRates[]) {}

  static async load(db: Executor, customerId: number, warehouseId: number): Promise<RateBook> {
    const versions = await db.selectFrom('rate_card_version').select(['id', 'effective_from', 'effective_to'])
      .where('customer_id', '=', customerId).where('warehouse_id', '=', warehouseId).orderBy('effective_from').execute();
    const rates = versions.length === 0 ? [] : await db.selectFrom('rate_card_rate').selectAll().where('version_id', 'in', versions.map((v) => v.id)).execute();
    return new RateBook(versions.map((v) => ({
      id: n(v.id), from: v.effective_from, to: v.effective_to,
      rates: new Map(rates.filter((r) => n(r.version_id) === n(v.id)).map((r) => [`${r.charge_type}|${r.qualifier}`, { rateMinor: n(r.rate_minor), markupBp: n(r.markup_bp) }])),
    })));
  }

  versionOn(day: string): VersionRates | undefined {
    let found: VersionRates | undefined;
    for (const v of this.versions) if (v.from <= day && (v.to === null || v.to >= day)) found = v;
    return found;
  }

  /** The rate of a charge type on a day: its qualifier's own, else the charge type's general rate (qualifier ''). */
  rateOn(day: string, type: ChargeType, qualifier: string) {
    const v = this.versionOn(day);
    if (!v) return undefined;
    const r = v.rates.get(`${type}|${qualifier}`) ?? v.rates.get(`${type}|`);
    return r ? { versionId: v.id, ...r } : undefined;
  }

  /** Whether every day of the period has a version with a rate of one of the types (then no source of them goes unrated for want of a card). */
  coversEvery(from: string, to: string, types: readonly ChargeType[]): boolean {
    return daysBetween(from, to).every((day) => {
      const v = this.versionOn(day);
      return !!v && [...v.rates.keys()].some((k) => types.includes(k.slice(0, k.indexOf('|')) as ChargeType));
    });
  }

  /** The named rates of a type in force on a day (recurring fees: one charge per name). */
  ratesOfType(day: string, type: ChargeType) {
    const v = this.versionOn(day);
    if (!v) return [];
    return [...v.rates].filter(([k]) => k.startsWith(`${type}|`)).map(([k, r]) => ({ versionId: v.id, qualifier: k.slice(type.length + 1), ...r }));
  }
}

/** Rates a candidate: undefined when the card has no rate for it that day (counted as unrated activity). */
export function rate(c: Candidate, book: RateBook): RatedCharge | undefined {
  const r = book.rateOn(c.day, c.chargeType, c.qualifier);
  if (!r) return undefined;
  const divisor = divisorOf(c.chargeType, c.day);
  // Carrier cost plus markup: the base is the label's cost; the card gives the markup.
  const rateMinor = c.chargeType === 'carrier_markup' ? c.baseMinor ?? 0 : r.rateMinor;
  return { ...c, rateMinor, markupBp: c.chargeType === 'carrier_markup' ? r.markupBp : 0, divisor, amountMinor: chargeAmount(c.quantity, rateMinor, c.chargeType === 'carrier_markup' ? r.markupBp : 0, divisor), rateVersionId: r.versionId };
}

export interface Scope3 { customerId: number; warehouseId: number; from: string; to: string }

/** The activity families a run reads, each with the charge types it can give rise to (for "activity with no rate"). */
export const FAMILIES = {
  storage: ['storage_pallet_day', 'storage_location_month', 'storage_cbm_day', 'storage_unit_month'],
  receiving: ['receiving_order', 'receiving_line', 'receiving_unit', 'receiving_carton', 'receiving_pallet'],
  fulfilment: ['order', 'order_first_unit', 'order_additional_unit', 'order_line', 'order_carton'],
  shipping: ['label_fee', 'carrier_markup'],
  returns: ['return_rma', 'return_unit', 'return_disposition'],
  kitting: ['kit_build'],
} as const satisfies Record<string, readonly ChargeType[]>;
export type Family = keyof typeof FAMILIES;

/** Reversed sources of the period (a reversed receipt or work order, a void label), each to credit what its source was charged. */
export async function reversalsOf(db: Executor, family: Family, s: Scope3): Promise<Reversal[]> {
  if (family === 'shipping') {
    const voids = await db.selectFrom('floor_event').select(['id', 'business_day', 'doc_type', 'doc_id', 'carton_id', 'order_id'])
      .where('warehouse_id', '=', s.warehouseId).where('customer_id', '=', s.customerId).where('business_day', '>=', s.from).where('business_day', '<=', s.to)
      .where('kind', '=', 'void-label').orderBy('id').execute();
    return voids.map((e) => ({
      sourceType: 'event', sourceId: String(e.id), day: e.business_day, sourceDoc: `LABEL:${docOf(e) ?? e.id}`, chargeTypes: ['label_fee', 'carrier_markup'], before: n(e.id),
    }));
  }
  if (family !== 'receiving' && family !== 'kitting') return [];
  const [documentType, chargeTypes]: [string, ChargeType[]] = family === 'receiving' ? ['RECEIPT', ['receiving_unit']] : ['WO', ['kit_build']];
  const rows = await db.selectFrom('inventory_txn').select(['id', 'business_day', 'document_id'])
    .where('warehouse_id', '=', s.warehouseId).where('customer_id', '=', s.customerId).where('business_day', '>=', s.from).where('business_day', '<=', s.to)
    .where('document_type', '=', documentType).where('txn_type', '=', sql.lit('reverse')).orderBy('id').execute(); // partial index inventory_txn_reversal
  // A reversed document credits once, from its first reversing row.
  const out = new Map<string, Reversal>();
  for (const r of rows) {
    const doc = `${documentType}:${r.document_id}`;
    if (!out.has(doc)) out.set(doc, { sourceType: 'ledger', sourceId: String(r.id), day: r.business_day!, sourceDoc: doc, chargeTypes });
  }
  return [...out.values()];
}

/** The document an event belongs to, as the charge names it (charge-sql's eventDoc, for the few rows read here). */
function docOf(e: { doc_type: string | null; doc_id: number | null; carton_id: number | null; order_id: number | null }): string | null {
  if (e.doc_type && e.doc_id != null) return `${e.doc_type}:${e.doc_id}`;
  if (e.carton_id != null) return `CTN:${e.carton_id}`;
  if (e.order_id != null) return `SO:${e.order_id}`;
  return null;
}

/** Recurring monthly fees: one per named fee for each month whose first day is in the period. */
export function recurringCandidates(book: RateBook, s: Scope3): Candidate[] {
  const out: Candidate[] = [];
  for (const day of daysBetween(s.from, s.to).filter((d) => d.endsWith('-01'))) {
    for (const r of book.ratesOfType(day, 'recurring_monthly')) {
      out.push({ chargeType: 'recurring_monthly', qualifier: r.qualifier, key: `rec:${day.slice(0, 7)}:${r.qualifier}`, sourceType: 'recurring', sourceId: `${r.versionId}`, sourceDoc: null, day, quantity: 1, description: r.qualifier || null });
    }
  }
  return out;
}

/** The months whose last day is in the period: each may owe a top-up to its monthly minimum. */
export const monthEnds = (s: Scope3) => daysBetween(s.from, s.to).filter((d) => addDays(d, 1).endsWith('-01'));

export const groupOf = (t: ChargeType) => CHARGE_TYPES[t].group;
export { sql };
