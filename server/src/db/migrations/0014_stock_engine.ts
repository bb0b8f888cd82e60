import { sql, type Kysely } from 'kysely';
import { STOCK_DOCUMENT_TYPES, STOCK_HOLD_TYPES, STOCK_TXN_TYPES } from '@bolx/contracts';
import type { Dialect } from '../dialect.js';
import { businessDay, isTimeZone } from '../../platform/business-day.js';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * The stock engine (platform/stock): ledger rows name their document line and the warehouse's business day;
 * transaction and document types are closed (the database refuses others); reservations own allocated stock and
 * holds stop stock leaving a place. Existing data moves over: open replenishment tasks' allocations become their
 * reservations, open cycle counts' held locations become holds, and every ledger row gets its business day.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const ts = d.timestampType;
  await db.schema.alterTable('inventory_txn').addColumn('document_line', 'varchar(64)').execute();
  // NULL only for rows written outside the engine (the bench's seeded history); the engine always writes it.
  await db.schema.alterTable('inventory_txn').addColumn('business_day', 'varchar(10)').execute();

  const zones = await db.selectFrom('warehouse').select(['id', 'timezone']).execute();
  for (const w of zones as { id: number; timezone: string | null }[]) {
    const zone = w.timezone && isTimeZone(w.timezone) ? w.timezone : 'UTC';
    if (d.engine === 'postgres') {
      await sql`UPDATE inventory_txn SET business_day = to_char(at AT TIME ZONE ${zone}, 'YYYY-MM-DD') WHERE warehouse_id = ${w.id}`.execute(db);
    } else if (zone === 'UTC') {
      await sql`UPDATE inventory_txn SET business_day = substr(at, 1, 10) WHERE warehouse_id = ${w.id}`.execute(db);
    } else {
      // SQLite has no time zones: the day of each distinct instant is worked out here, a day's rows in one update.
      const rows = await db.selectFrom('inventory_txn').select(['id', 'at']).where('warehouse_id', '=', w.id).execute();
      const byDay = new Map<string, number[]>();
      for (const r of rows as { id: number; at: string }[]) {
        const day = businessDay(zone, r.at);
        byDay.set(day, [...(byDay.get(day) ?? []), r.id]);
      }
      for (const [day, ids] of byDay) {
        for (let i = 0; i < ids.length; i += 500) await db.updateTable('inventory_txn').set({ business_day: day }).where('id', 'in', ids.slice(i, i + 500)).execute();
      }
    }
  }
  // What arriving stock brings to its balance (its lot's expiry, when it was first received): the ledger row
  // carries it so the row itself can move the balance (the trigger below). NULL: carried from the posting's source.
  await db.schema.alterTable('inventory_txn').addColumn('expiry_date', 'varchar(10)').execute();
  await db.schema.alterTable('inventory_txn').addColumn('received_at', ts).execute();
  await db.schema.createIndex('inventory_txn_document_line').on('inventory_txn').columns(['document_type', 'document_id', 'document_line']).execute();

  // Closed vocabularies. SQLite cannot add a CHECK to an existing table without rebuilding it: triggers refuse instead.
  if (d.engine === 'postgres') {
    await sql`ALTER TABLE inventory_txn ADD CONSTRAINT inventory_txn_txn_type CHECK (txn_type IN (${list(STOCK_TXN_TYPES)}))`.execute(db);
    await sql`ALTER TABLE inventory_txn ADD CONSTRAINT inventory_txn_document_type CHECK (document_type IS NOT NULL AND document_type IN (${list(STOCK_DOCUMENT_TYPES)}))`.execute(db);
  } else {
    for (const event of ['INSERT', 'UPDATE']) {
      await sql.raw(`CREATE TRIGGER inventory_txn_types_${event.toLowerCase()} BEFORE ${event} ON inventory_txn
        WHEN NEW.txn_type NOT IN (${STOCK_TXN_TYPES.map((v) => `'${v}'`).join(', ')})
          OR NEW.document_type IS NULL OR NEW.document_type NOT IN (${STOCK_DOCUMENT_TYPES.map((v) => `'${v}'`).join(', ')})
        BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: inventory_txn type'); END`).execute(db);
    }
  }

  await createBalanceTrigger(db, d);

  // A reservation: allocated units of one balance, owned by a document line. Open while quantity > 0.
  await db.schema.createTable('stock_reservation')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('balance_id', 'integer', (c) => c.notNull().references('inventory_balance.id'))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull())
    .addColumn('sku_id', 'integer', (c) => c.notNull())
    .addColumn('document_type', 'varchar(32)', (c) => c.notNull().check(sql`document_type IN (${list(STOCK_DOCUMENT_TYPES)})`))
    .addColumn('document_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('document_line', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity >= 0`))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('stock_reservation_owner', ['document_type', 'document_id', 'document_line', 'balance_id'])
    .execute();
  await db.schema.createIndex('stock_reservation_balance').on('stock_reservation').columns(['balance_id', 'quantity']).execute();

  // A hold: a location (for one client, or every client when customer_id is NULL) or one balance, held by a document.
  await db.schema.createTable('stock_hold')
    .addColumn('id', 'integer', (c) => d.identity(c))
    .addColumn('warehouse_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer')
    .addColumn('location_id', 'integer', (c) => c.references('location.id'))
    .addColumn('balance_id', 'integer', (c) => c.references('inventory_balance.id'))
    .addColumn('hold_type', 'varchar(32)', (c) => c.notNull().check(sql`hold_type IN (${list(STOCK_HOLD_TYPES)})`))
    .addColumn('document_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('is_open', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('placed_by', 'integer')
    .addColumn('placed_at', ts, (c) => c.notNull())
    .addColumn('lifted_at', ts)
    .addCheckConstraint('stock_hold_target', sql`location_id IS NOT NULL OR balance_id IS NOT NULL`)
    .execute();
  await db.schema.createIndex('stock_hold_location').on('stock_hold').columns(['location_id', 'is_open']).execute();
  await db.schema.createIndex('stock_hold_balance').on('stock_hold').columns(['balance_id', 'is_open']).execute();
  await db.schema.createIndex('stock_hold_document').on('stock_hold').columns(['hold_type', 'document_id', 'is_open']).execute();

  const now = new Date().toISOString();
  // Open replenishment tasks allocated their source: that allocation becomes the task's reservation.
  await sql`
    INSERT INTO stock_reservation (balance_id, warehouse_id, customer_id, sku_id, document_type, document_id, document_line, quantity, created_at, updated_at)
    SELECT b.id, t.warehouse_id, t.customer_id, t.sku_id, 'REPLENISHMENT', 'RPL-' || ${sql.raw(d.engine === 'postgres' ? 't.id::text' : 't.id')}, '', t.quantity, t.created_at, ${now}
    FROM replenishment_task t JOIN inventory_balance b ON b.warehouse_id = t.warehouse_id AND b.customer_id = t.customer_id
      AND b.sku_id = t.sku_id AND b.location_id = t.from_location_id AND b.lot = t.lot AND b.pallet = t.pallet
    WHERE t.status = 'Open'`.execute(db);
  // Open counts held their locations for their client: those become holds.
  await sql`
    INSERT INTO stock_hold (warehouse_id, customer_id, location_id, hold_type, document_id, is_open, placed_by, placed_at)
    SELECT h.warehouse_id, h.customer_id, h.location_id, 'CYCLE_COUNT', cc.count_no, 1, cc.created_by, cc.created_at
    FROM cycle_count_location h JOIN cycle_count cc ON cc.id = h.cycle_count_id WHERE h.is_open = 1`.execute(db);
}

const PLACE = (row: string, b = 'b') => ['warehouse_id', 'customer_id', 'sku_id', 'location_id', 'lot', 'pallet'].map((c) => `${b}.${c} = ${row}.${c}`).join(' AND ');
const BALANCE_COLUMNS = 'warehouse_id, customer_id, sku_id, location_id, lot, pallet';

/**
 * A ledger row moves its balance: inserting it IS the stock change (one statement for a whole posting, and no
 * balance can change without its row). A take (qty < 0) succeeds only if that much is free (on hand less
 * allocated) and the place is not held — else the statement fails with `stock_short:<free>` or
 * `stock_held:<type>:<document>:<location code>`, which the engine turns into its 422 and 409. The hold is
 * checked after the take has locked the balance, so a hold placed meanwhile is seen. An arrival upserts its
 * balance; an arrival without its own expiry or receipt time takes those of the posting's first source of that SKU.
 * Options of later migrations: `expiryLookupWhen`, SQL on `NEW` for when that source is looked up for the expiry
 * (always, unless given: 0049); `sourceOfSameLot`, the source must be of the arrival's lot too (0050).
 */
export async function createBalanceTrigger(db: Kysely<any>, d: Dialect, { expiryLookupWhen, sourceOfSameLot = false }: { expiryLookupWhen?: string; sourceOfSameLot?: boolean } = {}) {
  const hold = (row: string) => `SELECT h.hold_type, h.document_id FROM stock_hold h WHERE h.is_open = 1 AND (
      (h.location_id = ${row}.location_id AND (h.customer_id IS NULL OR h.customer_id = ${row}.customer_id))
      OR h.balance_id = (SELECT b.id FROM inventory_balance b WHERE ${PLACE(row)}))`;
  const source = (row: string, column: string) => `(SELECT b.${column} FROM inventory_txn s JOIN inventory_balance b ON ${PLACE('s')}
      WHERE s.document_type = ${row}.document_type AND s.document_id = ${row}.document_id AND s.at = ${row}.at AND s.qty_change < 0
        AND s.sku_id = ${row}.sku_id${sourceOfSameLot ? ` AND s.lot = ${row}.lot` : ''} ORDER BY s.id LIMIT 1)`;
  const upsert = (row: string, guard: string) => `INSERT INTO inventory_balance (${BALANCE_COLUMNS}, on_hand, allocated, updated_at, expiry_date, received_at)
      SELECT ${row}.warehouse_id, ${row}.customer_id, ${row}.sku_id, ${row}.location_id, ${row}.lot, ${row}.pallet, ${row}.qty_change, 0, ${row}.at,
        coalesce(${row}.expiry_date, ${expiryLookupWhen ? `CASE WHEN ${expiryLookupWhen} THEN ${source(row, 'expiry_date')} END` : source(row, 'expiry_date')}),
        coalesce(${row}.received_at, ${source(row, 'received_at')}, ${row}.at)
      ${guard}
      ON CONFLICT (${BALANCE_COLUMNS}) DO UPDATE SET on_hand = inventory_balance.on_hand + excluded.on_hand,
        expiry_date = coalesce(inventory_balance.expiry_date, excluded.expiry_date),
        received_at = CASE WHEN inventory_balance.on_hand = 0 THEN excluded.received_at ELSE coalesce(inventory_balance.received_at, excluded.received_at) END,
        updated_at = excluded.updated_at`;
  if (d.engine === 'postgres') {
    await sql.raw(`CREATE FUNCTION inventory_txn_moves_balance() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE free integer; held_type text; held_document text; held_code text;
      BEGIN
        IF NEW.qty_change < 0 THEN
          UPDATE inventory_balance b SET on_hand = b.on_hand + NEW.qty_change, updated_at = NEW.at
            WHERE ${PLACE('NEW')} AND b.on_hand - b.allocated >= -NEW.qty_change;
          IF NOT FOUND THEN
            SELECT greatest(b.on_hand - b.allocated, 0) INTO free FROM inventory_balance b WHERE ${PLACE('NEW')};
            RAISE EXCEPTION 'stock_short:%:%', coalesce(free, 0), -NEW.qty_change USING ERRCODE = 'P0001';
          END IF;
          SELECT q.hold_type, q.document_id INTO held_type, held_document FROM (${hold('NEW')} LIMIT 1) q;
          IF held_type IS NOT NULL THEN
            SELECT l.code INTO held_code FROM location l WHERE l.id = NEW.location_id;
            RAISE EXCEPTION 'stock_held:%:%:%', held_type, held_document, coalesce(held_code, '') USING ERRCODE = 'P0001';
          END IF;
        ELSIF NEW.qty_change > 0 THEN
          ${upsert('NEW', '')};
        END IF;
        RETURN NULL;
      END $fn$`).execute(db);
    await sql.raw('CREATE TRIGGER inventory_txn_moves_balance AFTER INSERT ON inventory_txn FOR EACH ROW EXECUTE FUNCTION inventory_txn_moves_balance()').execute(db);
  } else {
    await sql.raw(`CREATE TRIGGER inventory_txn_moves_balance AFTER INSERT ON inventory_txn BEGIN
        SELECT RAISE(ABORT, 'stock_short:' || coalesce((SELECT max(b.on_hand - b.allocated, 0) FROM inventory_balance b WHERE ${PLACE('NEW')}), 0) || ':' || (-NEW.qty_change))
          WHERE NEW.qty_change < 0 AND NOT EXISTS (SELECT 1 FROM inventory_balance b WHERE ${PLACE('NEW')} AND b.on_hand - b.allocated >= -NEW.qty_change);
        UPDATE inventory_balance SET on_hand = on_hand + NEW.qty_change, updated_at = NEW.at
          WHERE NEW.qty_change < 0 AND ${PLACE('NEW', 'inventory_balance')};
        SELECT RAISE(ABORT, 'stock_held:' || q.hold_type || ':' || q.document_id || ':' || coalesce((SELECT code FROM location WHERE id = NEW.location_id), ''))
          FROM (${hold('NEW')} LIMIT 1) q WHERE NEW.qty_change < 0;
        ${upsert('NEW', 'WHERE NEW.qty_change > 0')};
      END`).execute(db);
  }
}
