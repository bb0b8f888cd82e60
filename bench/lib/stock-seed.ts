// A large ledger for the stock-on-hand case: balance rows spread over every warehouse, client, SKU and storage
// location of the demo data, and for each of them ledger rows that sum exactly to its on-hand (so Reconcile
// still holds). Through the server's driver: the balances in batched multi-row inserts, the ledger in one
// INSERT … SELECT per run (a balance joined with a small generated series), which both engines do in seconds.
import { sql } from 'kysely';
import { openDatabase } from '../../server/src/db/database.js';
import type { BenchDatabase } from './databases.js';

export interface SeedFigures { balances: number; ledgerRows: number; seconds: number }

export const SEED_LOT_PREFIX = 'SOH-';

/** The ledger of one seeded balance: a receipt, then moves out and in; `onHand` is what they sum to. */
function ledgerShape(rowsPerBalance: number) {
  const qty = (j: number) => (j === 0 ? 100 : j % 2 === 1 ? -3 : 2);
  let onHand = 0;
  for (let j = 0; j < rowsPerBalance; j++) onHand += qty(j);
  return { onHand };
}

export async function seedLargeLedger(target: BenchDatabase, ledgerRows: number, balances: number): Promise<SeedFigures> {
  const started = performance.now();
  const perBalance = Math.max(1, Math.round(ledgerRows / balances));
  const { onHand } = ledgerShape(perBalance); // the rows' shape (their sum is what each balance ends with)
  const database = openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, pgSchema: target.pgSchema, poolSize: 2 });
  const db = database.db;
  try {
    const served = await db.selectFrom('customer_warehouse').select(['warehouse_id', 'customer_id']).orderBy('warehouse_id').orderBy('customer_id').execute();
    const skus = await db.selectFrom('sku').select(['id', 'customer_id']).orderBy('id').execute();
    const locations = await db.selectFrom('location').select(['id', 'warehouse_id']).where('type', 'in', ['rack', 'shelf']).orderBy('id').execute();
    const skusOf = new Map<number, number[]>();
    for (const s of skus) skusOf.set(s.customer_id, [...(skusOf.get(s.customer_id) ?? []), s.id]);
    const locationsOf = new Map<number, number[]>();
    for (const l of locations) locationsOf.set(l.warehouse_id, [...(locationsOf.get(l.warehouse_id) ?? []), l.id]);
    const combos = served.filter((c) => skusOf.get(c.customer_id)?.length && locationsOf.get(c.warehouse_id)?.length);
    if (combos.length === 0) throw new Error('stock seed: the demo database has no client with SKUs in a warehouse with storage');

    const twoYears = 2 * 365 * 86_400_000;
    const now = Date.now();
    const rows = Array.from({ length: balances }, (_, b) => {
      const combo = combos[b % combos.length];
      const own = skusOf.get(combo.customer_id)!;
      const locs = locationsOf.get(combo.warehouse_id)!;
      const received = new Date(now - ((b * 7919) % twoYears)).toISOString();
      return {
        warehouse_id: combo.warehouse_id, customer_id: combo.customer_id, sku_id: own[Math.floor(b / combos.length) % own.length],
        location_id: locs[(b * 7919) % locs.length], lot: `${SEED_LOT_PREFIX}${b}`, pallet: b % 4 === 0 ? `PLT-${Math.floor(b / 4)}` : '',
        expiry_date: b % 3 === 0 ? `20${27 + (b % 5)}-0${1 + (b % 9)}-15` : null,
        // Empty: the ledger rows below fill them (each row moves its balance: migration 0014's trigger).
        on_hand: 0, allocated: 0, updated_at: received, received_at: received,
      };
    });
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < rows.length; i += 1000) await tx.insertInto('inventory_balance').values(rows.slice(i, i + 1000)).execute();
      // On PostgreSQL the per-row trigger would update each balance 50 times (a dead tuple each: tens of minutes on
      // a busy machine); the seed's rows are well-formed, so it skips triggers and sets the sums they would have made.
      if (database.pool) {
        await sql`SET LOCAL session_replication_role = replica`.execute(tx);
        await sql`UPDATE inventory_balance SET on_hand = ${onHand} WHERE lot LIKE ${`${SEED_LOT_PREFIX}%`}`.execute(tx);
      }
      // Row j of a balance: j = 0 receives 100, odd rows move 3 out, even rows move 2 in (ledgerShape).
      await sql`
        WITH RECURSIVE j(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM j WHERE n < ${perBalance - 1})
        INSERT INTO inventory_txn (at, warehouse_id, customer_id, sku_id, location_id, lot, pallet, qty_change, txn_type, reason, document_type, document_id, user_id)
        SELECT b.received_at, b.warehouse_id, b.customer_id, b.sku_id, b.location_id, b.lot, b.pallet,
          CASE WHEN j.n = 0 THEN 100 WHEN j.n % 2 = 1 THEN -3 ELSE 2 END,
          CASE WHEN j.n = 0 THEN 'receive' WHEN j.n % 2 = 1 THEN 'move_out' ELSE 'move_in' END,
          NULL, 'BENCH', b.lot, NULL
        FROM inventory_balance b CROSS JOIN j
        WHERE b.lot LIKE ${`${SEED_LOT_PREFIX}%`}
        ORDER BY b.id, j.n
      `.execute(tx);
    });
    // A live PostgreSQL would have vacuumed and analysed tables that grew this much (autovacuum, also after
    // inserts); do it now rather than measure plans made for the tiny demo tables.
    if (database.pool) await sql`VACUUM ANALYZE`.execute(db);
    return { balances, ledgerRows: balances * perBalance, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}
