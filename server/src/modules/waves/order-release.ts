import type { OrderStatus } from '@bolx/contracts';
import type { Actor } from '../../platform/actor.js';
import type { Change } from '../../platform/change-recorder.js';
import type { StatusMachine } from '../../platform/status-machine.js';
import type { UnitOfWork } from '../../platform/unit-of-work.js';
import { heldStatus } from '../orders/allocation.service.js';
import { orderChange } from '../orders/order-changes.js';
import type { OrderService } from '../orders/orders.service.js';
import { wavesRepository as repo } from './waves.repository.js';

const n = (v: unknown) => Number(v);

/**
 * Orders onto the floor and back, through the SALES_ORDER status machine: released into a wave (wave_id set), or
 * taken back when their wave or job is cancelled, to the status their lines' holding gives them (allocation's rule),
 * wave_id cleared. Reservations are never touched: the stock stays where allocation put it.
 */
export class OrderRelease {
  constructor(private readonly statuses: StatusMachine, private readonly orders: OrderService) {}

  /** Releases one order into a wave; answers its change, or undefined when it moved meanwhile (no longer in `from`). */
  async release(uow: UnitOfWork, actor: Actor, order: { id: number; status: string }, wave: { id: number; number: string }): Promise<Change | undefined> {
    const moved = await this.statuses.transition(uow, actor, {
      kind: 'SALES_ORDER', id: order.id, to: 'Released', from: [order.status as OrderStatus], ifPossible: true,
      set: { wave_id: wave.id, updated_at: new Date().toISOString() },
    });
    if (!moved) return undefined;
    const after = await this.orders.summaryWithin(uow.tx, order.id);
    return orderChange(after, { action: 'release', subEvent: 'ReleaseOrder', before: { status: order.status }, extra: { waveId: wave.id, waveNumber: wave.number } });
  }

  /** Takes Released orders back from the floor, each to what its lines hold; orders in another status are left alone. */
  async takeBack(uow: UnitOfWork, actor: Actor, orderIds: number[], reason: string | null): Promise<Change[]> {
    if (orderIds.length === 0) return [];
    const [orders, totals] = await Promise.all([repo.candidates(uow.tx, orderIds), repo.lineTotals(uow.tx, orderIds)]);
    const shortLines = new Map(totals.map((t) => [n(t.order_id), n(t.short_lines)]));
    const changes: Change[] = [];
    for (const order of orders.filter((o) => o.status === 'Released')) {
      const to = heldStatus((shortLines.get(n(order.id)) ?? 0) === 0, n(order.allow_backorders) === 1);
      await this.statuses.transition(uow, actor, {
        kind: 'SALES_ORDER', id: n(order.id), to, from: ['Released'], reason, set: { wave_id: null, updated_at: new Date().toISOString() },
      });
      const after = await this.orders.summaryWithin(uow.tx, n(order.id));
      changes.push(orderChange(after, { action: 'unrelease', subEvent: 'UpdateOrder', before: { status: 'Released' }, extra: reason ? { reason } : undefined }));
    }
    return changes;
  }
}
