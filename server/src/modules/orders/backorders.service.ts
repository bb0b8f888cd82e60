import type { BackorderLine, OrderStatus, ShortReason } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import { systemActor } from '../../platform/actor.js';
import type { DomainEvents } from '../../platform/domain-events.js';
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
 * Fills backorders as stock arrives. Every stock posting with units arriving (a put-away, an adjustment up, a count
 * gain, a return, a kit build, a move onto a pick face) queues, in the posting's own transaction, a job that
 * allocates the orders waiting for those SKUs there — by priority, then the order taken in first. A job rather than
 * allocating in the posting's transaction: the arrival must never fail or wait because of an order; allocating many
 * orders would hold the arrival's balance locks for long; and the job takes each order's row before its stock,
 * the same order AllocateOrders takes them in (the arrival holds balances first: doing it inside would invite
 * deadlocks on PostgreSQL). Queued with the posting, the job exists exactly when the stock does. Running it twice
 * is harmless (it allocates only what is still short), so a queued job for the same SKUs is not queued again.
 */
export function registerBackorderFilling(jobs: Jobs, domainEvents: DomainEvents, db: Db, allocation: OrderAllocationService) {
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

  domainEvents.inTransaction('stock.posted', 'orders.fill-backorders', async (posted, { uow }) => {
    const skuIds = [...new Set(posted.legs.filter((l) => l.qty > 0).map((l) => l.skuId))].sort((a, b) => a - b);
    if (skuIds.length === 0) return;
    const target = { warehouseId: posted.warehouseId, customerId: posted.customerId, skuIds };
    if ((await alloc.waitingOrders(uow.tx, target)).length === 0) return;
    const payload = JSON.stringify(target);
    const queued = await uow.tx.selectFrom('job').select('id').where('name', '=', FILL_BACKORDERS_JOB).where('status', '=', 'queued')
      .where('warehouse_id', '=', target.warehouseId).where('customer_id', '=', target.customerId).where('payload_json', '=', payload).executeTakeFirst();
    if (!queued) await jobs.enqueue(uow, FILL_BACKORDERS_JOB, target, { warehouseId: target.warehouseId, customerId: target.customerId });
  });
}
