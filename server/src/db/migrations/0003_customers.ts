import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Each seeded integration type and the fields it asks for: [key, label, secret?, required?]. */
type PropertySeed = [key: string, label: string, secret: boolean, required: boolean];
const CARRIERS: [code: string, name: string, PropertySeed[]][] = [
  ['UPS', 'UPS', [['accountNumber', 'Account Number', false, true], ['clientId', 'Client ID', false, true], ['clientSecret', 'Client Secret', true, true]]],
  ['FEDEX', 'FedEx', [['accountNumber', 'Account Number', false, true], ['meterNumber', 'Meter Number', false, false], ['apiKey', 'API Key', true, true], ['apiSecret', 'API Secret', true, true]]],
  ['USPS', 'USPS', [['userId', 'User ID', false, true], ['crid', 'Customer Registration ID (CRID)', false, false], ['apiKey', 'API Key', true, true], ['apiSecret', 'API Secret', true, true]]],
  ['DHL_EXPRESS', 'DHL Express', [['accountNumber', 'Account Number', false, true], ['siteId', 'Site ID', false, true], ['password', 'Password', true, true]]],
];
const CHANNELS: [code: string, name: string, PropertySeed[]][] = [
  ['SHOPIFY', 'Shopify', [['storeUrl', 'Store URL', false, true], ['apiKey', 'API Key', false, true], ['accessToken', 'Admin API Access Token', true, true]]],
  ['AMAZON', 'Amazon', [['sellerId', 'Seller ID', false, true], ['marketplaceId', 'Marketplace ID', false, true], ['refreshToken', 'Refresh Token', true, true], ['clientSecret', 'LWA Client Secret', true, true]]],
  ['WOOCOMMERCE', 'WooCommerce', [['storeUrl', 'Store URL', false, true], ['consumerKey', 'Consumer Key', false, true], ['consumerSecret', 'Consumer Secret', true, true]]],
  ['EBAY', 'eBay', [['appId', 'App ID', false, true], ['certId', 'Cert ID', true, true], ['userToken', 'User Token', true, true]]],
];
const DOCUMENT_TYPES: [code: string, name: string][] = [
  ['CONTRACT', 'Contract'], ['RATE_SHEET', 'Rate Sheet'], ['INSURANCE', 'Insurance Certificate'], ['W9', 'W-9'],
  ['SOP', 'SOP'], ['OTHER', 'Other'],
];

/**
 * The customers area: more customer columns, the carrier / sales-channel integration catalogue and each
 * customer's accounts (secret values sealed by platform/crypto.ts), document types, customer documents and
 * the platform's stored files.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  // SQLite adds one column per ALTER TABLE.
  await db.schema.alterTable('customer').addColumn('address2', 'varchar(200)').execute();
  await db.schema.alterTable('customer').addColumn('contact_person', 'varchar(150)').execute();
  await db.schema.alterTable('customer').addColumn('billing_email', 'varchar(254)').execute();
  await db.schema.alterTable('customer').addColumn('adjustment_approval_threshold', 'integer').execute();
  // The customer list's filters and sorts.
  await db.schema.createIndex('customer_name').on('customer').columns(['name', 'id']).execute();
  await db.schema.createIndex('customer_city').on('customer').columns(['city', 'id']).execute();
  await db.schema.createIndex('customer_country').on('customer').columns(['country', 'name']).execute();
  await db.schema.createIndex('customer_active').on('customer').columns(['is_active', 'name']).execute();
  await db.schema.createIndex('customer_created').on('customer').columns(['created_at', 'id']).execute();

  await db.schema.createTable('integration_type')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind IN ('carrier','channel')`))
    .addColumn('code', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('integration_type_kind_code', ['kind', 'code'])
    .execute();
  await db.schema.createTable('integration_property')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('integration_type_id', 'integer', (c) => c.notNull().references('integration_type.id'))
    .addColumn('key', 'varchar(64)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)', (c) => c.notNull())
    .addColumn('is_secret', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addUniqueConstraint('integration_property_type_key', ['integration_type_id', 'key'])
    .execute();
  await db.schema.createTable('customer_integration')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('integration_type_id', 'integer', (c) => c.notNull().references('integration_type.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull().check(sql`kind IN ('carrier','channel')`))
    .addColumn('account_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('customer_integration_one_per_type', ['customer_id', 'integration_type_id'])
    .execute();
  await db.schema.createIndex('customer_integration_kind').on('customer_integration').columns(['customer_id', 'kind']).execute();
  await db.schema.createTable('customer_integration_value')
    .addColumn('customer_integration_id', 'integer', (c) => c.notNull().references('customer_integration.id').onDelete('cascade'))
    .addColumn('property_id', 'integer', (c) => c.notNull().references('integration_property.id'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('customer_integration_value_pk', ['customer_integration_id', 'property_id'])
    .execute();

  await db.schema.createTable('document_type')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createTable('stored_file')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('mime_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull().check(sql`size_bytes >= 0`))
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('content', d.engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createTable('customer_document')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('document_type_id', 'integer', (c) => c.notNull().references('document_type.id'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('stored_file.id'))
    .addColumn('notes', 'varchar(1000)')
    .addColumn('uploaded_by', 'varchar(100)')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('customer_document_customer').on('customer_document').columns(['customer_id', 'created_at']).execute();

  await seedIntegrations(db, 'carrier', CARRIERS);
  await seedIntegrations(db, 'channel', CHANNELS);
  await db.insertInto('document_type').values(DOCUMENT_TYPES.map(([code, name], i) => ({ code, name, sort: i + 1 }))).execute();
}

async function seedIntegrations(db: Kysely<any>, kind: 'carrier' | 'channel', types: [string, string, PropertySeed[]][]) {
  for (const [i, [code, name, properties]] of types.entries()) {
    const { id } = await db.insertInto('integration_type').values({ kind, code, name, sort: i + 1 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('integration_property').values(properties.map(([key, label, secret, required], p) => ({
      integration_type_id: id, key, label, is_secret: secret ? 1 : 0, is_required: required ? 1 : 0, sort: p + 1,
    }))).execute();
  }
}
