import type { Generated } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from '../column-types.js';

/** A client company whose goods the 3PL keeps (created in migration 0001; 0003 adds the contact and rule columns). */
export interface CustomerTable {
  id: Id; code: string; name: string; email: string | null; phone: string | null;
  address1: string | null; city: string | null; state: string | null; zip: string | null; country: string | null;
  is_active: Flag; created_at: CreatedAt; updated_at: Timestamp;
  address2: string | null; contact_person: string | null; billing_email: string | null;
  adjustment_approval_threshold: number | null;
  /** Short orders wait as Backordered (1, the default) or stay Partially Allocated (0) (migration 0020). */
  allow_backorders: Generated<Flag>;
  /** The GS1 company prefix SSCCs are built from (migration 0024); NULL: none. */
  gs1_company_prefix: Generated<string | null>;
}
/** Which warehouses serve a customer. */
export interface CustomerWarehouseTable { customer_id: number; warehouse_id: number }

/** The catalogue of carrier and sales-channel integrations (seeded), and the fields each asks for. */
export type IntegrationKind = 'carrier' | 'channel';
export interface IntegrationTypeTable { id: Id; kind: IntegrationKind; code: string; name: string; sort: number; is_active: Flag }
export interface IntegrationPropertyTable {
  id: Id; integration_type_id: number; key: string; label: string; is_secret: Flag; is_required: Flag; sort: number;
}
/** One customer's account with one integration type (at most one per type). */
export interface CustomerIntegrationTable {
  id: Id; customer_id: number; integration_type_id: number; kind: IntegrationKind; account_name: string; is_active: Flag;
  created_at: CreatedAt; updated_at: Timestamp;
}
/** A property's value; secret ones hold the sealed (AES-256-GCM) text, never the plain secret. */
export interface CustomerIntegrationValueTable { customer_integration_id: number; property_id: number; value: string }

export interface DocumentTypeTable { id: Id; code: string; name: string; sort: number; is_active: Flag }
export interface CustomerDocumentTable {
  id: Id; customer_id: number; document_type_id: number; file_id: number; notes: string | null;
  uploaded_by: string | null; created_at: CreatedAt; updated_at: Timestamp;
}
/** An uploaded file's bytes and what was checked about them (platform/files.ts); any area may refer to one. */
export interface StoredFileTable {
  id: Id; file_name: string; mime_type: string; size_bytes: number; sha256: string; content: Buffer;
  created_by: number | null; created_at: CreatedAt;
}

/** Tables of the customers area (migrations 0001 and 0003). Merged into DB in db/schema.ts. */
export interface CustomerTables {
  customer: CustomerTable;
  customer_warehouse: CustomerWarehouseTable;
  integration_type: IntegrationTypeTable;
  integration_property: IntegrationPropertyTable;
  customer_integration: CustomerIntegrationTable;
  customer_integration_value: CustomerIntegrationValueTable;
  document_type: DocumentTypeTable;
  customer_document: CustomerDocumentTable;
  stored_file: StoredFileTable;
}
