import { offeredActions, statusColour, type DocumentAction, type DocumentKind } from '@bolx/contracts';

/**
 * What a screen may offer on a document: the actions whose target status the contracts' status machine allows
 * from the document's status — the same table the server checks, so a screen never offers a move it refuses.
 */
export function allowedActions<K extends DocumentKind>(kind: K, status: string | undefined): Set<DocumentAction<K>> {
  return new Set(status ? offeredActions(kind, status) : []);
}

/** Whether one action is offered on a document in this status. */
export const mayAct = <K extends DocumentKind>(kind: K, status: string | undefined, action: DocumentAction<K>): boolean =>
  allowedActions(kind, status).has(action);

/** The tag colour of a document's status, from the same table. */
export const documentStatusColour = (kind: DocumentKind, status: string) => statusColour(kind, status);

/** Where each kind's status labels live in the message catalog. */
export const STATUS_LABEL_PREFIX: Record<DocumentKind, string> = {
  RECEIVING_ORDER: 'inbound.status',
  CYCLE_COUNT: 'inventory.status',
  ADJUSTMENT: 'inventory.status',
  REPLENISHMENT_TASK: 'inventory.status',
  SALES_ORDER: 'outbound.status',
  KIT_WORK_ORDER: 'kits.status',
  WAVE: 'floor.waveStatus',
  PICK_JOB: 'floor.jobStatus',
  SHIPMENT: 'shipping.status',
  INVOICE: 'billing.status',
  RMA: 'returns.status',
  FREIGHT_SHIPMENT: 'freight.status',
  TICKET: 'helpdesk.status',
};
