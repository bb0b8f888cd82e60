import type { Generated } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from '../column-types.js';

/** A carrier account's rate table (migration 0027): contracts' rateTableDefinition as JSON. */
export interface CarrierRateTableTable {
  id: Id; carrier_account_id: number; customer_id: number; definition: string; updated_by: number | null;
  created_at: CreatedAt; updated_at: Timestamp;
}
/** A parcel shipment: an order's cartons (kind order), a shipment made by hand (manual) or an RMA's return label (return) with one carrier service. */
export interface ShipmentTable {
  id: Id; shipment_number: string; kind: string; warehouse_id: number; customer_id: number; order_id: number | null;
  carrier_account_id: number | null; adapter: string | null; service_code: string | null; service_name: string | null;
  status: Generated<string>; residential: Generated<Flag>; reference: string | null;
  ship_to_name: string | null; ship_to_address1: string | null; ship_to_address2: string | null; ship_to_city: string | null;
  ship_to_state: string | null; ship_to_zip: string | null; ship_to_country: string | null;
  rate_minor: number | null; currency: Generated<string>; rate_reason: string | null; exception: string | null;
  ship_day: string | null; manifest_id: number | null; rma_id: number | null; created_by: number | null;
  created_at: CreatedAt; updated_at: Timestamp; labelled_at: Timestamp | null; shipped_at: Timestamp | null; closed_at: Timestamp | null;
}
/** A package of a shipment (a carton): its SSCC, tracking number and charge; a voided label keeps its row. */
export interface ShipmentPackageTable {
  id: Id; shipment_id: number; package_no: number; carton_id: number | null; sscc: string | null; tracking_number: string | null;
  weight_kg: number | null; length_cm: number | null; width_cm: number | null; height_cm: number | null; billed_kg: number | null;
  charge_minor: number | null; voided: Generated<Flag>; voided_at: Timestamp | null; created_at: CreatedAt;
}
/** A line a manual shipment took from stock (migration 0035): the place it came from and how many. */
export interface ShipmentLineTable {
  id: Id; shipment_id: number; line_no: number; sku_id: number; location_id: number; lot: string; pallet: string; quantity: number;
}
/** An end-of-day close of one carrier account in one warehouse: its shipments and totals. */
export interface ManifestTable {
  id: Id; manifest_number: string; warehouse_id: number; customer_id: number; carrier_account_id: number; business_day: string;
  shipment_count: number; package_count: number; total_weight_kg: number; total_charge_minor: number; currency: string;
  closed_by: number | null; closed_by_name: string | null; closed_at: CreatedAt;
}

/** Tables of parcel shipping (migration 0027). Merged into DB in db/schema.ts. */
export interface ShippingTables {
  carrier_rate_table: CarrierRateTableTable;
  shipment: ShipmentTable;
  shipment_package: ShipmentPackageTable;
  shipment_line: ShipmentLineTable;
  manifest: ManifestTable;
}
