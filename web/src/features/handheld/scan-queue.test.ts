import { describe, expect, it } from 'vitest';
import { ScanQueue } from './scan-queue';

/** A run whose calls finish when the test says so. */
function gated() {
  const seen: string[] = [];
  const gates: (() => void)[] = [];
  const run = (code: string) => new Promise<void>((resolve) => { seen.push(code); gates.push(resolve); });
  const answer = async () => { gates.shift()?.(); await new Promise((r) => setTimeout(r, 0)); };
  return { seen, run, answer };
}

describe('the scan queue', () => {
  it('drops a bare Enter while a call is on its way (a fast double Enter submits once)', async () => {
    const g = gated();
    const q = new ScanQueue(g.run);
    q.push('');
    q.push('');
    expect(g.seen).toEqual(['']);
    await g.answer();
    expect(q.busy).toBe(false);
    expect(g.seen).toEqual(['']);
  });

  it('keeps codes scanned during a call and runs them in order, one at a time', async () => {
    const g = gated();
    const q = new ScanQueue(g.run);
    q.push('A');
    q.push('B');
    q.push('C');
    expect(g.seen).toEqual(['A']);
    await g.answer();
    expect(g.seen).toEqual(['A', 'B']);
    await g.answer();
    await g.answer();
    expect(g.seen).toEqual(['A', 'B', 'C']);
    expect(q.busy).toBe(false);
  });

  it('forgets what waits when cleared (a refused scan)', async () => {
    const g = gated();
    const q = new ScanQueue(g.run);
    q.push('A');
    q.push('B');
    q.clear();
    await g.answer();
    expect(g.seen).toEqual(['A']);
    expect(q.busy).toBe(false);
  });
});
