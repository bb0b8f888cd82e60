import type { BackorderLine, OrderStatus, ShortReason, StockTxnType } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { systemActor } from '../../platform/actor.js';
import type { DomainEvents, PostedLeg } from '../../platform/domain-events.js';
import { AppError } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs/index.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { z } from 'zod';
import { allocationRepository as alloc } from './allocation.repository.js';
import type { OrderAllocationService } from './allocation.service.js';
import { backorderRepository as repo, type BackorderFilters, type BackorderRow } from './backorders.repository.js';

const n = (v: unknown) => Number(v);
const DAY_MS = 86_400_000;

export const FILL_BACKORDERS_JOB = 'orders.fill-backorders';
const fillPayload = z.object({ warehouseId: z.number().int(), customerId: z.number().int(), skuIds: z.array(z.number().int()).min(1) });
type FillPayload = z.infer<typeof fillPayload>;

const toBackorder = (now: number) => (r: BackorderRow): BackorderLine => {
  const since = String(r.waiting_since);
  return {
    uniqueid: r.id, lineId: r.id, orderId: r.order_id, soNumber: r.so_number, referenceNumber: r.reference_number, status: r.status as OrderStatus,
    warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id, customerName: r.customer_name, skuId: r.sku_id,
    skuCode: r.sku_code, skuDescription: r.description, priority: n(r.priority), orderDate: r.order_date, waitingSince: since,
    ageDays: Math.max(0, Math.floor((now - Date.parse(since)) / DAY_MS)), quantity: n(r.quantity), allocatedQuantity: n(r.allocated_qty),
    shortQuantity: n(r.quantity) - n(r.allocated_qty), freeNow: Math.max(0, n(r.free_now)), shortReason: (r.short_reason ?? null) as ShortReason | null,
  };
};

/** /BKO: the order lines waiting for stock, and filling them as stock arrives. */
export class BackorderService {
  constructor(private readonly deps: { db: Db; dialect: Dialect }) {}

  async list(principal: Principal, req: ListRequest<BackorderFilters>) {
    principal.scope.assert({ warehouseId: req.filters?.warehouseId, customerId: req.filters?.customerId });
    const now = Date.now();
    const rows = await repo.list(this.deps.db, this.deps.dialect, principal.scope, req, new Date(now).toISOString().slice(0, 10));
    return toListPage(rows, toBackorder(now));
  }
}

/**
 * Fills backorders as stock arrives. After every stock posting with units arriving (a put-away, an adjustment up,
 * a count gain, a return, a kit build, a move onto a pick face) commits, a job is queued when orders wait for those
 * SKUs there; it allocates them by priority, then the order taken in first.
 *  - A job, not the posting's transaction: the arrival must never fail or wait because of an order; allocating many
 *    orders would hold the arrival's balance locks for long, and would take order rows after balances — the
 *    opposite of AllocateOrders' order, inviting deadlocks on PostgreSQL. The job takes each order's row first.
 *  - Looked for a moment after commit, for all the arrivals of that moment at once (a burst: a receiving clerk's
 *    scans, an import's rows), not in the posting: a stock operation's statements are budgeted, after-commit work
 *    included (test/operation-statements.test.ts), and a burst costs one look. The price: a process stopping
 *    within that moment leaves those orders waiting until the next arrival of the SKU or an Allocate — no stock
 *    is lost or doubled.
 *  - Running it twice is harmless (it allocates only what is still short), so a queued job for the same SKUs is
 *    not queued again.
 */
export function registerBackorderFilling(jobs: Jobs, domainEvents: DomainEvents, db: Db, allocation: OrderAllocationService,
  log: { warn(obj: object, msg: string): void }) {
  jobs.register<FillPayload>(FILL_BACKORDERS_JOB, {
    payload: fillPayload,
    maxAttempts: 3,
    backoffMs: 2000,
    async run(payload) {
      const actor = systemActor('backorders');
      let filled = 0;
      for (const orderId of await alloc.waitingOrders(db, payload)) {
        try {
          if (await inTransaction(db, (uow) => allocation.allocateOrder(uow, actor, orderId, 'AllocateOrder', true))) filled++;
        } catch (err) {
          // Held, cancelled or allocated meanwhile: no longer waiting.
          if (!(err instanceof AppError && err.status === 409)) throw err;
        }
      }
      return { filled };
    },
  });

  const burst = new ArrivalBurst(async (target) => {
    if ((await alloc.waitingOrders(db, target)).length === 0) return;
    await inTransaction(db, async (uow) => {
      const queued = await uow.tx.selectFrom('job').select('id').where('name', '=', FILL_BACKORDERS_JOB).where('status', '=', 'queued')
        .where('warehouse_id', '=', target.warehouseId).where('customer_id', '=', target.customerId).where('payload_json', '=', JSON.stringify(target)).executeTakeFirst();
      if (!queued) await jobs.enqueue(uow, FILL_BACKORDERS_JOB, target, { warehouseId: target.warehouseId, customerId: target.customerId });
    });
  }, log);
  domainEvents.afterCommit('stock.posted', 'orders.fill-backorders', (posted) => {
    burst.add(posted.warehouseId, posted.customerId, arrivedSkuIds(posted.legs));
  });
}

/** Legs that carry an order's own reserved units on to its next place: nothing a waiting order could take. */
const RESERVED_MOVES: ReadonlySet<string> = new Set<StockTxnType>(['pick_in', 'pack_in']);

/**
 * The SKUs a posting brought units of that a waiting order could take: units in, but not an order's picked or
 * packed units moving on (every pick and pack would otherwise cost a look for backorders).
 */
export const arrivedSkuIds = (legs: readonly PostedLeg[]) => legs.filter((l) => l.qty > 0 && !RESERVED_MOVES.has(l.txnType)).map((l) => l.skuId);

/**
 * How long arrivals gather before their one look for waiting orders: long enough for a clerk's run of scans to make
 * one look (and for that look to fall outside the operation that caused it), short for someone waiting on /BKO.
 */
const BURST_MS = 2000;

/** The SKUs that arrived per warehouse and client in the last moment, handed on together (see registerBackorderFilling). */
class ArrivalBurst {
  private readonly pending = new Map<string, FillPayload>();
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly look: (target: FillPayload) => Promise<void>, private readonly log: { warn(obj: object, msg: string): void }) {}

  add(warehouseId: number, customerId: number, skuIds: number[]) {
    if (skuIds.length === 0) return;
    const key = `${warehouseId}|${customerId}`;
    const target = this.pending.get(key) ?? { warehouseId, customerId, skuIds: [] };
    target.skuIds = [...new Set([...target.skuIds, ...skuIds])].sort((a, b) => a - b);
    this.pending.set(key, target);
    // Not kept alive for this: a stopping process drops the moment's look (see above).
    this.timer ??= setTimeout(() => void this.flush(), BURST_MS).unref();
  }

  async flush() {
    this.timer = undefined;
    const targets = [...this.pending.values()];
    this.pending.clear();
    for (const target of targets) {
      try {
        await this.look(target);
      } catch (err) {
        this.log.warn({ err, target }, 'Could not look for backorders to fill');
      }
    }
  }
}
