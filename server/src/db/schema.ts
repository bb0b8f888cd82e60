import type { ColumnType, Insertable, Selectable, Transaction, Kysely } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from './column-types.js';
import type { CustomerTables } from './tables/customers.js';
import type { CatalogTables } from './tables/catalog.js';
import type { LocationTables } from './tables/locations.js';
import type { InventoryOperationTables } from './tables/inventory-operations.js';
import type { ReceivingTables } from './tables/receiving.js';
import type { DocumentTables } from './tables/documents.js';
import type { JobTables } from './tables/jobs.js';
import type { StockTables } from './tables/stock.js';
import type { OrderTables } from './tables/orders.js';
import type { ApiKeyTables } from './tables/api-keys.js';
import type { KitTables } from './tables/kits.js';
import type { FloorTables } from './tables/floor.js';
import type { ShippingTables } from './tables/shipping.js';
import type { BillingTables } from './tables/billing.js';
import type { ReportTables } from './tables/reports.js';
import type { ReturnTables } from './tables/returns.js';
import type { FreightTables } from './tables/freight.js';
import type { HelpDeskTables } from './tables/helpdesk.js';


export interface AppTable { id: number; key: string; name: string; description: string; sort: number }
export interface ModuleTable {
  id: Id; app_id: number; parent_id: number | null; key: string; name: string; url: string | null; sort: number;
}
export interface CountryTable { id: Id; code: string; name: string }
export interface StateTable { id: Id; country_id: number; code: string; name: string }

export interface WarehouseTable {
  id: Id; code: string; name: string;
  address1: string | null; address2: string | null; city: string | null; state: string | null;
  zip: string | null; country: string | null; timezone: string;
  capacity: number; is_active: Flag; created_at: CreatedAt; updated_at: Timestamp;
}

export interface UserTable {
  id: Id; username: string; email: string; password_hash: string;
  first_name: string; last_name: string; phone: string | null; timezone: string;
  role: string; customer_id: number | null; is_active: Flag; email_verified: Flag;
  default_app_id: number | null; password_changed_at: Timestamp;
  created_at: CreatedAt; updated_at: Timestamp;
}
export interface UserModuleTable { user_id: number; module_id: number; permission: string }
export interface UserWarehouseTable { user_id: number; warehouse_id: number }
export interface UserCustomerTable { user_id: number; customer_id: number }

/** One sign-in: the refresh-token family. Revoking it ends every token issued from it. */
export interface AuthSessionTable {
  id: string; user_id: number; created_at: CreatedAt; last_used_at: Timestamp; expires_at: Timestamp;
  revoked_at: Timestamp | null; revoked_reason: string | null; ip: string | null; user_agent: string | null;
  remember: Flag;
}
export interface RefreshTokenTable { id: Id; session_id: string; token_hash: string; created_at: CreatedAt; used_at: Timestamp | null }
export interface PasswordResetTable {
  id: Id; user_id: number; token_hash: string; created_at: CreatedAt; expires_at: Timestamp; used_at: Timestamp | null;
}
export interface EmailPinTable {
  id: Id; user_id: number; pin_hash: string; created_at: CreatedAt; expires_at: Timestamp;
  used_at: Timestamp | null; attempts: number;
}
export interface LoginThrottleTable { key: string; failures: number; window_started_at: Timestamp; blocked_until: Timestamp | null }
export interface MailOutboxTable {
  id: Id; to_address: string; subject: string; body: string; created_at: CreatedAt;
  sent_at: Timestamp | null; attempts: number; error: string | null;
}
export interface AuditLogTable {
  id: Id; at: Timestamp; user_id: number | null; username: string | null; action: string; entity: string;
  entity_id: string | null; warehouse_id: number | null; customer_id: number | null;
  before_json: string | null; after_json: string | null; request_id: string | null; ip: string | null;
}
export interface EventOutboxTable {
  id: Id; name: string; payload_json: string; warehouse_id: number | null; customer_id: number | null; created_at: CreatedAt;
}
export interface IdempotencyKeyTable {
  user_id: number; key: string; method: string; path: string; request_hash: string;
  status_code: number | null; response_json: string | null; created_at: Timestamp;
}

/** Stock on hand per place; '' (not NULL) for no lot / no pallet so the unique key holds on both engines. */
export interface InventoryBalanceTable {
  id: Id; warehouse_id: number; customer_id: number; sku_id: number; location_id: number;
  lot: string; expiry_date: string | null; pallet: string; on_hand: number; allocated: number; updated_at: Timestamp;
  /** When stock first arrived here (carried by moves), for aging; added in 0008. */
  received_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}
/** The append-only ledger: every quantity change, with who, when, why and its document. */
export interface InventoryTxnTable {
  id: Id; at: Timestamp; warehouse_id: number; customer_id: number; sku_id: number; location_id: number;
  lot: string; pallet: string; qty_change: number; txn_type: string; reason: string | null;
  document_type: string | null; document_id: string | null; user_id: number | null;
  /** The document's line a row belongs to, and the warehouse's business day it was posted on (added in 0014). */
  document_line: ColumnType<string | null, string | null | undefined, string | null>;
  business_day: ColumnType<string | null, string | null | undefined, string | null>;
  /** What arriving stock brings to its balance (0014): NULL carries the posting's source's. */
  expiry_date: ColumnType<string | null, string | null | undefined, string | null>;
  received_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** Every table. The foundation's are listed here; each area adds its own through its tables file. */
export interface DB extends CustomerTables, CatalogTables, LocationTables, InventoryOperationTables, ReceivingTables, StockTables, DocumentTables, JobTables, OrderTables, ApiKeyTables, KitTables, FloorTables, ShippingTables, BillingTables, ReportTables, ReturnTables, FreightTables, HelpDeskTables {
  app: AppTable;
  module: ModuleTable;
  country: CountryTable;
  state: StateTable;
  warehouse: WarehouseTable;
  app_user: UserTable;
  user_module: UserModuleTable;
  user_warehouse: UserWarehouseTable;
  user_customer: UserCustomerTable;
  auth_session: AuthSessionTable;
  refresh_token: RefreshTokenTable;
  password_reset: PasswordResetTable;
  email_pin: EmailPinTable;
  login_throttle: LoginThrottleTable;
  mail_outbox: MailOutboxTable;
  audit_log: AuditLogTable;
  event_outbox: EventOutboxTable;
  idempotency_key: IdempotencyKeyTable;
  inventory_balance: InventoryBalanceTable;
  inventory_txn: InventoryTxnTable;
}

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Either the database or an open transaction: repositories take this so callers decide the transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;
export type UserRow = Selectable<UserTable>;
export type NewAuditRow = Insertable<AuditLogTable>;
