import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The platform: apps and modules, tenancy (warehouses, customers), users and sign-in, audit, outboxes. */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema.createTable('app')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('key', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createTable('module')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('app_id', 'integer', (c) => c.notNull().references('app.id'))
    .addColumn('parent_id', 'integer', (c) => c.references('module.id'))
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('url', 'varchar(100)')
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createTable('country')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('code', 'varchar(2)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .execute();
  await db.schema.createTable('state')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('country_id', 'integer', (c) => c.notNull().references('country.id'))
    .addColumn('code', 'varchar(8)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addUniqueConstraint('state_country_code', ['country_id', 'code'])
    .execute();

  await db.schema.createTable('warehouse')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('address1', 'varchar(200)')
    .addColumn('address2', 'varchar(200)')
    .addColumn('city', 'varchar(100)')
    .addColumn('state', 'varchar(100)')
    .addColumn('zip', 'varchar(20)')
    .addColumn('country', 'varchar(100)')
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(0).check(sql`capacity >= 0`))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createTable('customer')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(150)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('address1', 'varchar(200)')
    .addColumn('city', 'varchar(100)')
    .addColumn('state', 'varchar(100)')
    .addColumn('zip', 'varchar(20)')
    .addColumn('country', 'varchar(100)')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createTable('customer_warehouse')
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addPrimaryKeyConstraint('customer_warehouse_pk', ['customer_id', 'warehouse_id'])
    .execute();
  await db.schema.createIndex('customer_warehouse_wh').on('customer_warehouse').columns(['warehouse_id', 'customer_id']).execute();

  await db.schema.createTable('app_user')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('phone', 'varchar(32)')
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.references('customer.id'))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_app_id', 'integer', (c) => c.references('app.id'))
    .addColumn('password_changed_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('app_user_client_has_customer', sql`role <> 'Client' OR customer_id IS NOT NULL`)
    .execute();
  await db.schema.createTable('user_module')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('module_id', 'integer', (c) => c.notNull().references('module.id'))
    .addColumn('permission', 'varchar(8)', (c) => c.notNull().check(sql`permission IN ('read','write')`))
    .addPrimaryKeyConstraint('user_module_pk', ['user_id', 'module_id'])
    .execute();
  await db.schema.createTable('user_warehouse')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull().references('warehouse.id'))
    .addPrimaryKeyConstraint('user_warehouse_pk', ['user_id', 'warehouse_id'])
    .execute();
  await db.schema.createTable('user_customer')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addPrimaryKeyConstraint('user_customer_pk', ['user_id', 'customer_id'])
    .execute();

  await db.schema.createTable('auth_session')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('last_used_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .addColumn('revoked_reason', 'varchar(64)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(255)')
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('auth_session_user').on('auth_session').column('user_id').execute();
  await db.schema.createTable('refresh_token')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull().references('auth_session.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('used_at', ts)
    .execute();
  await db.schema.createIndex('refresh_token_session').on('refresh_token').column('session_id').execute();
  for (const table of ['password_reset', 'email_pin'] as const) {
    let t = db.schema.createTable(table)
      .addColumn('id', 'integer', (c) => d.identity(c))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn(table === 'password_reset' ? 'token_hash' : 'pin_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('used_at', ts);
    if (table === 'email_pin') t = t.addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0));
    await t.execute();
    await db.schema.createIndex(`${table}_user`).on(table).column('user_id').execute();
  }
  await db.schema.createTable('login_throttle')
    .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', ts, (c) => c.notNull())
    .addColumn('blocked_until', ts)
    .execute();

  await db.schema.createTable('mail_outbox')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('sent_at', ts)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'varchar(500)')
    .execute();
  await db.schema.createTable('audit_log')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('at', ts, (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(100)')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('entity', 'varchar(64)', (c) => c.notNull())
    .addColumn('entity_id', 'varchar(64)')
    .addColumn('warehouse_id', 'integer')
    .addColumn('customer_id', 'integer')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('request_id', 'varchar(64)')
    .addColumn('ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_entity').on('audit_log').columns(['entity', 'entity_id']).execute();
  await db.schema.createIndex('audit_log_user').on('audit_log').columns(['user_id', 'at']).execute();
  await db.schema.createTable('event_outbox')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('warehouse_id', 'integer')
    .addColumn('customer_id', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createTable('idempotency_key')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('method', 'varchar(8)', (c) => c.notNull())
    .addColumn('path', 'varchar(500)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_json', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_key_pk', ['user_id', 'key'])
    .execute();
}
