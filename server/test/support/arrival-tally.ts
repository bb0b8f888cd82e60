import type { ChangeRecorder } from '../../src/platform/change-recorder.js';
import type { DomainEvents } from '../../src/platform/domain-events.js';

/**
 * A stand-in for a later module that reacts to arrivals (backorders filled on arrival, labour counts): it
 * subscribes to receiving's events by name, and receiving neither imports nor calls it. In the transaction it
 * writes its own audit row (committed with the receipt, or rolled back with it); after commit it keeps a tally.
 */
export class ArrivalTally {
  readonly unitsBySku = new Map<number, number>();
  readonly closedOrders: number[] = [];
  private readonly stops: (() => void)[];

  constructor(deps: { domainEvents: DomainEvents; recorder: ChangeRecorder }) {
    this.stops = [
      deps.domainEvents.inTransaction('receipt.posted', 'arrival-tally.audit', async (receipt, { uow, actor }) => {
        await deps.recorder.record(uow, actor, {
          audit: { action: 'arrival_tallied', entity: 'arrival_tally', entityId: receipt.receivingOrderId, warehouseId: receipt.warehouseId, customerId: receipt.customerId },
        });
      }),
      deps.domainEvents.afterCommit('receipt.posted', 'arrival-tally.count', (receipt) => {
        for (const line of receipt.lines) this.unitsBySku.set(line.skuId, (this.unitsBySku.get(line.skuId) ?? 0) + line.quantity);
      }),
      deps.domainEvents.afterCommit('receiving-order.closed', 'arrival-tally.closed', (order) => {
        this.closedOrders.push(order.receivingOrderId);
      }),
    ];
  }

  stop(): void {
    for (const stop of this.stops) stop();
  }
}
