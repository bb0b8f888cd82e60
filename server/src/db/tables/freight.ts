import type { Generated } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from '../column-types.js';

/** An LTL freight shipment (migration 0028): one customer's orders from one warehouse to a consignee. Money in minor units. */
export interface FreightShipmentTable {
  id: Id; ship_number: string; bol_number: string; warehouse_id: number; customer_id: number; status: Generated<string>;
  consignee_name: string; consignee_address1: string; consignee_address2: string | null; consignee_city: string; consignee_state: string;
  consignee_zip: string; consignee_country: string; consignee_phone: string | null; consignee_location_number: string | null;
  bill_to_name: string | null; bill_to_address1: string | null; bill_to_address2: string | null; bill_to_city: string | null; bill_to_state: string | null;
  bill_to_zip: string | null; bill_to_country: string | null; bill_to_phone: string | null; bill_to_location_number: string | null;
  carrier_name: string; scac: string; pro_number: string | null; trailer_number: string | null; seal_number: string | null; charge_terms: string;
  cod_amount_minor: number | null; declared_value_minor: number | null; declared_value_per: string | null; special_instructions: string | null;
  pickup_date: string | null; pickup_window_from: string | null; pickup_window_to: string | null; dock_door: string | null;
  picked_up_at: Generated<Timestamp | null>; delivered_at: Generated<Timestamp | null>;
  pod_file_id: Generated<number | null>; pod_signed_by: Generated<string | null>; pod_signed_at: Generated<Timestamp | null>;
  created_by: number | null; created_at: CreatedAt; updated_at: Timestamp;
}
export interface FreightShipmentOrderTable { id: Id; shipment_id: number; order_id: number }
/** A handling unit (pallet, skid, crate…) of a shipment: what the carrier counts, weighs and classes. */
export interface FreightHandlingUnitTable {
  id: Id; shipment_id: number; line_no: number; order_id: number | null; handling_type: string; handling_qty: number; package_type: string;
  pieces: number; weight_kg: number; length_cm: number; width_cm: number; height_cm: number; freight_class: string; nmfc_item: string | null;
  description: string; hazmat: Flag; un_number: string | null; sscc: string | null;
}

/** Tables of the freight area (migration 0028). Merged into DB in db/schema.ts. */
export interface FreightTables {
  freight_shipment: FreightShipmentTable;
  freight_shipment_order: FreightShipmentOrderTable;
  freight_handling_unit: FreightHandlingUnitTable;
}
