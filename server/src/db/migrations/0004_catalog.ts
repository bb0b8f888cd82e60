import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Units of measure a SKU may be kept in (GetUOMs). */
const UOMS: [string, string][] = [
  ['EA', 'Each'], ['PR', 'Pair'], ['DZ', 'Dozen'], ['ST', 'Set'], ['PK', 'Pack'], ['BX', 'Box'], ['CS', 'Case'], ['CT', 'Carton'],
  ['BG', 'Bag'], ['RL', 'Roll'], ['PL', 'Pallet'], ['KG', 'Kilogram'], ['G', 'Gram'], ['LB', 'Pound'], ['OZ', 'Ounce'],
  ['L', 'Litre'], ['ML', 'Millilitre'], ['GAL', 'Gallon'], ['M', 'Metre'], ['CM', 'Centimetre'], ['FT', 'Foot'], ['M2', 'Square metre'],
];

const PG = 'I,II,III';
/** UN hazard classes 1–9 with their divisions, and the packing groups each one uses (none for 1, 2, 6.2 and 7). */
const HAZMATS: [code: string, klass: number, division: string | null, name: string, packingGroups: string][] = [
  ['1.1', 1, '1.1', 'Explosives with a mass explosion hazard', ''],
  ['1.2', 1, '1.2', 'Explosives with a projection hazard', ''],
  ['1.3', 1, '1.3', 'Explosives with a fire hazard and minor blast or projection hazard', ''],
  ['1.4', 1, '1.4', 'Explosives presenting no significant hazard', ''],
  ['1.5', 1, '1.5', 'Very insensitive substances with a mass explosion hazard', ''],
  ['1.6', 1, '1.6', 'Extremely insensitive articles', ''],
  ['2.1', 2, '2.1', 'Flammable gases', ''],
  ['2.2', 2, '2.2', 'Non-flammable, non-toxic gases', ''],
  ['2.3', 2, '2.3', 'Toxic gases', ''],
  ['3', 3, null, 'Flammable liquids', PG],
  ['4.1', 4, '4.1', 'Flammable solids, self-reactive substances and solid desensitized explosives', PG],
  ['4.2', 4, '4.2', 'Substances liable to spontaneous combustion', PG],
  ['4.3', 4, '4.3', 'Substances which, in contact with water, emit flammable gases', PG],
  ['5.1', 5, '5.1', 'Oxidizing substances', PG],
  ['5.2', 5, '5.2', 'Organic peroxides', ''],
  ['6.1', 6, '6.1', 'Toxic substances', PG],
  ['6.2', 6, '6.2', 'Infectious substances', ''],
  ['7', 7, null, 'Radioactive material', ''],
  ['8', 8, null, 'Corrosive substances', PG],
  ['9', 9, null, 'Miscellaneous dangerous substances and articles', PG],
];

/**
 * The catalog area: the SKU's further columns (category, stock rules, tracking, hazmat) and the tables under a
 * SKU — kit components, the package hierarchy, barcodes, attributes — plus the UOM and hazmat reference lists.
 * Every child row carries customer_id so the one scope helper holds it to the caller without a join.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  const now = d.engine === 'postgres' ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema.createTable('uom')
    .addColumn('code', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('uom').values(UOMS.map(([code, name], i) => ({ code, name, sort: i + 1 }))).execute();

  await db.schema.createTable('hazmat')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('class_code', 'varchar(8)', (c) => c.notNull().unique())
    .addColumn('hazard_class', 'integer', (c) => c.notNull())
    .addColumn('division', 'varchar(8)')
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('packing_groups', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.insertInto('hazmat').values(HAZMATS.map(([class_code, hazard_class, division, name, packing_groups]) =>
    ({ class_code, hazard_class, division, name, packing_groups }))).execute();

  // SQLite adds one column per ALTER; the same statements run on PostgreSQL.
  const skuColumns: [string, string, ((c: any) => any)?][] = [
    ['category', 'varchar(64)'],
    ['min_qty', 'integer'],
    ['max_qty', 'integer'],
    ['is_lot_tracked', 'integer', (c) => c.notNull().defaultTo(0)],
    ['is_expiry_tracked', 'integer', (c) => c.notNull().defaultTo(0)],
    ['shelf_life_days', 'integer'],
    ['abc_class', 'varchar(1)'],
    ['hazmat_id', 'integer', (c) => c.references('hazmat.id')],
    ['un_number', 'varchar(6)'],
    ['packing_group', 'varchar(3)'],
  ];
  for (const [name, type, build] of skuColumns) {
    await db.schema.alterTable('sku').addColumn(name, type as any, build ?? ((c) => c)).execute();
  }
  // Indexes for every filter and sort GetAllSkus offers (customer and code are covered by the unique key).
  await db.schema.createIndex('sku_by_category').on('sku').columns(['category', 'id']).execute();
  await db.schema.createIndex('sku_by_description').on('sku').columns(['description', 'id']).execute();
  await db.schema.createIndex('sku_by_code').on('sku').columns(['sku_code', 'id']).execute();
  await db.schema.createIndex('sku_by_created').on('sku').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('sku_customer_flags').on('sku').columns(['customer_id', 'is_kit', 'is_active']).execute();

  await db.schema.createTable('kit_component')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('kit_sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('component_sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('kit_component_pair', ['kit_sku_id', 'component_sku_id'])
    .addCheckConstraint('kit_component_quantity_positive', sql`quantity > 0`)
    .addCheckConstraint('kit_component_not_itself', sql`kit_sku_id <> component_sku_id`)
    .execute();
  await db.schema.createIndex('kit_component_component').on('kit_component').columns(['component_sku_id']).execute();

  await db.schema.createTable('sku_package')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('parent_id', 'integer', (c) => c.references('sku_package.id'))
    .addColumn('package_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('package_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('length_cm', 'real')
    .addColumn('width_cm', 'real')
    .addColumn('height_cm', 'real')
    .addColumn('weight_kg', 'real')
    .addColumn('gtin', 'varchar(14)')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('sku_package_quantity_positive', sql`quantity > 0`)
    .addCheckConstraint('sku_package_not_own_parent', sql`parent_id IS NULL OR parent_id <> id`)
    // NULLs are distinct on both engines, so packages without a GTIN never collide.
    .addUniqueConstraint('sku_package_customer_gtin', ['customer_id', 'gtin'])
    .execute();
  await db.schema.createIndex('sku_package_sku').on('sku_package').columns(['sku_id', 'id']).execute();
  await db.schema.createIndex('sku_package_parent').on('sku_package').columns(['parent_id']).execute();
  await db.schema.createIndex('sku_package_customer').on('sku_package').columns(['customer_id', 'id']).execute();

  await db.schema.createTable('sku_barcode')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('barcode', 'varchar(64)', (c) => c.notNull())
    .addColumn('barcode_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('sku_barcode_customer_code', ['customer_id', 'barcode'])
    .execute();
  await db.schema.createIndex('sku_barcode_sku').on('sku_barcode').columns(['sku_id']).execute();

  await db.schema.createTable('sku_attribute')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customer.id'))
    .addColumn('sku_id', 'integer', (c) => c.notNull().references('sku.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('value', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('sku_attribute_name', ['sku_id', 'name'])
    .execute();
}
