import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * A customer's API keys (issue 12 item 2): `bolx_<prefix>_<secret>`; the prefix is stored to find and show the
 * key, the secret only as its SHA-256. Revoked keys stay (who revoked, when) for the audit trail.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema.createTable('customer_api_key')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('key_prefix', 'varchar(8)', (c) => c.notNull().unique())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('last_used_at', ts)
    .addColumn('revoked_at', ts)
    .addColumn('revoked_by', 'integer', (c) => c.references('app_user.id'))
    .execute();
  await db.schema.createIndex('customer_api_key_customer').on('customer_api_key').columns(['customer_id', 'created_at']).execute();
}
