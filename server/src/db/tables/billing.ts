import type { Generated } from 'kysely';
import type { CreatedAt, Id, Timestamp } from '../column-types.js';

type Big = number | string;

/** A customer's billing terms (migration 0030): its currency, tax and payment terms. */
export interface BillingAccountTable {
  customer_id: number; currency: Generated<string>; tax_rate_bp: Generated<number>; payment_terms_days: Generated<number>; updated_at: Timestamp;
}
/** A rate card version of a customer in a warehouse: from a day to a day (NULL: until the next one). */
export interface RateCardVersionTable {
  id: Id; customer_id: number; warehouse_id: number; version_no: number; effective_from: string; effective_to: string | null;
  notes: Generated<string>; created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
}
export interface RateCardRateTable {
  id: Id; version_id: number; charge_type: string; qualifier: Generated<string>; rate_minor: Big; markup_bp: Generated<number>;
}
export interface StorageSnapshotDayTable { warehouse_id: number; day: string; source: string; taken_at: Timestamp }
export interface StorageSnapshotTable {
  id: Id; warehouse_id: number; customer_id: number; day: string; units: Big; pallets: number; volume_cm3: Big; locations_json: string;
}
export interface InvoiceTable {
  id: Id; kind: string; invoice_number: string | null; status: Generated<string>; warehouse_id: number; customer_id: number;
  period_kind: string; period_from: string; period_to: string; currency: string; tax_rate_bp: Generated<number>;
  subtotal_minor: Generated<Big>; tax_minor: Generated<Big>; total_minor: Generated<Big>;
  run_status: Generated<string>; run_step: Generated<number>; run_job_id: number | null; run_message: string | null; unrated_json: Generated<string>;
  credits_invoice_id: number | null; reason: string | null; created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
  finalized_at: Timestamp | null; finalized_by: number | null;
}
export interface InvoiceLineTable {
  id: Id; invoice_id: number; charge_type: string; qualifier: Generated<string>; description: string; quantity: Big; rate_minor: Big | null;
  markup_bp: Generated<number>; amount_minor: Big; is_manual: Generated<number>; reason: string | null; source_count: Generated<number>;
  credits_line_id: number | null; created_by: number | null; created_at: CreatedAt;
  /** What buildLines grouped its charges by (billing.service LINE_KEY_SQL); null on manual and credit-note lines. */
  line_key: Generated<string | null>;
}
export interface BillingChargeTable {
  id: Id; customer_id: number; warehouse_id: number; charge_type: string; qualifier: Generated<string>; charge_key: string;
  source_type: string; source_id: string; source_doc: string | null; day: string; quantity: Big; rate_minor: Big; markup_bp: Generated<number>;
  divisor: Generated<number>; amount_minor: Big; rate_version_id: number | null; invoice_id: number | null;
  reverses_charge_id: number | null; description: string | null; created_by: number | null; created_at: CreatedAt;
}

/** The live accrual's materialisation (migration 0042): the month's candidates up to the mark, counted unrated. */
export interface BillingAccrualMarkTable {
  customer_id: number; warehouse_id: number; month: string; txn_id: Big; event_id: Big; snapshot_id: Big; finals: number; taken_at: Timestamp;
}
export interface BillingAccrualGroupTable {
  customer_id: number; warehouse_id: number; charge_type: string; qualifier: string; day: string; quantity: Big; base_minor: Big | null; n: Big;
}

/** Tables of billing (migration 0030). Merged into DB in db/schema.ts. */
export interface BillingTables {
  billing_account: BillingAccountTable;
  rate_card_version: RateCardVersionTable;
  rate_card_rate: RateCardRateTable;
  storage_snapshot_day: StorageSnapshotDayTable;
  storage_snapshot: StorageSnapshotTable;
  invoice: InvoiceTable;
  invoice_line: InvoiceLineTable;
  billing_charge: BillingChargeTable;
  billing_accrual_mark: BillingAccrualMarkTable;
  billing_accrual_group: BillingAccrualGroupTable;
}
