import type { PickStrategy } from '@bolx/contracts';

/** Where a unit of pick work is: a location's place in the walk (zone, aisle, rack, level, bin, code). */
export interface PathPlace {
  locationId: number;
  code: string;
  zone: string | null;
  aisle: string | null;
  rack: string | null;
  level: string | null;
  bin: string | null;
}

/** One reservation to pick: an order line's units at one balance's place. */
export interface PickWork {
  orderId: number;
  orderLineId: number;
  customerId: number;
  skuId: number;
  lot: string;
  pallet: string;
  quantity: number;
  place: PathPlace;
}

/** An order as the cut sees it: its urgency (priority, requested ship date, age) and its customer. */
export interface WaveOrder {
  orderId: number;
  priority: number;
  requestedShipDate: string | null;
  customerId: number;
}

/** A cut job: its zone (zone strategy), its orders by slot (1..n), and its work in walking order with stop numbers. */
export interface CutJob {
  zone: string | null;
  priority: number;
  orderIds: number[];
  tasks: (PickWork & { seq: number; slot: number })[];
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Natural order ("A2" before "A10"); an empty coordinate walks after the named ones. */
function compare(a: string | null, b: string | null): number {
  const x = a ?? '';
  const y = b ?? '';
  if (x === y) return 0;
  if (x === '') return 1;
  if (y === '') return -1;
  return collator.compare(x, y);
}

const aisleKey = (p: PathPlace) => `${p.zone ?? ''}\u0000${p.aisle ?? ''}`;

/**
 * The walking order of a job's work: by zone and aisle, then up the racks in the 1st, 3rd, 5th… aisle visited and
 * down them in the 2nd, 4th… (a serpentine, so the picker never walks an aisle back empty), then level, bin and
 * code. Work at the same location, SKU and lot is one stop (one seq), its tasks by slot.
 */
export function pickPath<W extends PickWork & { slot: number }>(work: W[]): (W & { seq: number })[] {
  const aisles = [...new Map(work.map((w) => [aisleKey(w.place), w.place])).values()]
    .sort((a, b) => compare(a.zone, b.zone) || compare(a.aisle, b.aisle));
  const descending = new Set(aisles.filter((_, i) => i % 2 === 1).map(aisleKey));
  const sorted = [...work].sort((a, b) => {
    const p = a.place;
    const q = b.place;
    const byAisle = compare(p.zone, q.zone) || compare(p.aisle, q.aisle);
    if (byAisle) return byAisle;
    const rack = compare(p.rack, q.rack) * (descending.has(aisleKey(p)) ? -1 : 1);
    return rack || compare(p.level, q.level) || compare(p.bin, q.bin) || collator.compare(p.code, q.code) || p.locationId - q.locationId
      || a.skuId - b.skuId || a.lot.localeCompare(b.lot) || a.slot - b.slot || a.orderLineId - b.orderLineId;
  });
  const stops = new Map<string, number>();
  return sorted.map((w) => {
    const key = `${w.place.locationId}\u0000${w.skuId}\u0000${w.lot}`;
    if (!stops.has(key)) stops.set(key, stops.size + 1);
    return { ...w, seq: stops.get(key)! };
  }).sort((a, b) => a.seq - b.seq || a.slot - b.slot || a.orderLineId - b.orderLineId);
}

/** Most urgent first: priority (1 first), then the earliest requested ship date (none: last), then the oldest order. */
export function byUrgency(a: WaveOrder, b: WaveOrder): number {
  return a.priority - b.priority || compare(a.requestedShipDate, b.requestedShipDate) || a.orderId - b.orderId;
}

/** What ships first: the earliest requested ship date (none: last), then priority (1 first), then the oldest order. */
export function byShipDate(a: WaveOrder, b: WaveOrder): number {
  return compare(a.requestedShipDate, b.requestedShipDate) || a.priority - b.priority || a.orderId - b.orderId;
}

/**
 * Cluster jobs: orders grouped by requested ship date, then priority (what leaves on the same truck is picked
 * together, the most urgent first); within a group a customer's orders are kept together — in one job when they fit
 * its totes: a customer whose orders do not fit what is left of the job starts the next one (more orders than a
 * job's totes fill whole jobs). Answers the jobs' orders, each job's in slot order.
 */
export function clusterOrders(orders: WaveOrder[], totesPerJob: number): number[][] {
  const size = Math.max(1, totesPerJob);
  const sorted = [...orders].sort(byShipDate);
  // Runs of one ship date and priority, in that order; in each, one customer's orders after another (first met first).
  const runs: WaveOrder[][] = [];
  for (const o of sorted) {
    const run = runs.at(-1);
    if (run && run[0].requestedShipDate === o.requestedShipDate && run[0].priority === o.priority) run.push(o);
    else runs.push([o]);
  }
  const jobs: number[][] = [];
  let current: number[] = [];
  const close = () => { if (current.length) jobs.push(current); current = []; };
  for (const run of runs) {
    const byCustomer = new Map<number, WaveOrder[]>();
    for (const o of run) byCustomer.set(o.customerId, [...(byCustomer.get(o.customerId) ?? []), o]);
    for (const group of byCustomer.values()) {
      if (current.length > 0 && current.length + group.length > size) close();
      for (const o of group) {
        current.push(o.orderId);
        if (current.length === size) close();
      }
    }
  }
  close();
  return jobs;
}

/**
 * Cuts a wave's work into jobs by strategy: discrete, one order per job in order of urgency; cluster, up to
 * `totesPerJob` orders per job (one tote each) as clusterOrders groups them; zone, one job per zone of the
 * allocated locations (an order spanning zones is in each of their jobs, by urgency). Each job's orders take slots
 * 1..n in that order; its work is walked by pickPath.
 */
export function cutWave(strategy: PickStrategy, orders: WaveOrder[], work: PickWork[], totesPerJob: number): CutJob[] {
  const urgent = [...orders].sort(byUrgency);
  const priorityOf = new Map(orders.map((o) => [o.orderId, o.priority]));
  const groups: { zone: string | null; orderIds: number[]; work: PickWork[] }[] = [];
  if (strategy === 'zone') {
    const zones = new Map<string, PickWork[]>();
    for (const w of work) {
      const zone = w.place.zone ?? '';
      zones.set(zone, [...(zones.get(zone) ?? []), w]);
    }
    const rank = new Map(urgent.map((o, i) => [o.orderId, i]));
    for (const zone of [...zones.keys()].sort(compare)) {
      const inZone = zones.get(zone)!;
      const orderIds = [...new Set(inZone.map((w) => w.orderId))].sort((a, b) => rank.get(a)! - rank.get(b)!);
      groups.push({ zone: zone === '' ? null : zone, orderIds, work: inZone });
    }
  } else {
    const cut = strategy === 'discrete' ? urgent.map((o) => [o.orderId]) : clusterOrders(orders, totesPerJob);
    const workOf = new Map<number, PickWork[]>();
    for (const w of work) workOf.set(w.orderId, [...(workOf.get(w.orderId) ?? []), w]);
    for (const orderIds of cut) groups.push({ zone: null, orderIds, work: orderIds.flatMap((id) => workOf.get(id) ?? []) });
  }
  return groups.filter((g) => g.work.length > 0).map((g) => {
    const slotOf = new Map(g.orderIds.map((id, i) => [id, i + 1]));
    return {
      zone: g.zone,
      priority: Math.min(...g.orderIds.map((id) => priorityOf.get(id) ?? 5)),
      orderIds: g.orderIds,
      tasks: pickPath(g.work.map((w) => ({ ...w, slot: slotOf.get(w.orderId)! }))),
    };
  });
}
