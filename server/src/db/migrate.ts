import { Migrator, type Migration, type MigrationProvider, type Kysely } from 'kysely';
import type { Dialect } from './dialect.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_catalog_inventory.js';
import * as m0003 from './migrations/0003_customers.js';
import * as m0004 from './migrations/0004_catalog.js';
import * as m0005 from './migrations/0005_locations.js';
import * as m0006 from './migrations/0006_user_indexes.js';
import * as m0007 from './migrations/0007_receiving.js';
import * as m0008 from './migrations/0008_inventory_operations.js';
import * as m0009 from './migrations/0009_stock_list_index.js';
import * as m0010 from './migrations/0010_adjustment_posted.js';
import * as m0011 from './migrations/0011_stock_list_lead_indexes.js';
import * as m0012 from './migrations/0012_search_trigrams.js';
import * as m0013 from './migrations/0013_receiving_line_lots.js';
import * as m0014 from './migrations/0014_stock_engine.js';
import * as m0015 from './migrations/0015_documents_platform.js';
import * as m0016 from './migrations/0016_jobs.js';
import * as m0017 from './migrations/0017_orders.js';
import * as m0018 from './migrations/0018_api_keys.js';
import * as m0020 from './migrations/0020_allocation.js';
import * as m0021 from './migrations/0021_kits.js';
import * as m0022 from './migrations/0022_order_intake.js';
import * as m0023 from './migrations/0023_floor.js';

type Step = { up(db: Kysely<any>, d: Dialect): Promise<void> };
/** Every migration in order. A new one is appended here; a landed one is never edited. */
const STEPS: Record<string, Step> = {
  '0001_foundation': m0001,
  '0002_catalog_inventory': m0002,
  '0003_customers': m0003,
  '0004_catalog': m0004,
  '0005_locations': m0005,
  '0006_user_indexes': m0006,
  '0007_receiving': m0007,
  '0008_inventory_operations': m0008,
  '0009_stock_list_index': m0009,
  '0010_adjustment_posted': m0010,
  '0011_stock_list_lead_indexes': m0011,
  '0012_search_trigrams': m0012,
  '0013_receiving_line_lots': m0013,
  '0014_stock_engine': m0014,
  '0015_documents_platform': m0015,
  '0016_jobs': m0016,
  '0017_orders': m0017,
  '0018_api_keys': m0018,
  '0020_allocation': m0020,
  '0021_kits': m0021,
  '0022_order_intake': m0022,
  '0023_floor': m0023,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(STEPS).map(([name, step]) => [name, { up: (db: Kysely<any>) => step.up(db, this.dialect) }]),
    );
  }
}

/** Brings the schema up to date; throws on the first failing migration (which is rolled back). */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect, pgSchema?: string): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect), migrationTableSchema: pgSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
