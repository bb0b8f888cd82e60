import { sql } from 'kysely';
import type { StorageSnapshot } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import { addDays, businessDay, type WarehouseTimeZones } from '../../platform/business-day.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { Jobs, Schedules } from '../../platform/jobs/index.js';
import { z } from 'zod';

const n = (v: unknown) => Number(v);

/** YYYY-MM-DD plus `days` (UTC arithmetic on calendar days). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** How far back a warehouse's missed days are rebuilt when the schedule finds a gap (older ones: the billing run's). */
export const SNAPSHOT_CATCH_UP_DAYS = 62;

/** One customer's stock at a warehouse at the end of a day, as the snapshot keeps it. */
export interface SnapshotFigures { customerId: number; units: number; pallets: number; volumeCm3: number; locationsByType: Record<string, number> }

/**
 * Daily storage snapshots per warehouse and customer: units, pallets (distinct pallet ids with stock), locations
 * with stock by location type, and cubic volume (the SKU's dimensions, else its smallest package's per unit).
 *
 * A day is taken once (its storage_snapshot_day row is claimed by one insert, in the transaction that writes its
 * figures). Taken live just after the warehouse's midnight, the day's stock is today's balances less the ledger
 * rows posted since the day ended; rebuilt later, it is the ledger summed up to the day's end. The ledger sums to the
 * balances (the stock engine's invariant), so both give the same figures — a test holds them equal.
 */
export class StorageSnapshots {
  constructor(private readonly db: Db, private readonly timeZones: WarehouseTimeZones) {}

  /** The stock of every customer of a warehouse at the end of `day`, by the chosen way. */
  async figures(tx: Executor, warehouseId: number, day: string, how: 'live' | 'rebuilt'): Promise<SnapshotFigures[]> {
    const rows = how === 'live'
      ? await sql<{ customer_id: number; sku_id: number; location_id: number; pallet: string; qty: number | string }>`
          SELECT customer_id, sku_id, location_id, pallet, SUM(q) AS qty FROM (
            SELECT customer_id, sku_id, location_id, pallet, on_hand AS q FROM inventory_balance WHERE warehouse_id = ${warehouseId} AND on_hand <> 0
            UNION ALL
            SELECT customer_id, sku_id, location_id, pallet, -qty_change AS q FROM inventory_txn WHERE warehouse_id = ${warehouseId} AND business_day > ${day}
          ) s GROUP BY customer_id, sku_id, location_id, pallet HAVING SUM(q) > 0`.execute(tx)
      : await sql<{ customer_id: number; sku_id: number; location_id: number; pallet: string; qty: number | string }>`
          SELECT customer_id, sku_id, location_id, pallet, SUM(qty_change) AS qty FROM inventory_txn
          WHERE warehouse_id = ${warehouseId} AND business_day <= ${day}
          GROUP BY customer_id, sku_id, location_id, pallet HAVING SUM(qty_change) > 0`.execute(tx);
    const stock = rows.rows;
    if (stock.length === 0) return [];
    const skuIds = [...new Set(stock.map((r) => n(r.sku_id)))];
    const locationIds = [...new Set(stock.map((r) => n(r.location_id)))];
    const volumes = new Map<number, number>();
    for (let i = 0; i < skuIds.length; i += 500) {
      const part = skuIds.slice(i, i + 500);
      const skus = await tx.selectFrom('sku').select(['id', 'length_cm', 'width_cm', 'height_cm']).where('id', 'in', part).execute();
      const packages = await tx.selectFrom('sku_package').select(['sku_id', 'quantity', 'length_cm', 'width_cm', 'height_cm'])
        .where('sku_id', 'in', part).where('length_cm', 'is not', null).where('width_cm', 'is not', null).where('height_cm', 'is not', null)
        .orderBy('quantity').execute();
      const perUnitOfPackage = new Map<number, number>();
      for (const p of packages) {
        if (!perUnitOfPackage.has(n(p.sku_id)) && n(p.quantity) > 0) perUnitOfPackage.set(n(p.sku_id), (n(p.length_cm) * n(p.width_cm) * n(p.height_cm)) / n(p.quantity));
      }
      for (const s of skus) {
        const own = s.length_cm && s.width_cm && s.height_cm ? n(s.length_cm) * n(s.width_cm) * n(s.height_cm) : null;
        volumes.set(n(s.id), own ?? perUnitOfPackage.get(n(s.id)) ?? 0);
      }
    }
    const types = new Map<number, string>();
    for (let i = 0; i < locationIds.length; i += 500) {
      for (const l of await tx.selectFrom('location').select(['id', 'type']).where('id', 'in', locationIds.slice(i, i + 500)).execute()) types.set(n(l.id), l.type);
    }
    const byCustomer = new Map<number, { units: number; volume: number; pallets: Set<string>; locations: Map<string, Set<number>> }>();
    for (const r of stock) {
      const c = n(r.customer_id);
      let f = byCustomer.get(c);
      if (!f) byCustomer.set(c, f = { units: 0, volume: 0, pallets: new Set(), locations: new Map() });
      const qty = n(r.qty);
      f.units += qty;
      f.volume += qty * (volumes.get(n(r.sku_id)) ?? 0);
      if (r.pallet) f.pallets.add(r.pallet);
      const type = types.get(n(r.location_id)) ?? 'other';
      let set = f.locations.get(type);
      if (!set) f.locations.set(type, set = new Set());
      set.add(n(r.location_id));
    }
    return [...byCustomer].sort((a, b) => a[0] - b[0]).map(([customerId, f]) => ({
      customerId, units: f.units, pallets: f.pallets.size, volumeCm3: Math.round(f.volume),
      locationsByType: Object.fromEntries([...f.locations].sort((a, b) => a[0].localeCompare(b[0])).map(([t, s]) => [t, s.size])),
    }));
  }

