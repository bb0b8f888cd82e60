import type { CreatedAt, Id, Timestamp } from '../column-types.js';

/** A customer's API key (migration 0018): the prefix shown and looked up, the secret's SHA-256, never the secret. */
export interface CustomerApiKeyTable {
  id: Id; customer_id: number; name: string; key_prefix: string; key_hash: string;
  created_by: number | null; created_at: CreatedAt; last_used_at: Timestamp | null;
  revoked_at: Timestamp | null; revoked_by: number | null;
}

export interface ApiKeyTables {
  customer_api_key: CustomerApiKeyTable;
}
