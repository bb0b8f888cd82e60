import { sql, type RawBuilder, type SqlBool, type Expression } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { skuCodeMatches } from '../../platform/sku-codes.js';

/** What the scan statement answers, one row per hit; columns a kind does not use are null. */
export interface ScanHitRow {
  /** sku: a SKU match; package: one package level of a SKU matched by GTIN; location; pallet: one balance line. */
  kind: 'sku' | 'package' | 'location' | 'pallet';
  rank: number;
  matched_by: 'sku' | 'upc' | 'barcode' | 'gtin' | null;
  sku_id: number | null; customer_id: number | null; customer_name: string | null; sku_code: string | null; description: string | null;
  uom: string | null; is_active: number | null; is_lot_tracked: number | null; is_expiry_tracked: number | null;
  package_id: number | null; parent_id: number | null; quantity: number | null; package_name: string | null;
  location_id: number | null; location_code: string | null; location_type: string | null; zone: string | null;
  lot: string | null; expiry_date: string | null; on_hand: number | null; allocated: number | null;
}

type Column = keyof Omit<ScanHitRow, 'kind' | 'rank'>;
const INT = 'integer';
const TEXT = 'varchar(255)';
const COLUMNS: [Column, typeof INT | typeof TEXT][] = [
  ['matched_by', TEXT], ['sku_id', INT], ['customer_id', INT], ['customer_name', TEXT], ['sku_code', TEXT], ['description', TEXT],
  ['uom', TEXT], ['is_active', INT], ['is_lot_tracked', INT], ['is_expiry_tracked', INT],
  ['package_id', INT], ['parent_id', INT], ['quantity', INT], ['package_name', TEXT],
  ['location_id', INT], ['location_code', TEXT], ['location_type', TEXT], ['zone', TEXT],
  ['lot', TEXT], ['expiry_date', TEXT], ['on_hand', INT], ['allocated', INT],
];

/**
 * One branch of the scan's UNION ALL: every column in the same order, typed NULL where the branch has none
 * (PostgreSQL types a union's columns from its branches; an untyped NULL in each would be text).
 */
function branch(kind: ScanHitRow['kind'], rank: number | RawBuilder<number>, values: Partial<Record<Column, RawBuilder<unknown>>>, from: RawBuilder<unknown>) {
  const cols = COLUMNS.map(([name, type]) => sql`${values[name] ?? sql`cast(null as ${sql.raw(type)})`} as ${sql.ref(name)}`);
  return sql`select ${sql.lit(kind)} as kind, ${typeof rank === 'number' ? sql.lit(rank) : rank} as rank, ${sql.join(cols)} ${from}`;
}

const ref = (c: string) => sql.ref(c);

export const scanRepository = {
  /**
   * Everything a code can be in a warehouse, in one statement: the SKUs of the clients in `customers` (the
   * caller's scope, served by the warehouse) whose code, UPC, barcode or package GTIN it is — with every package
   * level of a GTIN-matched SKU, to count a level's units — the warehouse's location of that code, and the
   * balance lines of the pallet of that licence plate. SKU codes and location codes match in any case (both are
   * stored upper case or compared so); UPCs, barcodes, GTINs and pallets exactly, as scanned. With `ownLocationsOnly`
   * (a client account) a location counts only while it holds the client's stock, as its location list shows them.
   */
  async hits(db: Executor, p: { warehouseId: number; code: string; customers: (column: string) => Expression<SqlBool>; ownLocationsOnly: boolean }): Promise<ScanHitRow[]> {
    const { warehouseId, code } = p;
    const upper = code.toUpperCase();
    const served = (column: string) => sql<SqlBool>`${p.customers(column)} and exists (select 1 from customer_warehouse cw where cw.customer_id = ${ref(column)} and cw.warehouse_id = ${warehouseId})`;
    const skuColumns = {
      sku_id: sql`s.id`, customer_id: sql`s.customer_id`, customer_name: sql`c.name`, sku_code: sql`s.sku_code`, description: sql`s.description`,
      uom: sql`s.uom`, is_active: sql`s.is_active`, is_lot_tracked: sql`s.is_lot_tracked`, is_expiry_tracked: sql`s.is_expiry_tracked`,
    };
    const rows = await sql<ScanHitRow>`
      with m as (${skuCodeMatches(code, served)})
      ${branch('sku', sql<number>`m.rank`, {
        ...skuColumns, matched_by: sql`m.matched_by`, package_id: sql`m.package_id`, package_name: sql`pk.package_name`,
      }, sql`from m join sku s on s.id = m.sku_id join customer c on c.id = s.customer_id left join sku_package pk on pk.id = m.package_id`)}
      union all
      ${branch('package', 9, {
        sku_id: sql`k.sku_id`, package_id: sql`k.id`, parent_id: sql`k.parent_id`, quantity: sql`k.quantity`, package_name: sql`k.package_name`,
      }, sql`from sku_package k where k.sku_id in (select sku_id from m where package_id is not null)`)}
      union all
      ${branch('location', 4, {
        location_id: sql`l.id`, location_code: sql`l.code`, location_type: sql`l.type`, zone: sql`l.zone`, is_active: sql`l.is_active`,
      }, sql`from location l where l.warehouse_id = ${warehouseId} and l.code = ${upper}${p.ownLocationsOnly
        ? sql` and exists (select 1 from inventory_balance lb where lb.location_id = l.id and lb.on_hand > 0 and ${p.customers('lb.customer_id')})`
        : sql``}`)}
      union all
      ${branch('pallet', 5, {
        ...skuColumns, location_id: sql`b.location_id`, location_code: sql`l.code`, location_type: sql`l.type`,
        lot: sql`b.lot`, expiry_date: sql`b.expiry_date`, on_hand: sql`b.on_hand`, allocated: sql`b.allocated`,
      }, sql`from inventory_balance b join location l on l.id = b.location_id join sku s on s.id = b.sku_id join customer c on c.id = b.customer_id
        where b.warehouse_id = ${warehouseId} and b.pallet = ${code} and b.on_hand > 0 and ${p.customers('b.customer_id')}`)}
      order by rank, sku_code, location_code, lot`.execute(db);
    return rows.rows;
  },
};
