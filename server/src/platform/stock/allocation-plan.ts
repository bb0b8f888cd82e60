/** A balance that may be allocated from, as the candidates query answers it (in FEFO/FIFO order). */
export interface AllocationCandidate {
  id: number;
  expiry_date: string | null;
  /** On hand less allocated. */
  free: number;
}

export interface PlannedTake { id: number; quantity: number }

/**
 * Which balances a line takes, and how much of each. Pure: the engine then makes each take with one conditional
 * UPDATE and plans again from fresh candidates when one of them raced.
 *
 * The rules, in this order:
 * 1. Expiry wins. Candidates come earliest expiry first, undated stock last, each expiry date a tier; a tier is
 *    used up before the next is touched, so a later-expiring lot is never taken while an earlier one is free.
 *    A SKU that is not expiry-tracked has undated stock only: one tier, in FIFO order (oldest receipt first).
 * 2. Within a tier, the line is filled whole from one place when it can: the first (FEFO/FIFO) whose free
 *    quantity covers what is still needed.
 * 3. Else the fewest places: the largest free quantity first (ties: FEFO/FIFO order), then again rule 2 for
 *    the rest. Taking the largest first needs the fewest places, so within a tier receipt age yields to fewer
 *    pick stops; it still decides between equals and which place fills a line whole.
 * `multipleOf` (units per package): every take is whole packages; a place's free units round down to them.
 * `singleSource`: one take only (a replenishment task moves from one source).
 */
export function planTakes(candidates: AllocationCandidate[], need: number, opts: { multipleOf?: number; singleSource?: boolean } = {}): PlannedTake[] {
  const unit = opts.multipleOf && opts.multipleOf > 1 ? opts.multipleOf : 1;
  const takes: PlannedTake[] = [];
  let rest = need;
  for (const tier of tiers(candidates)) {
    const open = tier.map((c) => ({ id: c.id, usable: Math.floor(c.free / unit) * unit })).filter((c) => c.usable > 0);
    while (rest > 0 && open.length > 0) {
      const whole = open.findIndex((c) => c.usable >= rest);
      const at = whole >= 0 ? whole : largest(open);
      const quantity = Math.min(rest, open[at].usable);
      takes.push({ id: open[at].id, quantity });
      rest -= quantity;
      open.splice(at, 1);
      if (opts.singleSource) return takes;
    }
    if (rest <= 0) break;
  }
  return takes;
}

/** Consecutive candidates with the same expiry date. */
function tiers(candidates: AllocationCandidate[]) {
  const out: AllocationCandidate[][] = [];
  for (const c of candidates) {
    const last = out[out.length - 1];
    if (last && last[0].expiry_date === c.expiry_date) last.push(c);
    else out.push([c]);
  }
  return out;
}

/** The index of the largest usable quantity, the earliest of equals. */
function largest(open: { usable: number }[]) {
  let best = 0;
  for (let i = 1; i < open.length; i++) if (open[i].usable > open[best].usable) best = i;
  return best;
}
