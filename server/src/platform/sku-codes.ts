import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The SKUs a scanned code names, as the body of a CTE with columns (sku_id, matched_by, package_id, rank): the
 * SKU code (any case), its UPC, one of its barcodes, or a package level's GTIN (with that package's id), best
 * match first by rank. `customer(column)` holds each table's customer column to the clients that count (one
 * client for a receiving order; the caller's scope for a scan). The scan resolution and receiving's scan
 * station both match codes through it, so a code means the same SKU everywhere.
 */
export function skuCodeMatches(code: string, customer: (column: string) => Expression<SqlBool>): RawBuilder<unknown> {
  const upper = code.toUpperCase();
  return sql`select id as sku_id, 'sku' as matched_by, cast(null as integer) as package_id, 0 as rank from sku where upper(sku_code) = ${upper} and ${customer('sku.customer_id')}
    union all select id, 'upc', cast(null as integer), 1 from sku where upc = ${code} and ${customer('sku.customer_id')}
    union all select sku_id, 'barcode', cast(null as integer), 2 from sku_barcode where barcode = ${code} and ${customer('sku_barcode.customer_id')}
    union all select sku_id, 'gtin', id, 3 from sku_package where gtin = ${code} and ${customer('sku_package.customer_id')}`;
}
