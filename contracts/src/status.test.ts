import { describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS, STATUS_MACHINES, mayTransition, offeredActions, sourcesOf, statusColour } from './status.js';

describe('status machines', () => {
  it('name only their own statuses, start in one, and each action leads somewhere reachable', () => {
    for (const kind of DOCUMENT_KINDS) {
      const m = STATUS_MACHINES[kind] as unknown as { initial: string[]; statuses: Record<string, { next: string[] }>; actions: Record<string, string> };
      const known = Object.keys(m.statuses);
      for (const s of m.initial) expect(known).toContain(s);
      for (const s of known) for (const n of m.statuses[s].next) expect(known, `${kind} ${s} → ${n}`).toContain(n);
      for (const to of Object.values(m.actions)) expect(sourcesOf(kind, to).length, `${kind} action to ${to}`).toBeGreaterThan(0);
    }
  });

  it('answer moves, sources, actions and colours from the tables', () => {
    expect(mayTransition('RECEIVING_ORDER', 'Open', 'Cancelled')).toBe(true);
    expect(mayTransition('RECEIVING_ORDER', 'Receiving', 'Cancelled')).toBe(false);
    expect(mayTransition('RECEIVING_ORDER', 'Nope', 'Cancelled')).toBe(false);
    expect(sourcesOf('CYCLE_COUNT', 'Cancelled').sort()).toEqual(['Counted', 'Open', 'Recount']);
    expect(offeredActions('RECEIVING_ORDER', 'Open')).toEqual(['cancel']);
    expect(offeredActions('RECEIVING_ORDER', 'Receiving')).toEqual(['finalize']);
    expect(offeredActions('ADJUSTMENT', 'Posted')).toEqual([]);
    expect(offeredActions('REPLENISHMENT_TASK', 'Open').sort()).toEqual(['cancel', 'complete']);
    expect(statusColour('ADJUSTMENT', 'Pending')).toBe('orange');
  });

  it('offer an order only the actions that can run from its status (releaseHold only on hold, allocate before release)', () => {
    const offered = (status: string) => offeredActions('SALES_ORDER', status).sort();
    expect(offered('New')).toEqual(['allocate', 'cancel', 'hold']);
    // release: into a wave (a short order only for a customer that allows backorders, which the server checks).
    expect(offered('Allocated')).toEqual(['cancel', 'hold', 'release', 'unallocate']);
    expect(offered('Partially Allocated')).toEqual(['allocate', 'cancel', 'hold', 'release', 'unallocate']);
    expect(offered('Backordered')).toEqual(['allocate', 'cancel', 'hold', 'release', 'unallocate']);
    expect(offered('On Hold')).toEqual(['cancel', 'releaseHold']);
    expect(offered('Released')).toEqual(['cancel', 'hold']);
    expect(offered('Picking')).toEqual([]);
    // Every offered source is one the table allows into the action's target.
    const t = STATUS_MACHINES.SALES_ORDER;
    for (const [action, from] of Object.entries(t.actionSources ?? {})) {
      for (const s of from ?? []) expect(mayTransition('SALES_ORDER', s, t.actions[action as keyof typeof t.actions])).toBe(true);
    }
    expect(statusColour('ADJUSTMENT', 'Nope')).toBe('default');
  });
});