  /** The warehouse's business day now, and the last day that has ended (yesterday there). */
  async lastEndedDay(warehouseId: number, now: Date = new Date()): Promise<string> {
    return addDays(businessDay(await this.timeZones.of(warehouseId), now), -1);
  }

  /**
   * Takes one day of a warehouse, unless it was taken already (answers false then). The day must have ended.
   */
  async take(warehouseId: number, day: string, how: 'live' | 'rebuilt', now: Date = new Date()): Promise<boolean> {
    if (day > await this.lastEndedDay(warehouseId, now)) throw new Error(`Day ${day} has not ended in warehouse ${warehouseId}`);
    return inTransaction(this.db, async (uow) => {
      const claimed = await uow.tx.insertInto('storage_snapshot_day').values({ warehouse_id: warehouseId, day, source: how, taken_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['warehouse_id', 'day']).doNothing()).returning('day').executeTakeFirst();
      if (!claimed) return false;
      const figures = await this.figures(uow.tx, warehouseId, day, how);
      for (let i = 0; i < figures.length; i += 200) {
        await uow.tx.insertInto('storage_snapshot').values(figures.slice(i, i + 200).map((f) => ({
          warehouse_id: warehouseId, customer_id: f.customerId, day, units: f.units, pallets: f.pallets, volume_cm3: f.volumeCm3,
          locations_json: JSON.stringify(f.locationsByType),
        }))).execute();
      }
      return true;
    });
  }

  /** Every ended day of the range not yet taken, rebuilt from the ledger; answers how many were taken. */
  async ensure(warehouseId: number, from: string, to: string, onDay?: (done: number, total: number) => Promise<void>, now: Date = new Date()): Promise<number> {
    const last = await this.lastEndedDay(warehouseId, now);
    const end = to < last ? to : last;
    if (end < from) return 0;
    const taken = new Set((await this.db.selectFrom('storage_snapshot_day').select('day').where('warehouse_id', '=', warehouseId)
      .where('day', '>=', from).where('day', '<=', end).execute()).map((r) => r.day));
    const days = daysBetween(from, end).filter((d) => !taken.has(d));
    let made = 0;
    for (const [i, d] of days.entries()) {
      if (await this.take(warehouseId, d, 'rebuilt', now)) made++;
      await onDay?.(i + 1, days.length);
    }
    return made;
  }

