import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The SKU and user lists' search box matches text anywhere in several columns (ILIKE '%…%'), which no b-tree
 * helps: over 100,000 SKUs the total of a search read every row (bench: masterdata). On PostgreSQL, trigram
 * indexes answer those conditions (a BitmapOr over the searched columns). They need the pg_trgm extension:
 * used where installed, created in `public` where we may (it is a trusted extension); where we may not, the
 * lists stay correct, only slower. SQLite has no such index for LIKE; it keeps scanning.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.engine !== 'postgres') return;
  const schema = await trigramSchema(db);
  if (!schema) return;
  const ops = sql.raw(`"${schema.replaceAll('"', '""')}".gin_trgm_ops`);
  await sql`CREATE INDEX sku_search_trgm ON sku USING gin (sku_code ${ops}, description ${ops}, upc ${ops}, category ${ops})`.execute(db);
  await sql`CREATE INDEX app_user_search_trgm ON app_user USING gin (username ${ops}, email ${ops}, first_name ${ops}, last_name ${ops})`.execute(db);
}

/** The schema holding pg_trgm, installing it in `public` if it is missing and we may; null if we may not. */
async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  const installed = async () => (await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'
  `.execute(db)).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  // Migrations run in one transaction: a refused CREATE EXTENSION must not abort it.
  await sql`SAVEPOINT pg_trgm`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public`.execute(db);
    await sql`RELEASE SAVEPOINT pg_trgm`.execute(db);
    return 'public';
  } catch {
    await sql`ROLLBACK TO SAVEPOINT pg_trgm`.execute(db);
    return installed(); // another migration may have installed it meanwhile
  }
}
