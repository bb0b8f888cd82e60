import { describe, expect, it } from 'vitest';
import { clusterOrders, cutWave, pickPath, type PathPlace, type PickWork } from './pick-path.js';

let id = 0;
const place = (zone: string | null, aisle: string | null, rack: string | null, level: string | null = '1', bin: string | null = '1', code?: string): PathPlace =>
  ({ locationId: ++id, code: code ?? `${zone}-${aisle}-${rack}-${level}-${bin}`, zone, aisle, rack, level, bin });
const work = (orderId: number, p: PathPlace, skuId = p.locationId, lot = ''): PickWork =>
  ({ orderId, orderLineId: orderId * 100 + skuId, customerId: 1, skuId, lot, pallet: '', quantity: 1, place: p });

describe('pickPath', () => {
  it('serpentine over aisles in natural order (A2 before A10), racks up then down, then level, bin and code', () => {
    const a2r1 = place('A', '2', '1');
    const a2r10 = place('A', '2', '10');
    const a10r1 = place('A', '10', '1');
    const a10r2l1 = place('A', '10', '2', '1');
    const a10r2l2 = place('A', '10', '2', '2');
    const b1r5 = place('B', '1', '5');
    const b1r1 = place('B', '1', '1');
    const bare = place(null, null, null, null, null, 'DOCK-1');
    const input = [bare, b1r1, a10r2l2, a2r10, a10r1, b1r5, a10r2l1, a2r1].map((p) => ({ ...work(1, p), slot: 1 }));
    const path = pickPath(input);
    // Aisle A/2 up, A/10 down (rack 2 levels 1 then 2, then rack 1), B/1 up, then the place with no coordinates.
    expect(path.map((w) => w.place.locationId)).toEqual([a2r1, a2r10, a10r2l1, a10r2l2, a10r1, b1r1, b1r5, bare].map((p) => p.locationId));
    expect(path.map((w) => w.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('one stop per location, SKU and lot: two orders share it; another lot is another stop', () => {
    const p = place('A', '1', '1');
    const path = pickPath([{ ...work(2, p, 7), slot: 2 }, { ...work(1, p, 7), slot: 1 }, { ...work(1, p, 7, 'L2'), slot: 1 }]);
    expect(path.map((w) => [w.seq, w.slot, w.lot])).toEqual([[1, 1, ''], [1, 2, ''], [2, 1, 'L2']]);
  });
});

describe('cutWave', () => {
  const orders = Array.from({ length: 7 }, (_, i) => ({ orderId: i + 1, priority: i < 2 ? 1 : 5, requestedShipDate: i === 3 ? '2030-01-01' : null, customerId: 1 }));
  const each = orders.map((o) => work(o.orderId, place(o.orderId % 2 ? 'Z1' : 'Z2', '1', String(o.orderId))));

  it('cluster: by requested ship date, then priority, then the oldest; totesPerJob per job', () => {
    const jobs = cutWave('cluster', orders, each, 3);
    // Order 4 ships first (the only date); then priority 1 (orders 1, 2), then priority 5 — filled three to a job.
    expect(jobs.map((j) => j.orderIds)).toEqual([[4, 1, 2], [3, 5, 6], [7]]);
    expect(jobs.map((j) => j.priority)).toEqual([1, 5, 5]);
    expect(jobs[0].tasks.map((t) => [t.orderId, t.slot])).toEqual(expect.arrayContaining([[4, 1], [1, 2], [2, 3]]));
  });

  it('cluster: an earlier ship date goes before a higher priority', () => {
    const later = { orderId: 1, priority: 1, requestedShipDate: '2030-02-01', customerId: 1 };
    const sooner = { orderId: 2, priority: 9, requestedShipDate: '2030-01-01', customerId: 1 };
    expect(clusterOrders([later, sooner], 1)).toEqual([[2], [1]]);
  });

  it('cluster: keeps one customer\'s orders (of one ship date and priority) in one job where the totes allow', () => {
    const day = '2030-03-01';
    const of = (orderId: number, customerId: number) => ({ orderId, priority: 5, requestedShipDate: day, customerId });
    // A B A C B C C, three totes a job: A's two, B's two, C's three each in a job of their own rather than A A B | B C C | C.
    const mixed = [of(1, 10), of(2, 20), of(3, 10), of(4, 30), of(5, 20), of(6, 30), of(7, 30)];
    expect(clusterOrders(mixed, 3)).toEqual([[1, 3], [2, 5], [4, 6, 7]]);
    // More orders of a customer than a job has totes: whole jobs of theirs, begun afresh.
    const many = [of(1, 10), ...[2, 3, 4, 5, 6].map((id) => of(id, 20))];
    expect(clusterOrders(many, 3)).toEqual([[1], [2, 3, 4], [5, 6]]);
    // Another priority on the same day is another group: customers are kept together within it.
    expect(clusterOrders([of(1, 10), { ...of(2, 20), priority: 1 }, of(3, 10)], 3)).toEqual([[2, 1, 3]]);
    expect(clusterOrders(mixed, 50)).toEqual([[1, 3, 2, 5, 4, 6, 7]]);
  });

  it('discrete: one order per job; zone: one job per zone, orders by urgency within it', () => {
    expect(cutWave('discrete', orders, each, 3).map((j) => j.orderIds)).toEqual([[1], [2], [4], [3], [5], [6], [7]]);
    const zones = cutWave('zone', orders, [...each, work(2, place('Z1', '9', '9'))], 3);
    expect(zones.map((j) => [j.zone, j.orderIds])).toEqual([['Z1', [1, 2, 3, 5, 7]], ['Z2', [2, 4, 6]]]);
  });
});
