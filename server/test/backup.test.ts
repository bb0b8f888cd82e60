import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupError, backupDatabase, restoreDatabase, type BackupTarget } from '../src/db/backup.js';
import { openDatabase } from '../src/db/database.js';
import { buildTestApp, engine, makeCustomer, makeLocation, makeSku, makeWarehouse, postStock, type TestApp } from './helpers.js';

let t: TestApp | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const targetOf = (app: TestApp): BackupTarget => ({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: app.config.dataDir, pgSchema: app.database.pgSchema });
const ledgerRows = async (app: TestApp) =>
  Number((await sql<{ n: number }>`SELECT count(*) AS n FROM inventory_txn`.execute(app.database.db)).rows[0].n);

/** 100 units at A, then one unit at a time moved A → B and back until stopped: the writes a backup runs beside. */
async function stockOnTheMove(app: TestApp) {
  const wh = await makeWarehouse(app.database);
  const cust = await makeCustomer(app.database, [wh]);
  const sku = await makeSku(app.database, cust);
  const [a, b] = [await makeLocation(app.database, wh), await makeLocation(app.database, wh)];
  const place = (locationId: number) => ({ warehouseId: wh, customerId: cust, skuId: sku, locationId, lot: '', pallet: '' });
  await postStock(app, [{ place: place(a), qty: 100 }]);
  let acked = 0;
  let running = true;
  const done = (async () => {
    while (running && acked < 5000) { // bounded, so a failed test does not leave it running
      const [from, to] = acked % 2 ? [b, a] : [a, b];
      await postStock(app, [{ place: place(from), qty: -1 }, { place: place(to), qty: 1 }]);
      acked++;
      await new Promise((r) => setImmediate(r)); // SQLite answers without leaving the microtask queue: let the rest run
    }
  })();
  const ackedAtLeast = async (n: number) => { while (acked < n) await new Promise((r) => setTimeout(r, 5)); };
  return { sku, acked: () => acked, ackedAtLeast, stop: async () => { running = false; await done; } };
}

describe('backup and restore', () => {
  it('a backup taken while stock moves restores to a database that reconciles, without the writes made after it', async () => {
    t = await buildTestApp();
    const moves = await stockOnTheMove(t);
    await moves.ackedAtLeast(5);
    const before = await ledgerRows(t);
    const file = join(t.config.dataDir, 'backups', `test.${engine === 'postgres' ? 'pgdump' : 'db'}`);
    const backup = await backupDatabase(targetOf(t), file);
    const ackedAtBackup = moves.acked();
    await moves.ackedAtLeast(ackedAtBackup + 5); // writes go on after the backup, and are lost by the restore
    await moves.stop();
    const after = await ledgerRows(t);
    if (backup.reconciliation) expect(backup.reconciliation).toMatchObject({ balanced: true });

    await t.stop();
    const restored = await restoreDatabase(targetOf(t), file);
    expect(restored).toMatchObject({ balanced: true, ledgerDifferences: 0, reservationDifferences: 0 });
    expect(restored.ledgerRows).toBeGreaterThanOrEqual(before);
    expect(restored.ledgerRows).toBeLessThan(after);
    if (backup.reconciliation) expect(restored.ledgerRows).toBe(backup.reconciliation.ledgerRows);

    // Every unit is still there, in one place or the other, and none below zero.
    const reopened = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: t.config.dataDir, pgSchema: t.database.pgSchema });
    try {
      const stock = await reopened.db.selectFrom('inventory_balance').where('sku_id', '=', moves.sku)
        .select([sql<number>`sum(on_hand)`.as('total'), sql<number>`min(on_hand)`.as('lowest')]).executeTakeFirstOrThrow();
      expect({ total: Number(stock.total), negative: Number(stock.lowest) < 0 }).toEqual({ total: 100, negative: false });
    } finally {
      await reopened.close();
    }
  });

  it('refuses a file that is not a backup and leaves the database as it was', async () => {
    t = await buildTestApp();
    const rows = await ledgerRows(t);
    await t.stop();
    const junk = join(t.config.dataDir, 'junk.bak');
    writeFileSync(junk, 'this is not a backup');
    await expect(restoreDatabase(targetOf(t), junk)).rejects.toThrow(engine === 'postgres' ? /pg_restore failed/ : /is not a BOLX-WMS SQLite backup/);
    await expect(restoreDatabase(targetOf(t), join(t.config.dataDir, 'missing.bak'))).rejects.toThrow(/No backup file at/);
    const reopened = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: t.config.dataDir, pgSchema: t.database.pgSchema });
    try {
      const users = await reopened.db.selectFrom('app_user').select('username').execute();
      expect(users.map((u) => u.username)).toEqual(['admin']);
      expect(Number((await sql<{ n: number }>`SELECT count(*) AS n FROM inventory_txn`.execute(reopened.db)).rows[0].n)).toBe(rows);
    } finally {
      await reopened.close();
    }
  });

  it.runIf(engine === 'sqlite')('will not restore under a running server', async () => {
    t = await buildTestApp();
    const file = join(t.config.dataDir, 'b.db');
    await backupDatabase(targetOf(t), file);
    await expect(restoreDatabase(targetOf(t), file)).rejects.toThrow(/stop the server first/);
  });

  it.runIf(engine === 'postgres')('says which tool is missing and how to get it', async () => {
    t = await buildTestApp();
    const err = await backupDatabase({ ...targetOf(t), pgBin: '/nonexistent' }, join(t.config.dataDir, 'b.pgdump')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupError);
    expect((err as Error).message).toMatch(/^pg_dump was not found in \/nonexistent: install the PostgreSQL client tools/);
  });
});