  /**
   * The schedule's work for one warehouse: the day that just ended, live; any days missed since the last one
   * taken (the service was down), rebuilt from the ledger, up to SNAPSHOT_CATCH_UP_DAYS back.
   */
  async catchUp(warehouseId: number, now: Date = new Date()): Promise<{ live: number; rebuilt: number }> {
    const last = await this.lastEndedDay(warehouseId, now);
    const latest = await this.db.selectFrom('storage_snapshot_day').select((eb) => eb.fn.max('day').as('day')).where('warehouse_id', '=', warehouseId).executeTakeFirst();
    let rebuilt = 0;
    if (latest?.day && latest.day < addDays(last, -1)) {
      const from = latest.day > addDays(last, -SNAPSHOT_CATCH_UP_DAYS) ? addDays(latest.day, 1) : addDays(last, -SNAPSHOT_CATCH_UP_DAYS);
      rebuilt = await this.ensure(warehouseId, from, addDays(last, -1), undefined, now);
    }
    const live = (await this.take(warehouseId, last, 'live', now)) ? 1 : 0;
    return { live, rebuilt };
  }

  async list(db: Executor, q: { warehouseId: number; customerId?: number; from: string; to: string }): Promise<StorageSnapshot[]> {
    let query = db.selectFrom('storage_snapshot as s')
      .innerJoin('storage_snapshot_day as d', (j) => j.onRef('d.warehouse_id', '=', 's.warehouse_id').onRef('d.day', '=', 's.day'))
      .select(['s.warehouse_id', 's.customer_id', 's.day', 's.units', 's.pallets', 's.volume_cm3', 's.locations_json', 'd.source'])
      .where('s.warehouse_id', '=', q.warehouseId).where('s.day', '>=', q.from).where('s.day', '<=', q.to);
    if (q.customerId) query = query.where('s.customer_id', '=', q.customerId);
    const rows = await query.orderBy('s.day').orderBy('s.customer_id').execute();
    return rows.map((r) => ({
      warehouseId: n(r.warehouse_id), customerId: n(r.customer_id), day: r.day, units: n(r.units), pallets: n(r.pallets), volumeCm3: n(r.volume_cm3),
      locationsByType: JSON.parse(r.locations_json) as Record<string, number>, source: r.source as 'live' | 'rebuilt',
    }));
  }
}

export const SNAPSHOT_JOB = 'billing.snapshots';

/**
 * The snapshot schedule: every quarter of an hour (UTC), each active warehouse whose day has ended since its last
 * snapshot takes it — so each is taken within 15 minutes of the warehouse's own midnight, whatever its zone — and
 * rebuilds the days it missed while the service was down.
 */
export function registerSnapshotSchedule(jobs: Jobs, schedules: Schedules, db: Db, snapshots: StorageSnapshots) {
  jobs.register<{ slot?: string }>(SNAPSHOT_JOB, {
    payload: z.object({ slot: z.string().optional() }),
    maxAttempts: 3,
    async run(_payload, ctx) {
      const warehouses = await db.selectFrom('warehouse').select('id').where('is_active', '=', 1).orderBy('id').execute();
      let live = 0;
      let rebuilt = 0;
      for (const [i, w] of warehouses.entries()) {
        const taken = await snapshots.catchUp(n(w.id));
        live += taken.live;
        rebuilt += taken.rebuilt;
        await ctx.progress(i + 1, warehouses.length, `${i + 1} of ${warehouses.length} warehouses`);
      }
      return { live, rebuilt };
    },
  });
  schedules.register({ name: SNAPSHOT_JOB, cron: '*/15 * * * *', timeZone: 'UTC', job: SNAPSHOT_JOB, payload: (slot) => ({ slot }) });
}
