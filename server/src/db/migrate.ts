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
import * as m0024 from './migrations/0024_activity.js';
import * as m0025 from './migrations/0025_floor_indexes.js';
import * as m0027 from './migrations/0027_shipping.js';
import * as m0028 from './migrations/0028_freight.js';
import * as m0029 from './migrations/0029_returns.js';
import * as m0030 from './migrations/0030_billing.js';
import * as m0031 from './migrations/0031_reports_labour.js';
import * as m0032 from './migrations/0032_helpdesk.js';
import * as m0033 from './migrations/0033_pallets.js';
import * as m0035 from './migrations/0035_manual_shipping.js';
import * as m0037 from './migrations/0037_billing_ledger_index.js';
import * as m0038 from './migrations/0038_report_jobs.js';
import * as m0040 from './migrations/0040_report_indexes.js';
import * as m0041 from './migrations/0041_ticket_freight_links.js';
import * as m0042 from './migrations/0042_billing_accrual.js';
import * as m0045 from './migrations/0045_report_rollups.js';
import * as m0046 from './migrations/0046_billing_partial_indexes.js';
import * as m0047 from './migrations/0047_duplicate_prefix_indexes.js';
import * as m0048 from './migrations/0048_sql_refusal.js';
import * as m0049 from './migrations/0049_arrival_expiry_fallback.js';
import * as m0050 from './migrations/0050_arrival_source_same_lot.js';

type Step = { up(db: Kysely<any>, d: Dialect): Promise<void> };
/** Every migration in order. A new one is appended here; a landed one is never edited. */
export const STEPS: Record<string, Step> = {
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
  '0024_activity': m0024,
  '0025_floor_indexes': m0025,
  '0027_shipping': m0027,
  '0028_freight': m0028,
  '0029_returns': m0029,
  '0030_billing': m0030,
  '0031_reports_labour': m0031,
  '0032_helpdesk': m0032,
  '0033_pallets': m0033,
  '0035_manual_shipping': m0035,
  '0037_billing_ledger_index': m0037,
  '0038_report_jobs': m0038,
  '0040_report_indexes': m0040,
  '0041_ticket_freight_links': m0041,
  '0042_billing_accrual': m0042,
  '0045_report_rollups': m0045,
  '0046_billing_partial_indexes': m0046,
  '0047_duplicate_prefix_indexes': m0047,
  '0048_sql_refusal': m0048,
  '0049_arrival_expiry_fallback': m0049,
  '0050_arrival_source_same_lot': m0050,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect, private readonly later: string[]) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const steps = Object.entries(STEPS).map(([name, step]) => [name, { up: (db: Kysely<any>) => step.up(db, this.dialect) }] as const);
    // A later release's steps, already run by its nodes: known by name only, never run from here.
    const later = this.later.map((name) => [name, { up: async () => { throw new Error(`${name} is a later release's migration`); } }] as const);
    return Object.fromEntries([...steps, ...later]);
  }
}

/**
 * The steps a later release's nodes have already run here, which this release does not know: during a rolling
 * upgrade a node of the previous release may (re)start on a schema the new one expanded, and must serve on it
 * rather than refuse (Kysely refuses a database with a step it does not know).
 */
async function laterSteps(db: Kysely<any>, pgSchema?: string): Promise<string[]> {
  try {
    const rows = await (pgSchema ? db.withSchema(pgSchema) : db).selectFrom('kysely_migration').select('name').execute();
    return rows.map((r: { name: string }) => r.name).filter((name: string) => !(name in STEPS));
  } catch {
    return []; // a new database: no bookkeeping table yet
  }
}

/**
 * Brings the schema up to date — or, given `upTo` (a step's name), to that step, as an older release left it
 * (upgrade tests); throws on the first failing migration (which is rolled back).
 */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect, pgSchema?: string, upTo?: string): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect, await laterSteps(db, pgSchema)), migrationTableSchema: pgSchema });
  const { error, results } = await (upTo ? migrator.migrateTo(upTo) : migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
