import type { Generated } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from '../column-types.js';

/** A client's stock-keeping unit (created in migration 0002; columns from category on added in 0004). */
export interface SkuTable {
  id: Id; customer_id: number; sku_code: string; description: string; uom: string; upc: string | null;
  is_kit: Flag; is_active: Flag; weight_kg: number | null; length_cm: number | null; width_cm: number | null;
  height_cm: number | null; created_at: CreatedAt; updated_at: Timestamp;
  category: string | null; min_qty: number | null; max_qty: number | null;
  is_lot_tracked: Generated<Flag>; is_expiry_tracked: Generated<Flag>; shelf_life_days: number | null; abc_class: string | null;
  /** Hazmat: the UN class/division, the UN number ('UN' + 4 digits) and the packing group (I, II, III). */
  hazmat_id: number | null; un_number: string | null; packing_group: string | null;
}

/** Units of measure (reference list, seeded). */
export interface UomTable { code: string; name: string; sort: number }

/** UN hazard classes and divisions (reference list, seeded); packing_groups is 'I,II,III' or ''. */
export interface HazmatTable {
  id: Id; class_code: string; hazard_class: number; division: string | null; name: string; packing_groups: string;
}

/** One component of a kit SKU: quantity of component_sku_id per kit. Kit and component share the customer. */
export interface KitComponentTable {
  id: Id; customer_id: number; kit_sku_id: number; component_sku_id: number; quantity: number;
  created_at: CreatedAt; updated_at: Timestamp;
}

/** A packaging level of a SKU; parent_id makes the hierarchy (quantity = how many make one parent). */
export interface SkuPackageTable {
  id: Id; customer_id: number; sku_id: number; parent_id: number | null; package_type: string; package_name: string;
  quantity: number; length_cm: number | null; width_cm: number | null; height_cm: number | null; weight_kg: number | null;
  gtin: string | null; created_at: CreatedAt; updated_at: Timestamp;
}

/** A barcode that identifies a SKU; unique per customer. */
export interface SkuBarcodeTable {
  id: Id; customer_id: number; sku_id: number; barcode: string; barcode_type: string; created_at: CreatedAt; updated_at: Timestamp;
}

/** A name/value attribute of a SKU; one value per name. */
export interface SkuAttributeTable {
  id: Id; customer_id: number; sku_id: number; name: string; value: string; created_at: CreatedAt; updated_at: Timestamp;
}

/** Tables of the catalog area (migrations 0002 and 0004). Merged into DB in db/schema.ts. */
export interface CatalogTables {
  sku: SkuTable;
  uom: UomTable;
  hazmat: HazmatTable;
  kit_component: KitComponentTable;
  sku_package: SkuPackageTable;
  sku_barcode: SkuBarcodeTable;
  sku_attribute: SkuAttributeTable;
}
