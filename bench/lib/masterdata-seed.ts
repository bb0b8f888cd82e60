// A large catalogue and user base for the master-data case: SKUs spread over every demo client and users spread
// over every warehouse (clients' accounts over every client). Through the server's driver, in batched multi-row
// inserts inside one transaction — seconds on both engines, where the API would take many minutes.
import { sql } from 'kysely';
import { openDatabase } from '../../server/src/db/database.js';
import type { BenchDatabase } from './databases.js';

export interface MasterdataSeedFigures { skus: number; users: number; seconds: number }

/** Seeded SKU codes and usernames start with this, so the case's search terms are known to match. */
export const SEED_PREFIX = 'BX';
/** Words of the seeded descriptions and names: the case searches for one of them. */
const PRODUCTS = ['Backpack', 'Kettle', 'Lantern', 'Blanket', 'Bottle', 'Cable', 'Charger', 'Skillet', 'Towel', 'Filter', 'Speaker', 'Leash'];
const COLOURS = ['Black', 'Blue', 'Green', 'Grey', 'Red', 'White', 'Orange', 'Olive'];
const CATEGORIES = Array.from({ length: 24 }, (_, i) => `Category ${String(i + 1).padStart(2, '0')}`);
const FIRST = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Casey', 'Riley', 'Morgan', 'Jamie', 'Avery', 'Quinn', 'Robin', 'Drew'];
const LAST = ['Smith', 'Garcia', 'Nguyen', 'Kowalski', 'Okafor', 'Larsen', 'Dubois', 'Tanaka', 'Rossi', 'Silva', 'Novak', 'Haddad'];
const STAFF_ROLES = ['WarehouseStaff', 'WarehouseStaff', 'WarehouseStaff', 'WarehouseManager', 'Administrator'] as const;
/** Not a hash any password verifies against: seeded accounts never sign in. */
const NO_PASSWORD = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2gtc2VlZA$bm90LWEtcmVhbC1oYXNoLWJlbmNoLW9ubHk';
const BATCH = 1000;

export async function seedMasterdata(target: BenchDatabase, skuCount: number, userCount: number): Promise<MasterdataSeedFigures> {
  const started = performance.now();
  const database = openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, pgSchema: target.pgSchema, poolSize: 2 });
  const db = database.db;
  try {
    const customers = await db.selectFrom('customer').select(['id', 'code']).orderBy('id').execute();
    const warehouses = (await db.selectFrom('warehouse').select('id').orderBy('id').execute()).map((w) => w.id);
    const served = await db.selectFrom('customer_warehouse').select(['customer_id', 'warehouse_id']).execute();
    if (customers.length === 0 || warehouses.length === 0) throw new Error('masterdata seed: the demo database has no clients or warehouses');
    const now = new Date().toISOString();
    const created = (i: number) => new Date(Date.now() - (i % 1000) * 3_600_000).toISOString();

    const skus = Array.from({ length: skuCount }, (_, i) => {
      const c = customers[i % customers.length];
      const n = Math.floor(i / customers.length);
      return {
        customer_id: c.id, sku_code: `${SEED_PREFIX}-${c.code}-${String(n).padStart(6, '0')}`,
        description: `${PRODUCTS[(i * 7) % PRODUCTS.length]} ${COLOURS[(i * 3) % COLOURS.length]} ${n % 97}`,
        category: CATEGORIES[(i * 5) % CATEGORIES.length], uom: 'EA', upc: i % 4 === 0 ? String(400_000_000_000 + i) : null,
        is_kit: i % 50 === 0 ? 1 : 0, is_active: i % 10 === 9 ? 0 : 1, weight_kg: (i % 200) / 10 + 0.1,
        length_cm: 10 + (i % 40), width_cm: 8 + (i % 30), height_cm: 4 + (i % 20), created_at: created(i), updated_at: now,
      };
    });

    // Users: staff on one or two warehouses, and client accounts of every client (their warehouses are the client's).
    const users = Array.from({ length: userCount }, (_, i) => {
      const client = i % 6 === 5;
      const first = FIRST[i % FIRST.length];
      const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
      return {
        username: `${SEED_PREFIX.toLowerCase()}.${first.toLowerCase()}.${last.toLowerCase()}.${i}`,
        email: `${SEED_PREFIX.toLowerCase()}${i}@bench.example.com`, password_hash: NO_PASSWORD, first_name: first, last_name: last,
        phone: null, timezone: 'UTC', role: client ? 'Client' : STAFF_ROLES[i % STAFF_ROLES.length],
        customer_id: client ? customers[i % customers.length].id : null, is_active: i % 15 === 14 ? 0 : 1, email_verified: 1,
        password_changed_at: now, created_at: created(i), updated_at: now,
      };
    });

    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < skus.length; i += BATCH) await tx.insertInto('sku').values(skus.slice(i, i + BATCH)).execute();
      for (let i = 0; i < users.length; i += BATCH) await tx.insertInto('app_user').values(users.slice(i, i + BATCH)).execute();
      const seeded = await tx.selectFrom('app_user').select(['id', 'role', 'customer_id']).where('email', 'like', `${SEED_PREFIX.toLowerCase()}%@bench.example.com`).orderBy('id').execute();
      const links = seeded.filter((u) => u.role !== 'Client').flatMap((u, k) => {
        const first = warehouses[k % warehouses.length];
        const second = warehouses[(k + 1) % warehouses.length];
        return k % 3 === 0 && second !== first ? [{ user_id: u.id, warehouse_id: first }, { user_id: u.id, warehouse_id: second }] : [{ user_id: u.id, warehouse_id: first }];
      });
      for (let i = 0; i < links.length; i += BATCH) await tx.insertInto('user_warehouse').values(links.slice(i, i + BATCH)).execute();
      // Staff see the clients their warehouses serve, as the user form assigns them.
      const clientsOf = new Map<number, number[]>();
      for (const s of served) clientsOf.set(s.warehouse_id, [...(clientsOf.get(s.warehouse_id) ?? []), s.customer_id]);
      const customerLinks = links.flatMap((l) => (clientsOf.get(l.warehouse_id) ?? []).map((c) => ({ user_id: l.user_id, customer_id: c })));
      const unique = [...new Map(customerLinks.map((l) => [`${l.user_id}:${l.customer_id}`, l])).values()];
      for (let i = 0; i < unique.length; i += BATCH) await tx.insertInto('user_customer').values(unique.slice(i, i + BATCH)).execute();
    });
    // As in the stock seed: a live PostgreSQL's autovacuum would have analysed tables that grew this much.
    // SQLite keeps no statistics unless asked, and the app never asks, so it is measured without them.
    if (database.pool) await sql`VACUUM ANALYZE`.execute(db);
    return { skus: skuCount, users: userCount, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}
