import { z } from 'zod';
import {
  ERROR_CODES, batchRuleCriteria, type BatchAllocationSummary, type BatchRuleCriteria, type BatchRulePreview, type OrderStatus, type SavedBatchRule, type ShortReason,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import { classifyDbError, type Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { AppError, forbidden, notFound, unprocessable } from '../../platform/errors.js';
import type { JobContext, Jobs } from '../../platform/jobs/index.js';
import { toListPage, type ListRequest } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import { ORDERS_PER_TRANSACTION, type OrderAllocationService } from '../orders/allocation.service.js';
import { batchRulesRepository as rules, type RuleRow } from './batch-rules.repository.js';
import { wavesRepository as repo } from './waves.repository.js';

const n = (v: unknown) => Number(v);

export const BATCH_ALLOCATION_JOB = 'batch-allocation.run';
/** The statuses batch allocation takes orders from; a preview also counts the Allocated ones (ready to release). */
const TO_ALLOCATE: OrderStatus[] = ['New', 'Partially Allocated', 'Backordered'];
const PREVIEWED: OrderStatus[] = [...TO_ALLOCATE, 'Allocated'];
const SAMPLE = 50;
const NOT_FULLY_LISTED = 200;

const runPayload = z.object({
  orderIds: z.array(z.number().int().positive()),
  criteria: batchRuleCriteria,
  ruleId: z.number().int().nullable(),
  actor: z.object({ userId: z.number().nullable(), username: z.string().nullable(), ip: z.string().nullable(), requestId: z.string().nullable() }),
});
type RunPayload = z.infer<typeof runPayload>;

const toRule = (r: RuleRow): SavedBatchRule => ({
  ruleId: n(r.id), name: r.name, criteria: batchRuleCriteria.parse(JSON.parse(r.criteria)), lastRunAt: r.last_run_at ?? null, createdBy: r.created_by_name,
  updatedAt: r.updated_at,
});

/** "2 lines short: no-stock (1), expired (1)" — why an order did not allocate fully. */
function whyShort(lines: { shortReason: ShortReason | null; shortQuantity: number }[]): string {
  const short = lines.filter((l) => l.shortQuantity > 0);
  const by = new Map<string, number>();
  for (const l of short) by.set(l.shortReason ?? 'no-stock', (by.get(l.shortReason ?? 'no-stock') ?? 0) + 1);
  return `${short.length} ${short.length === 1 ? 'line' : 'lines'} short: ${[...by].map(([reason, count]) => `${reason} (${count})`).join(', ')}`;
}

/**
 * /BatchAllocation: choosing orders by a rule (a preview of what it matches), allocating them as a background job
 * (a chunk of orders per transaction, set-based through the orders module's allocation; progress over the hub after
 * each chunk; a restart takes the job
 * up again, and an order allocated before it counts as allocated), and saved rules to run again.
 */
export class BatchAllocationService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder'>, private readonly allocation: OrderAllocationService, private readonly jobs: Jobs) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  /** How many orders, lines and units a rule matches, by status, with the first 50 orders. */
  async preview(principal: Principal, criteria: BatchRuleCriteria): Promise<BatchRulePreview> {
    principal.scope.assert({ warehouseId: criteria.warehouseId, customerId: criteria.customerId });
    const [totals, first] = await Promise.all([
      repo.matchedTotals(this.db, principal.scope, criteria, PREVIEWED),
      repo.matching(this.db, principal.scope, { ...criteria, maxOrders: Math.min(criteria.maxOrders ?? SAMPLE, SAMPLE) }, PREVIEWED),
    ]);
    const rows = new Map((await repo.previewRows(this.db, first)).map((r) => [n(r.id), r]));
    const byStatus = PREVIEWED.map((status) => ({ status, count: totals.byStatus.find((s) => s.status === status)?.count ?? 0 }));
    return {
      orders: byStatus.reduce((sum, s) => sum + s.count, 0), lines: totals.lines, units: totals.units, byStatus,
      sample: first.map((id) => rows.get(id)!).map((r) => ({
        orderId: n(r.id), soNumber: r.so_number, referenceNumber: r.reference_number, customerName: r.customer_name, status: r.status as OrderStatus,
        priority: n(r.priority), requestedShipDate: r.requested_ship_date, lineCount: n(r.line_count), units: n(r.units),
      })),
    };
  }

  /** Queues the allocation of the rule's New, Partially Allocated and Backordered orders; a saved rule's last run is set. */
  async run(principal: Principal, input: { criteria: BatchRuleCriteria; ruleId?: number }, actor: Actor) {
    principal.scope.assert({ warehouseId: input.criteria.warehouseId, customerId: input.criteria.customerId });
    if (input.ruleId && !(await rules.find(this.db, principal.scope, input.ruleId))) throw notFound('Batch rule');
    const orderIds = await repo.matching(this.db, principal.scope, input.criteria, TO_ALLOCATE);
    if (orderIds.length === 0) throw unprocessable('No order waiting for allocation matches the rule', { criteria: 'No order waiting for allocation matches the rule' });
    const job = await inTransaction(this.db, async (uow) => {
      if (input.ruleId) await rules.ran(uow.tx, input.ruleId, new Date().toISOString());
      return this.jobs.enqueue<RunPayload>(uow, BATCH_ALLOCATION_JOB, { orderIds, criteria: input.criteria, ruleId: input.ruleId ?? null, actor }, {
        ownerUserId: principal.userId, warehouseId: input.criteria.warehouseId, customerId: input.criteria.customerId || null, maxAttempts: 3,
      });
    });
    return { message: `Allocating ${orderIds.length} ${orderIds.length === 1 ? 'order' : 'orders'} in the background`, data: job };
  }

  /**
   * The job's work: the orders ORDERS_PER_TRANSACTION to a transaction through allocation (allocateSet), as the user
   * who ran it (with their access as it is now); its progress after each chunk. Taken up again after a restart, it goes over the same orders: one allocated before counts as
   * fully allocated, one still short is tried again (allocation takes only what it lacks).
   */
  async work(payload: RunPayload, ctx: JobContext, principalOf: (userId: number, session: string) => Promise<Principal | null>): Promise<BatchAllocationSummary> {
    const principal = ctx.ownerUserId ? await principalOf(ctx.ownerUserId, `job:${ctx.jobId}`) : null;
    if (!principal) throw forbidden('The user who ran this allocation can no longer sign in');
    const total = payload.orderIds.length;
    await ctx.progress(0, total, `Allocating ${total} orders`);
    const orders = new Map((await repo.candidates(this.db, payload.orderIds)).map((o) => [n(o.id), o]));
    const summary: BatchAllocationSummary = { orders: total, fully: 0, partially: 0, notAllocated: 0, refused: 0, shortLinesByReason: {}, notFully: [] };
    const notFully = (entry: BatchAllocationSummary['notFully'][number]) => { if (summary.notFully.length < NOT_FULLY_LISTED) summary.notFully.push(entry); };
    let done = 0;
    for (let i = 0; i < total; i += ORDERS_PER_TRANSACTION) {
      if (ctx.signal.aborted) throw new Error('The allocation was stopped; it is taken up again where it left off');
      const part = payload.orderIds.slice(i, i + ORDERS_PER_TRANSACTION);
      const seen = (orderId: number) => {
        const order = orders.get(orderId);
        return !!order && principal.scope.canSeeWarehouse(n(order.warehouse_id)) && principal.scope.canSeeCustomer(n(order.customer_id));
      };
      // The chunk's orders in one transaction, set-based (the orders module's allocateSet), in the job's order.
      const answers = await inTransaction(this.db, (uow) => this.allocation.allocateSet(uow, payload.actor, part.filter(seen), 'AllocateOrder'));
      for (const orderId of part) {
        const order = orders.get(orderId);
        const outcome = answers.get(orderId);
        if (!order || !seen(orderId)) {
          summary.refused++;
          notFully({ orderId, soNumber: order?.so_number ?? '', status: (order?.status ?? 'New') as OrderStatus, reason: 'Order not found' });
        } else if (outcome instanceof AppError) {
          const now = (outcome.details as { status?: string } | undefined)?.status as OrderStatus | undefined;
          // Allocated meanwhile (by this job before a restart, or by someone at the dashboard): it is allocated.
          if (now === 'Allocated') summary.fully++;
          else {
            summary.refused++;
            notFully({ orderId, soNumber: order.so_number, status: now ?? (order.status as OrderStatus), reason: outcome.message.replace(/^Order is/, `Order ${order.so_number} is`) });
          }
        } else if (outcome) {
          for (const line of outcome.lines) if (line.shortReason) summary.shortLinesByReason[line.shortReason] = (summary.shortLinesByReason[line.shortReason] ?? 0) + 1;
          if (outcome.status === 'Allocated') summary.fully++;
          else {
            if (outcome.allocatedQuantity > 0) summary.partially++;
            else summary.notAllocated++;
            notFully({ orderId, soNumber: outcome.soNumber, status: outcome.status, reason: whyShort(outcome.lines) });
          }
        }
      }
      done += part.length;
      await ctx.progress(done, total, `${done} of ${total} orders`);
    }
    return summary;
  }

  async listRules(principal: Principal, req: ListRequest<{ warehouseId?: number }>) {
    return toListPage(await rules.list(this.db, this.dialect, principal.scope, req), toRule);
  }

  /** Saves a rule (new, or ruleId's): its name unique in its warehouse (409 otherwise). */
  async saveRule(principal: Principal, input: { ruleId?: number; name: string; criteria: BatchRuleCriteria }, actor: Actor) {
    principal.scope.assert({ warehouseId: input.criteria.warehouseId, customerId: input.criteria.customerId });
    const before = input.ruleId ? await rules.find(this.db, principal.scope, input.ruleId) : undefined;
    if (input.ruleId && !before) throw notFound('Batch rule');
    const taken = await rules.byName(this.db, input.criteria.warehouseId, input.name);
    const named = () => {
      const message = `A rule named ${input.name} already exists in this warehouse`;
      return new AppError(409, ERROR_CODES.CONFLICT, message, { name: message });
    };
    if (taken && n(taken.id) !== input.ruleId) throw named();
    const at = new Date().toISOString();
    const criteria = JSON.stringify(input.criteria);
    try {
      const rule = await inTransaction(this.db, async (uow) => {
        let id = input.ruleId;
        if (id) await rules.update(uow.tx, id, { warehouse_id: input.criteria.warehouseId, name: input.name, criteria, at });
        else id = await rules.insert(uow.tx, { warehouse_id: input.criteria.warehouseId, name: input.name, criteria, created_by: actor.userId, at });
        const after = toRule((await rules.find(uow.tx, principal.scope, id))!);
        await this.recorder.record(uow, actor, {
          audit: { action: before ? 'update' : 'create', entity: 'batch_rule', entityId: id, warehouseId: after.criteria.warehouseId, before: before ? toRule(before) : undefined, after },
        });
        return after;
      });
      return { message: `Rule ${rule.name} saved`, data: rule };
    } catch (err) {
      // Two saves of one name at once: the unique index decides.
      if (classifyDbError(err) === 'unique') throw named();
      throw err;
    }
  }

  async deleteRule(principal: Principal, input: { ruleId: number }, actor: Actor) {
    const before = await rules.find(this.db, principal.scope, input.ruleId);
    if (!before) throw notFound('Batch rule');
    const rule = toRule(before);
    await inTransaction(this.db, async (uow) => {
      await rules.remove(uow.tx, input.ruleId);
      await this.recorder.record(uow, actor, { audit: { action: 'delete', entity: 'batch_rule', entityId: input.ruleId, warehouseId: n(before.warehouse_id), before: rule } });
    });
    return { message: `Rule ${rule.name} deleted`, data: rule };
  }
}

/** The batch allocation job: its payload and work (the orders frozen when it was queued). */
export function registerBatchAllocationJob(jobs: Jobs, services: { batchAllocation: BatchAllocationService; auth: { principalOfUser(userId: number, session: string): Promise<Principal | null> } }) {
  jobs.register<RunPayload>(BATCH_ALLOCATION_JOB, {
    payload: runPayload,
    maxAttempts: 3,
    backoffMs: 2000,
    run: (payload, ctx) => services.batchAllocation.work(payload, ctx, (userId, session) => services.auth.principalOfUser(userId, session)),
  });
}
