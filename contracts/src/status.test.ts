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
    expect(statusColour('ADJUSTMENT', 'Nope')).toBe('default');
  });
});
