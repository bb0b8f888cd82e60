import type { Generated } from 'kysely';
import type { CreatedAt, Flag, Id, Timestamp } from '../column-types.js';

/** A storage or handling place in a warehouse (created in migration 0002; 0005 adds description, weight and pickable). */
export interface LocationTable {
  id: Id; warehouse_id: number; code: string; type: string; zone: string | null; aisle: string | null;
  rack: string | null; level: string | null; bin: string | null; capacity: number; is_active: Flag;
  description: string | null; max_weight_kg: number | null; /** Defaults to 1, so older inserts (seed, helpers) need not name it. */
  is_pickable: Generated<Flag>;
  created_at: CreatedAt; updated_at: Timestamp;
}

/** A kind of location: 'storage' (rack, shelf, zone, aisle) or 'other' (staging, dock, returns, quarantine). */
export interface LocationTypeTable {
  id: Id; code: string; name: string; category: string; sort: number;
}

/** Tables of the locations area (migrations 0002 and 0005). Merged into DB in db/schema.ts. */
export interface LocationTables {
  location: LocationTable;
  location_type: LocationTypeTable;
}
