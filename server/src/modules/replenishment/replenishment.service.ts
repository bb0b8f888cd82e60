import { randomUUID } from 'node:crypto';
import { REPLENISHMENT_TASK_STATUSES, type FilterLabel } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import { classifyDbError, type Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { domainEvent, type RaisedEvent } from '../../platform/domain-events.js';
import { AppError, badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import type { ListRequest } from '../../platform/list.js';
import { toXlsx } from '../../platform/excel.js';
import { count, noun } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { FloorEvents } from '../../platform/floor-events.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { StatusMachine } from '../../platform/status-machine.js';
import type { Place, StockEngine } from '../../platform/stock/stock-engine.js';
import { replenishmentRepository as repo, type RuleFilter, type TaskFilter } from './replenishment.repository.js';
import { ruleListColumns, taskListColumns } from './replenishment.repository.js';

const closedMeanwhile = () => 'This task was closed by someone else meanwhile';
/** A task's reservation of its source: the task is the owner, by its ledger document id. */
const ownerOf = (taskId: number) => ({ documentType: 'REPLENISHMENT' as const, documentId: `RPL-${taskId}` });

type RuleInput = { warehouseId: number; customerId: number; skuId: number; locationId: number; minQty: number; maxQty: number; isActive: boolean };

/**
 * Replenishment: min/max per pick location (SKU + location). Generation makes one task per pick location
 * below its min, from the first FEFO bulk (not pickable) source, and allocates that source so nothing else
 * takes it; completing the task moves the stock through the ledger.
 */
export class ReplenishmentService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly statuses: StatusMachine;
  /** The activity log: a completed task is labour (productivity, labour time per task type). */
  private readonly floor: FloorEvents;
  constructor(deps: Pick<ServiceDeps, 'db' | 'dialect' | 'recorder' | 'timeZones'>, private readonly stock: StockEngine) {
    this.floor = new FloorEvents(deps.timeZones);
    this.statuses = new StatusMachine(deps);
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
  }

  filterLabels(): FilterLabel[] {
    return [{ key: 'status', label: 'Status', type: 'select', options: REPLENISHMENT_TASK_STATUSES.map((s) => ({ label: s, value: s })) }];
  }

  async saveRule(principal: Principal, input: RuleInput, actor: Actor) {
    const place: Place = { warehouseId: input.warehouseId, customerId: input.customerId, skuId: input.skuId, locationId: input.locationId, lot: '', pallet: '' };
    principal.scope.assert({ warehouseId: place.warehouseId, customerId: place.customerId });
    await this.stock.references({ warehouseId: place.warehouseId, customerId: place.customerId, skuId: place.skuId, locationIds: [input.locationId] });
    const location = await repo.location(this.db, input.locationId);
    if (location?.is_pickable !== 1) throw unprocessable('Min/max is set on a pick location', 'This location is not pickable (bulk storage)');
    const id = await inTransaction(this.db, async (uow) => {
      const ruleId = await repo.upsertRule(uow.tx, input);
      await this.record(uow, actor, 'save_rule', 'replenishment_rule', ruleId, place, { subEvent: 'UpdateRule', payload: { ruleId } }, input);
      return ruleId;
    });
    const [rule] = await this.ruleSelect(repo.rules(this.db, principal.scope, {}).where('r.id', '=', id)).execute();
    return { message: 'Replenishment min/max saved', data: toRule(rule as RuleRow) };
  }

  /** One task per due rule; a rule with no free bulk stock is reported as a shortage. */
  async generate(principal: Principal, input: { warehouseId: number; customerId?: number }, actor: Actor) {
    principal.scope.assert(input);
    const due = await repo.dueRules(this.db, principal.scope, input);
    const created: number[] = [];
    const shortages: { ruleId: number; skuCode: string; locationCode: string; needed: number }[] = [];
    for (const rule of due) {
      const needed = rule.max_qty - Number(rule.on_hand);
      try {
        const taskId = await inTransaction(this.db, async (uow) => {
          const provisional = { documentType: 'REPLENISHMENT' as const, documentId: `new-${randomUUID()}` };
          const taken = await this.stock.allocate(uow, {
            // The task is the owner, but has no id yet: reserved under a provisional owner, handed to the task below.
            owner: provisional,
            warehouseId: rule.warehouse_id, customerId: rule.customer_id, skuId: rule.sku_id, quantity: needed,
            locations: 'bulk', excludeLocationId: rule.location_id, allowPartial: true, singleSource: true,
          });
          const source = taken.lines[0];
          if (!source) return null;
          const id = await repo.insertTask(uow.tx, {
            rule_id: rule.id, warehouse_id: rule.warehouse_id, customer_id: rule.customer_id, sku_id: rule.sku_id,
            from_location_id: source.place.locationId, to_location_id: rule.location_id, lot: source.place.lot, pallet: source.place.pallet,
            quantity: source.quantity, status: 'Open', created_by: actor.userId, created_at: new Date().toISOString(),
          });
          await this.stock.transferReservations(uow, provisional, ownerOf(id));
          await this.record(uow, actor, 'create_task', 'replenishment_task', id, source.place, { subEvent: 'AddTasks', payload: { ruleId: rule.id, taskIds: [id], status: 'Open' } },
            { from: source.place.locationId, to: rule.location_id, quantity: source.quantity });
          return id;
        });
        if (taskId) created.push(taskId);
        else shortages.push({ ruleId: rule.id, skuCode: rule.sku_code, locationCode: rule.location_code, needed });
      } catch (err) {
        // Another run made this rule's task first (one open task per rule): nothing to add.
        if (err instanceof AppError || classifyDbError(err) !== 'unique') throw err;
      }
    }
    const tasks = created.length ? await this.taskSelect(repo.tasks(this.db, principal.scope, {}).where('t.id', 'in', created)).orderBy('t.id').execute() : [];
    return {
      message: `${count(created.length, 'replenishment task')} created${shortages.length ? `; ${count(shortages.length, 'pick location')} ${noun(shortages.length, 'has', 'have')} no bulk stock` : ''}`,
      data: { created: (tasks as TaskRow[]).map(toTask), shortages },
    };
  }

  private async openTask(principal: Principal, id: number) {
    const task = await repo.findTask(this.db, id);
    if (!task) throw notFound('Replenishment task');
    principal.scope.assert({ warehouseId: task.warehouse_id, customerId: task.customer_id });
    if (task.status !== 'Open') throw conflict(`This task is already ${task.status.toLowerCase()}`);
    return task;
  }

  /** Moves the task's stock to the pick location (all of it, or fewer units when fewer were found). */
  async complete(principal: Principal, input: { taskId: number; quantity?: number }, actor: Actor) {
    const task = await this.openTask(principal, input.taskId);
    const qty = input.quantity ?? task.quantity;
    if (qty > task.quantity) throw badRequest('More than the task asks for', { quantity: `At most ${task.quantity}` });
    const from: Place = { warehouseId: task.warehouse_id, customerId: task.customer_id, skuId: task.sku_id, locationId: task.from_location_id, lot: task.lot, pallet: task.pallet };
    // Stock on a pick face is loose: it leaves its pallet, keeping its lot.
    const to: Place = { ...from, locationId: task.to_location_id, pallet: '' };
    const result = await inTransaction(this.db, async (uow) => {
      const documentId = `RPL-${task.id}`;
      await this.statuses.transition(uow, actor, {
        kind: 'REPLENISHMENT_TASK', id: task.id, to: 'Completed', refusal: closedMeanwhile,
        set: { moved_qty: qty, completed_by: principal.userId, completed_at: new Date().toISOString(), document_id: documentId },
      });
      // Both balances locked at once, in id order (as every lock of balances): the release would lock the source
      // alone and the posting the pick face after it, out of that order.
      await this.stock.lockBalances(uow, [from, to]);
      await this.stock.release(uow, ownerOf(task.id));
      await this.floor.record(uow, actor, [{
        kind: 'replenish', warehouseId: from.warehouseId, customerId: from.customerId, skuId: from.skuId, locationId: to.locationId, quantity: qty,
        docType: 'REPLENISHMENT', docId: task.id,
      }]);
      const posted = await this.stock.post(uow, {
        documentType: 'REPLENISHMENT', documentId, reason: `Replenishment task ${task.id}`,
        legs: [{ place: from, qty: -qty, txnType: 'move_out' }, { place: to, qty, txnType: 'move_in' }],
        record: { kind: 'Replenish', after: { taskId: task.id, quantity: qty } },
      }, actor);
      await this.record(uow, actor, 'complete_task', 'replenishment_task', task.id, from, { subEvent: 'UpdateTask', payload: { taskIds: [task.id], status: 'Completed' } }, { movedQty: qty },
        [domainEvent('replenishment-task.completed', {
          taskId: task.id, document: documentId, warehouseId: from.warehouseId, customerId: from.customerId, skuId: from.skuId, fromLocationId: from.locationId, toLocationId: to.locationId, quantity: qty,
        })]);
      return posted;
    });
    return { message: `Replenished ${count(qty, 'unit')}`, data: result };
  }

  async cancel(principal: Principal, input: { taskId: number }, actor: Actor) {
    const task = await this.openTask(principal, input.taskId);
    const from: Place = { warehouseId: task.warehouse_id, customerId: task.customer_id, skuId: task.sku_id, locationId: task.from_location_id, lot: task.lot, pallet: task.pallet };
    await inTransaction(this.db, async (uow) => {
      await this.statuses.transition(uow, actor, {
        kind: 'REPLENISHMENT_TASK', id: task.id, to: 'Cancelled', refusal: closedMeanwhile, set: { completed_by: principal.userId, completed_at: new Date().toISOString() },
      });
      await this.stock.release(uow, ownerOf(task.id));
      await this.record(uow, actor, 'cancel_task', 'replenishment_task', task.id, from, { subEvent: 'UpdateTask', payload: { taskIds: [task.id], status: 'Cancelled' } }, {});
    });
    return { message: 'Replenishment task cancelled', data: { taskId: task.id } };
  }

  private async record(uow: UnitOfWork, actor: Actor, action: string, entity: string, id: number, place: Place,
    event: { subEvent: 'UpdateRule' | 'AddTasks' | 'UpdateTask'; payload: { ruleId?: number; taskIds?: number[]; status?: string } }, after: object, raises: RaisedEvent[] = []) {
    await this.recorder.record(uow, actor, {
      audit: { action, entity, entityId: id, warehouseId: place.warehouseId, customerId: place.customerId, after },
      events: { target: 'ReceiveReplenishmentData', payload: event, warehouseId: place.warehouseId, customerId: place.customerId },
      raises,
    });
  }

  private ruleSelect = ruleListColumns;

  private taskSelect = taskListColumns;

  async rules(principal: Principal, req: ListRequest<RuleFilter>) {
    const page = await repo.listRules(this.db, this.dialect, principal.scope, req);
    return { totalCount: page.total, items: (page.rows as RuleRow[]).map(toRule) };
  }

  async tasks(principal: Principal, req: ListRequest<TaskFilter>) {
    const page = await repo.listTasks(this.db, this.dialect, principal.scope, req);
    return { totalCount: page.total, items: (page.rows as TaskRow[]).map(toTask) };
  }

  async downloadTasks(principal: Principal, req: Pick<ListRequest<TaskFilter>, 'filters' | 'searchQuery' | 'sort'>) {
    const rows = ((await repo.listAllTasks(this.db, this.dialect, principal.scope, req)) as TaskRow[]).map(toTask);
    return toXlsx('Replenishment Tasks', [
      { header: 'Task', value: (r) => r.taskId }, { header: 'Client', value: (r) => r.customerName, width: 24 }, { header: 'SKU', value: (r) => r.skuCode },
      { header: 'From', value: (r) => r.fromLocationCode }, { header: 'To', value: (r) => r.toLocationCode }, { header: 'Lot', value: (r) => r.lot },
      { header: 'Pallet', value: (r) => r.pallet }, { header: 'Quantity', value: (r) => r.quantity }, { header: 'Moved', value: (r) => r.movedQty },
      { header: 'Status', value: (r) => r.status }, { header: 'Created At', value: (r) => r.createdAt, width: 24 }, { header: 'Completed By', value: (r) => r.completedBy },
    ], rows);
  }
}

type RuleRow = {
  id: number; warehouse_id: number; warehouse_name: string; customer_id: number; customer_name: string; sku_id: number; sku_code: string; sku_description: string;
  location_id: number; location_code: string; min_qty: number; max_qty: number; is_active: number; on_hand: number;
};
const toRule = (r: RuleRow) => ({
  ruleId: r.id, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id, customerName: r.customer_name,
  skuId: r.sku_id, skuCode: r.sku_code, skuDescription: r.sku_description, locationId: r.location_id, locationCode: r.location_code, minQty: r.min_qty, maxQty: r.max_qty,
  isActive: r.is_active === 1, onHand: Number(r.on_hand), belowMin: r.is_active === 1 && Number(r.on_hand) < r.min_qty,
});
type TaskRow = {
  id: number; rule_id: number; warehouse_id: number; customer_id: number; customer_name: string; sku_id: number; sku_code: string;
  from_location_id: number; from_code: string; to_location_id: number; to_code: string; lot: string; pallet: string; quantity: number;
  moved_qty: number | null; status: 'Open' | 'Completed' | 'Cancelled'; created_at: string; completed_by_name: string | null;
  completed_at: string | null; document_id: string | null;
};
const toTask = (r: TaskRow) => ({
  taskId: r.id, ruleId: r.rule_id, warehouseId: r.warehouse_id, customerId: r.customer_id, customerName: r.customer_name, skuId: r.sku_id,
  skuCode: r.sku_code, fromLocationId: r.from_location_id, fromLocationCode: r.from_code, toLocationId: r.to_location_id, toLocationCode: r.to_code,
  lot: r.lot, pallet: r.pallet, quantity: r.quantity, movedQty: r.moved_qty, status: r.status, createdAt: r.created_at,
  completedBy: r.completed_by_name, completedAt: r.completed_at, document: r.document_id,
});
