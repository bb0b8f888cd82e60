import { describe, expect, it } from 'vitest';
import { ADJUSTMENT_STATUSES, CYCLE_COUNT_STATUSES, DOCUMENT_KINDS, ORDER_STATUSES, REPLENISHMENT_TASK_STATUSES, RO_STATUSES, STATUS_MACHINES, WORK_ORDER_STATUSES, WAVE_STATUSES, PICK_JOB_STATUSES, SHIPMENT_STATUSES, INVOICE_STATUSES, mayTransition, RMA_STATUSES, FREIGHT_STATUSES, TICKET_STATUSES } from '@bolx/contracts';
import { allowedActions, documentStatusColour, mayAct } from './status-actions';

const STATUSES = { RECEIVING_ORDER: RO_STATUSES, CYCLE_COUNT: CYCLE_COUNT_STATUSES, ADJUSTMENT: ADJUSTMENT_STATUSES, REPLENISHMENT_TASK: REPLENISHMENT_TASK_STATUSES, SALES_ORDER: ORDER_STATUSES, KIT_WORK_ORDER: WORK_ORDER_STATUSES, WAVE: WAVE_STATUSES, PICK_JOB: PICK_JOB_STATUSES, SHIPMENT: SHIPMENT_STATUSES, INVOICE: INVOICE_STATUSES, RMA: RMA_STATUSES, FREIGHT_SHIPMENT: FREIGHT_STATUSES, TICKET: TICKET_STATUSES };




describe('allowed actions', () => {
  it('offer exactly the actions whose move the server allows, in every status of every kind', () => {
    for (const kind of DOCUMENT_KINDS) {
      const actions = STATUS_MACHINES[kind].actions as Record<string, string>;
      // An action may be offered from fewer statuses than its move allows (releasing a hold: only On Hold).
      const sources = ('actionSources' in STATUS_MACHINES[kind] ? STATUS_MACHINES[kind].actionSources : {}) as Record<string, string[] | undefined>;
      for (const status of STATUSES[kind]) {
        const offered = allowedActions(kind, status);
        for (const [action, to] of Object.entries(actions)) {
          expect(offered.has(action as never), `${kind} ${status} ${action}`).toBe(mayTransition(kind, status, to) && (sources[action]?.includes(status) ?? true));
        }
      }
    }
  });

  it('offer the screens\' moves and nothing on a finished or unknown document', () => {
    expect(mayAct('RECEIVING_ORDER', 'Open', 'cancel')).toBe(true);
    expect(mayAct('RECEIVING_ORDER', 'Receiving', 'cancel')).toBe(false);
    expect(mayAct('RECEIVING_ORDER', 'Receiving', 'finalize')).toBe(true);
    expect(mayAct('ADJUSTMENT', 'Pending', 'approve')).toBe(true);
    expect(mayAct('ADJUSTMENT', 'Posted', 'approve')).toBe(false);
    expect([...allowedActions('CYCLE_COUNT', 'Counted')].sort()).toEqual(['approve', 'cancel']);
    expect(mayAct('CYCLE_COUNT', 'Recount', 'approve')).toBe(false);
    expect(allowedActions('REPLENISHMENT_TASK', undefined).size).toBe(0);
  });

  it('colour every status of every kind, the adjustments\' four apart (Posted at once told from Approved)', () => {
    for (const kind of DOCUMENT_KINDS) for (const s of STATUSES[kind]) expect(documentStatusColour(kind, s)).toBeTruthy();
    const adjustments = ADJUSTMENT_STATUSES.map((s) => documentStatusColour('ADJUSTMENT', s));
    expect(adjustments).not.toContain('default');
    expect(new Set(adjustments).size).toBe(ADJUSTMENT_STATUSES.length);
  });
});
