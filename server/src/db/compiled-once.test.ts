import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, makeCustomer, makeSku, makeWarehouse, type TestApp } from '../../test/helpers.js';
import { compiledOnce } from './compiled-once.js';

let t: TestApp;
let customer: number;
let skus: number[];
beforeAll(async () => {
  t = await buildTestApp();
  customer = await makeCustomer(t.database, [await makeWarehouse(t.database)]);
  skus = [await makeSku(t.database, customer, 'ONCE-A'), await makeSku(t.database, customer, 'ONCE-B')];
});
afterAll(async () => { await t?.close(); });

describe('a query compiled once', () => {
  it('answers each call with its own values, per shape, inside a transaction too', async () => {
    const db = t.database.db;
    let builds = 0;
    const skuOf = compiledOnce((codeAs: string) => codeAs, (d, codeAs, customerId: number, id: number) => {
      builds++;
      return d.selectFrom('sku').select(['id', `sku_code as ${codeAs}` as 'sku_code']).where('customer_id', '=', customerId).where('id', '=', id);
    });
    expect(await skuOf(db, 'code', customer, skus[0])).toEqual([{ id: skus[0], code: 'ONCE-A' }]);
    expect(await skuOf(db, 'code', customer, skus[1])).toEqual([{ id: skus[1], code: 'ONCE-B' }]);
    expect(await skuOf(db, 'code', customer + 1000, skus[1])).toEqual([]);
    expect(await db.transaction().execute((tx) => skuOf(tx, 'code', customer, skus[0]))).toEqual([{ id: skus[0], code: 'ONCE-A' }]);
    expect(builds).toBe(1);
    expect(await skuOf(db, 'other', customer, skus[1])).toEqual([{ id: skus[1], other: 'ONCE-B' }]);
    expect(builds).toBe(2);
  });

  it('takes a raw sql statement too, its values in place wherever they appear', async () => {
    const db = t.database.db;
    let builds = 0;
    const codesOf = compiledOnce(() => '', (_d, _shape: null, customerId: number, first: number, second: number) => {
      builds++;
      return sql<{ sku_code: string }>`select sku_code from sku where customer_id = ${customerId} and id in (${sql.join([first, second])}) and id <> ${second} order by id`;
    });
    expect(await codesOf(db, null, customer, skus[0], skus[1])).toEqual([{ sku_code: 'ONCE-A' }]);
    expect(await codesOf(db, null, customer, skus[1], skus[0])).toEqual([{ sku_code: 'ONCE-B' }]);
    expect(builds).toBe(1);
  });
});
