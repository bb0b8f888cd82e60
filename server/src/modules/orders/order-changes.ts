import type { HubEventMap, OrderSummary } from '@bolx/contracts';
import type { Change } from '../../platform/change-recorder.js';
import type { RaisedEvent } from '../../platform/domain-events.js';

export type OrderSubEvent = HubEventMap['ReceiveOrderData']['subEvent'];

/** The audit row, hub event and domain events of an order's change (recorded in its transaction). */
export function orderChange(after: OrderSummary, c: {
  action: string; subEvent: OrderSubEvent; before?: unknown; extra?: Record<string, unknown>; raises?: RaisedEvent[];
}): Change {
  return {
    audit: {
      action: c.action, entity: 'sales_order', entityId: after.orderId, warehouseId: after.warehouseId, customerId: after.customerId, before: c.before,
      after: c.extra ? { ...after, ...c.extra } : after,
    },
    events: {
      target: 'ReceiveOrderData', payload: { subEvent: c.subEvent, payload: after, ...(c.extra ? { detail: c.extra } : {}) },
      warehouseId: after.warehouseId, customerId: after.customerId,
    },
    raises: c.raises ?? [],
  };
}
