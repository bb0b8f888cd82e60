import { randomUUID } from 'node:crypto';
import { SHORT_REASON_TEXT, type HubEventMap, type ShortReason, type StockDocumentType, type StockHoldType, type StockTxnType } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import { SQL_CONFLICT, type Dialect } from '../../db/dialect.js';
import type { Actor } from '../actor.js';
import type { WarehouseTimeZones } from '../business-day.js';
import type { Change, ChangeRecorder } from '../change-recorder.js';
import { domainEvent } from '../domain-events.js';
import { AppError, conflict, notFound, unprocessable } from '../errors.js';
import { count, noun } from '../plural.js';
import type { Scope } from '../scope.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { checkReferences, type ReferenceRequest } from './references.js';
import { planTakes } from './allocation-plan.js';
import { ALLOCATION_CANDIDATES, stockRepository as repo, type AllocationFilter, type AllocationLocations, type LedgerRow, type Place, type ReservationOwner } from './stock.repository.js';

export type { AllocationLocations, Place, ReservationOwner };
export type StockChangeKind = HubEventMap['ReceiveInventoryData']['subEvent'];

/** One side of a stock movement: a signed quantity at a place, with its ledger type. */
export interface Leg {
  place: Place;
  qty: number;
  txnType: StockTxnType;
  /** For stock arriving at a place: the lot's expiry (moves carry the source's along). Given a receivedAt, this is the
   *  expiry (none when empty); given neither, both are the posting's first source's of that SKU (the ledger trigger). */
  expiryDate?: string | null;
  /** For stock arriving at a place: when it was first received, for aging (moves carry the source's along). */
  receivedAt?: string | null;
  /** The document line of this leg, when the document's legs belong to different lines. */
  documentLine?: string;
  /** PostgreSQL, stock arriving by a reserved move: the place it left, whose expiry and receipt time it carries (read as it is written). */
  carriedFrom?: Place;
}

/** The audit row and hub event the engine writes for a posting. */
export interface PostingRecord {
  kind?: StockChangeKind;
  /** The SKU the event names (0 or omitted: several, or the first leg's when every leg is one SKU's). */
  skuId?: number;
  /** The location the audit row and event are about first (default: the first leg's). */
  locationId?: number;
  after: unknown;
}

export interface Posting {
  documentType: StockDocumentType;
  /** The document's id (a count, a task…); a fresh one when omitted. */
  documentId?: string;
  /** The document line every leg belongs to (a leg may name its own). */
  documentLine?: string;
  reason: string | null;
  legs: Leg[];
  /** The request field a short take is reported on (default `quantity`). */
  quantityField?: string;
  record: PostingRecord;
  /**
   * References to check in the posting's own statement (a move's SKU, client and locations): nothing is posted
   * unless they hold, and then the reference check names what is wrong (404/422) — no statement of its own.
   */
  references?: ReferenceRequest;
}

const KIND_OF_DOCUMENT: Partial<Record<StockDocumentType, StockChangeKind>> = {
  MOVE: 'Move', PALLET_MOVE: 'MovePallet', ADJUSTMENT: 'Adjust', IMPORT: 'Import', CYCLE_COUNT: 'CycleCount',
  RECEIPT: 'Receive', PUTAWAY: 'Putaway', REPLENISHMENT: 'Replenish', WO: 'Kit', PICK: 'Pick', PACK: 'Pack', SHIP: 'Ship',
};

/** Rows per multi-row statement: well inside both engines' bound-parameter limits. */
const BATCH = 500;
/** The most moves takeReservedAtOnce sends in its one statement (at most 22 parameters each: under PostgreSQL's 65,535), so a large ship confirm sends as many statements as a small one. */
const MOVES_AT_ONCE = 2000;

const placeKey = (p: Place) =>
  [p.warehouseId, p.customerId, p.skuId, p.locationId].map((n) => String(n).padStart(10, '0')).join('|') + `|${p.lot}|${p.pallet}`;

/**
 * The stock engine: the only thing that changes stock. `post` writes the ledger rows, the balance changes, the
 * audit row and the hub event — each take one conditional statement, each run of arrivals one multi-row upsert,
 * in the caller's transaction — so stock is never lost, doubled or negative and the ledger always sums to the
 * balances. Reservations own allocated stock (allocate/release); holds stop stock leaving a place.
 * Built once in the composition root (services.ts) and injected into the modules that change stock.
 */
export class StockEngine {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly recorder: ChangeRecorder;
  private readonly timeZones: WarehouseTimeZones;

  constructor(deps: { db: Db; dialect: Dialect; recorder: ChangeRecorder; timeZones: WarehouseTimeZones }) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.recorder = deps.recorder;
    this.timeZones = deps.timeZones;
  }

  /**
   * Applies a movement inside an open transaction; 422 (rolling everything back) when stock is short, 409 when a
   * source is held. Legs at one place are netted first (a receipt put away in the same document leaves its dock as
   * it was). Balances are locked in id order, as everywhere, so postings and allocations cannot deadlock. `also`:
   * the caller's own audit rows and events, written in the engine's two statements.
   */
  async post(uow: UnitOfWork, posting: Posting, actor: Actor, also: Change[] = []) {
    if (posting.legs.length === 0) throw new Error('A posting needs at least one leg');
    const at = new Date().toISOString();
    const document = posting.documentId ?? randomUUID();
    const days = new Map<number, string>();
    let rows: (LedgerRow & { index: number })[] = [];
    const entries: Awaited<ReturnType<typeof repo.insertLedger>> = [];
    // From the first statement on: one sent ahead of it that refused itself fails with it (takeReservedAtOnce's).
    try {
      for (const id of new Set(posting.legs.map((l) => l.place.warehouseId))) days.set(id, await this.timeZones.dayOf(id, at, uow.tx));
      rows = this.insertionOrder(posting.legs).map((i) => {
        const leg = posting.legs[i];
        return {
          index: i, place: leg.place, qtyChange: leg.qty, txnType: leg.txnType, reason: posting.reason, documentType: posting.documentType, documentId: document,
          documentLine: leg.documentLine ?? posting.documentLine ?? null, businessDay: days.get(leg.place.warehouseId)!,
          expiryDate: leg.qty > 0 ? leg.expiryDate ?? null : null, receivedAt: leg.qty > 0 ? leg.receivedAt ?? null : null,
          carriedFrom: leg.qty > 0 ? leg.carriedFrom ?? null : null, userId: actor.userId, at,
        };
      });
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        const written = await repo.insertLedger(uow.tx, batch, this.dialect, i === 0 ? posting.references : undefined);
        if (written.length < batch.length) {
          await checkReferences(uow.tx, posting.references!);
          throw conflict('What this refers to changed meanwhile; try again');
        }
        entries.push(...written);
      }
    } catch (err) {
      throw this.refusal(err, posting.quantityField ?? 'quantity') ?? err;
    }
    await this.recorder.record(uow, actor, this.changeOf(posting, document), ...also);
    // Answered in the order of the legs (the rows were written in the order that locks balances safely).
    const byLeg = new Map(rows.map((r, k) => [r.index, entries[k]]));
    return {
      document,
      entries: posting.legs.map((_, i) => byLeg.get(i)!).map((e) => ({
        id: e.id, at: e.at, txnType: e.txn_type, qtyChange: e.qty_change, locationId: e.location_id, lot: e.lot, pallet: e.pallet,
        documentType: e.document_type, documentId: e.document_id, documentLine: e.document_line,
      })),
    };
  }

  /**
   * The order the ledger rows are written in: each row moves its balance (migration 0014's trigger). On PostgreSQL
   * the existing balances are locked first, by id (insertLedger); the rows then go in place order, so two postings
   * creating the same new balances create them in one order; on SQLite (one writer) takes first, so an arrival
   * finds its source's expiry already posted. At a place both given and taken from, the arrival comes first (a
   * receipt put away in the same document leaves its dock as it was).
   */
  private insertionOrder(legs: Leg[]): number[] {
    const keys = legs.map((l) => placeKey(l.place));
    const arriving = new Set(keys.filter((_, i) => legs[i].qty > 0));
    const rank = (i: number) => (legs[i].qty > 0 ? 1 : arriving.has(keys[i]) ? 2 : 0);
    return legs.map((_, i) => i).sort((a, b) => (this.dialect.engine === 'postgres'
      ? keys[a].localeCompare(keys[b]) || (legs[b].qty > 0 ? 1 : 0) - (legs[a].qty > 0 ? 1 : 0)
      : rank(a) - rank(b) || keys[a].localeCompare(keys[b])) || a - b);
  }

  /**
   * A take the ledger trigger refused: more than is free (422 naming the field and the free figure, so the user
   * sees what can be taken — never clamped to it, moving less than asked is a silent error), or a held place (409);
   * or a statement sent with the rows that refused itself (409).
   */
  private refusal(err: unknown, field: string) {
    const message = err instanceof Error ? err.message : '';
    const short = /stock_short:(-?\d+):(\d+)/.exec(message);
    if (short) {
      const free = Math.max(0, Number(short[1]));
      return unprocessable(`Not enough free stock at this place: ${count(free, 'unit')} available, ${short[2]} asked`, { [field]: `At most ${free} available` });
    }
    const held = /stock_held:([A-Z_]+):(.*):([^:]*)$/m.exec(message);
    if (held) return heldConflict(held[1], held[2], held[3]);
    if (message.startsWith(SQL_CONFLICT)) return conflict(message.slice(SQL_CONFLICT.length));
    return undefined;
  }

  /** The audit entry and hub event of a posting. */
  private changeOf(posting: Posting, document: string): Change {
    const first = posting.legs[0].place;
    const skus = new Set(posting.legs.map((l) => l.place.skuId));
    const skuId = posting.record.skuId ?? (skus.size === 1 ? first.skuId : 0);
    const kind = posting.record.kind ?? KIND_OF_DOCUMENT[posting.documentType] ?? 'Adjust';
    const locationIds = [...new Set([posting.record.locationId ?? first.locationId, ...posting.legs.map((l) => l.place.locationId)])];
    return {
      audit: { action: kind.toLowerCase(), entity: 'inventory', entityId: document, warehouseId: first.warehouseId, customerId: first.customerId, after: posting.record.after },
      events: {
        target: 'ReceiveInventoryData', payload: { subEvent: kind, payload: { document, skuId: skuId || null, locationIds } },
        warehouseId: first.warehouseId, customerId: first.customerId,
      },
      // Other modules (backorders, billing, labour) react to stock changes by subscribing to this.
      raises: [domainEvent('stock.posted', {
        warehouseId: first.warehouseId, customerId: first.customerId, documentType: posting.documentType, documentId: posting.documentId ?? document, document,
        legs: posting.legs.map((l) => ({ skuId: l.place.skuId, locationId: l.place.locationId, lot: l.place.lot, pallet: l.place.pallet, qty: l.qty, txnType: l.txnType })),
      })],
    };
  }

  /**
   * Posts the opposite of every ledger row of a document (ERPNext's cancel): 409 when it was already reversed, or
   * when its stock has since moved on so it cannot be taken back (never negative, never below what is allocated).
   */
  async reverse(uow: UnitOfWork, documentType: StockDocumentType, documentId: string, actor: Actor, also: Change[] = []) {
    const rows = await repo.documentRows(uow.tx, documentType, documentId);
    if (rows.length === 0) throw notFound('Stock posting');
    if (rows.some((r) => r.txn_type === 'reverse')) throw conflict(`${documentType} ${documentId} is already reversed`);
    const legs: Leg[] = rows.map((r) => ({
      place: { warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: r.location_id, lot: r.lot, pallet: r.pallet },
      qty: -r.qty_change, txnType: 'reverse', documentLine: r.document_line ?? undefined,
    }));
    try {
      return await this.post(uow, {
        documentType, documentId, reason: `Reversal of ${documentType} ${documentId}`, legs,
        record: { kind: KIND_OF_DOCUMENT[documentType] ?? 'Adjust', after: { reversed: { documentType, documentId }, rows: rows.length } },
      }, actor, also);
    } catch (err) {
      // A take back that finds the stock gone (moved, picked or allocated since) cannot be made: the document stands.
      if (err instanceof AppError && err.status === 422) {
        throw conflict(`${documentType} ${documentId} cannot be reversed: its stock has moved on since`, err.message);
      }
      throw err;
    }
  }

  /** 409 when any of these places is held (a count, quarantine or inspection). */
  async assertNotHeld(tx: Executor, places: Place[]) {
    const [held] = await repo.heldBy(tx, places);
    if (!held) return;
    const code = held.location_code ?? (await repo.locationCodes(tx, [held.balance_location_id!]))[0]?.code ?? '';
    throw heldConflict(held.hold_type, held.document_id, code);
  }

  /** Holds locations (for one client, or every client's) or balances for a document, in one statement. */
  async hold(uow: UnitOfWork, holdType: StockHoldType, documentId: string, warehouseId: number,
    targets: { locationIds?: number[]; balanceIds?: number[]; customerId?: number | null }, actor: Actor) {
    const at = new Date().toISOString();
    const base = { warehouse_id: warehouseId, hold_type: holdType, document_id: documentId, placed_by: actor.userId, placed_at: at };
    const rows = [
      ...(targets.locationIds ?? []).map((id) => ({ ...base, customer_id: targets.customerId ?? null, location_id: id, balance_id: null })),
      ...(targets.balanceIds ?? []).map((id) => ({ ...base, customer_id: targets.customerId ?? null, location_id: null, balance_id: id })),
    ];
    for (let i = 0; i < rows.length; i += 200) await repo.placeHolds(uow.tx, rows.slice(i, i + 200));
  }

  /** Lifts every open hold of a document. */
  async lift(uow: UnitOfWork, holdType: StockHoldType, documentId: string) {
    await repo.liftHolds(uow.tx, holdType, documentId, new Date().toISOString());
  }

  /**
   * The allocation primitive (orders, replenishment, kits): reserves `quantity` of a SKU's free stock for its
   * owner (a document line) inside the caller's transaction, by the rules of allocation-plan.ts (FEFO, then
   * FIFO by receipt; the line whole from one place, else the fewest places; whole packages of `multipleOf`)
   * from what the repository's `allocatable` allows (never expired, held, quarantined, inactive, or not pickable
   * when `locations: 'pickable'`; only `lot` when asked). Short: `shortReason` says why; a 422 instead unless
   * `allowPartial`. For many lines at once use allocateMany (a fixed number of statements for the batch).
   */
  async allocate(uow: UnitOfWork, req: AllocationRequest): Promise<AllocationResult> {
    return (await this.allocateMany(uow, [req]))[0];
  }

  /**
   * Allocates many lines in the caller's transaction, in the order given (earlier lines are served first when
   * they compete for a SKU's stock: pass them by priority). Each round is two statements whatever the batch (per
   * kind of request: warehouse, locations, lot): the candidates of every SKU, and one conditional UPDATE of every
   * balance taken, each row checked again as it is updated (free, unexpired, not held — never read-then-write);
   * the reservations are one statement at the end. A line whose take found its balance changed (raced, or held
   * meanwhile) plans again from fresh candidates, so parallel allocations never over-allocate. The lines left short
   * cost one statement more per kind of request, for their reasons.
   * `lockBalances`: first lock every balance of the lines' SKUs (one statement per warehouse and client, PostgreSQL
   * only), for a large batch whose UPDATE would otherwise lock its balances in no set order.
   */
  async allocateMany(uow: UnitOfWork, reqs: AllocationRequest[], opts: { lockBalances?: boolean } = {}): Promise<AllocationResult[]> {
    const today = new Map<number, string>();
    for (const r of reqs) if (!r.today && !today.has(r.warehouseId)) today.set(r.warehouseId, await this.timeZones.dayOf(r.warehouseId, new Date(), uow.tx));
    const lines = reqs.map((req) => {
      const unit = req.multipleOf ?? 1;
      if (!Number.isInteger(unit) || unit < 1) throw new Error('multipleOf must be a whole number of units, at least 1');
      if (req.quantity % unit !== 0) {
        throw unprocessable(`${count(req.quantity, 'unit')} is not a whole number of packages of ${unit}`, { quantity: `A multiple of ${unit}` });
      }
      const filter: AllocationFilter = {
        warehouseId: req.warehouseId, customerId: req.customerId, locations: req.locations ?? 'all', today: req.today ?? today.get(req.warehouseId)!,
        lot: req.lot || undefined, excludeLocationId: req.excludeLocationId,
      };
      return { req, filter, need: req.quantity, done: req.quantity <= 0, taken: [] } as AllocatingLine;
    });
    const at = new Date().toISOString();
    if (opts.lockBalances) {
      const owners = new Map<string, { warehouseId: number; customerId: number; skuIds: Set<number> }>();
      for (const l of lines) {
        if (l.done) continue;
        const key = `${l.req.warehouseId}|${l.req.customerId}`;
        const owner = owners.get(key) ?? { warehouseId: l.req.warehouseId, customerId: l.req.customerId, skuIds: new Set<number>() };
        owner.skuIds.add(l.req.skuId);
        owners.set(key, owner);
      }
      for (const o of owners.values()) await repo.lockBalances(uow.tx, this.dialect, { ...o, skuIds: [...o.skuIds].sort((a, b) => a - b) });
    }
    for (let round = 0; round < 20; round++) {
      const open = lines.filter((l) => !l.done);
      if (open.length === 0) break;
      // Lines asking the same of the same stock share one candidates statement and one picture of what is free.
      const groups = new Map<string, AllocatingLine[]>();
      for (const l of open) {
        const key = JSON.stringify([l.filter.warehouseId, l.filter.customerId, l.filter.today, l.filter.locations, l.filter.lot, l.filter.excludeLocationId]);
        groups.set(key, [...(groups.get(key) ?? []), l]);
      }
      for (const group of groups.values()) await this.allocationRound(uow, group, at);
    }
    const reservations = reservationsOf(lines.map((l) => ({ owner: l.req.owner, taken: l.taken })));
    for (let i = 0; i < reservations.length; i += BATCH) await repo.reserveMany(uow.tx, reservations.slice(i, i + BATCH), at);
    const reasons = await this.shortReasonsOf(uow.tx, lines.filter((l) => l.need > 0));
    const results: AllocationResult[] = [];
    for (const l of lines) {
      const short = Math.max(0, l.need);
      const shortReason = short > 0 ? reasons.get(l)! : null;
      if (short > 0 && !l.req.allowPartial) {
        throw unprocessable('Not enough stock to allocate', `${short} of ${count(l.req.quantity, 'unit')} ${noun(short, 'is', 'are')} not free: ${SHORT_REASON_TEXT[shortReason!].toLowerCase()}`);
      }
      results.push({ allocated: l.req.quantity - short, short, lines: l.taken, shortReason });
    }
    return results;
  }

  /**
   * One round for lines asking the same of the same stock: their candidates in one statement, each line planned
   * against one picture of what is free (earlier lines first), every take in one conditional UPDATE.
   */
  private async allocationRound(uow: UnitOfWork, group: AllocatingLine[], at: string) {
    const filter = group[0].filter;
    const candidates = await repo.allocationCandidates(uow.tx, { ...filter, skuIds: [...new Set(group.map((l) => l.req.skuId))] });
    const bySku = new Map<number, typeof candidates>();
    for (const c of candidates) bySku.set(c.sku_id, [...(bySku.get(c.sku_id) ?? []), c]);
    const byId = new Map(candidates.map((c) => [c.id, c]));
    const free = new Map(candidates.map((c) => [c.id, c.on_hand - c.allocated]));
    const planned = group.map((l) => {
      const mine = bySku.get(l.req.skuId) ?? [];
      const plan = planTakes(mine.map((c) => ({ id: c.id, expiry_date: c.expiry_date, free: free.get(c.id)! })), l.need,
        { multipleOf: l.req.multipleOf, singleSource: l.req.singleSource });
      for (const t of plan) free.set(t.id, free.get(t.id)! - t.quantity);
      if (plan.length === 0) l.done = true; // nothing left to take
      return { line: l, plan, sawAll: mine.length < ALLOCATION_CANDIDATES };
    });
    const byBalance = new Map<number, number>();
    for (const { plan } of planned) for (const t of plan) byBalance.set(t.id, (byBalance.get(t.id) ?? 0) + t.quantity);
    const allocated = new Map<number, Awaited<ReturnType<typeof repo.allocate>>[number]>();
    const takes = [...byBalance].map(([id, quantity]) => ({ id, quantity }));
    for (let i = 0; i < takes.length; i += BATCH) {
      for (const row of await repo.allocate(uow.tx, this.dialect, takes.slice(i, i + BATCH), filter, at)) allocated.set(row.id, row);
    }
    for (const { line, plan, sawAll } of planned) {
      let raced = false;
      for (const t of plan) {
        const row = allocated.get(t.id);
        if (!row) { raced = true; continue; } // changed since read: this line plans again next round
        line.taken.push({
          balanceId: row.id, expiryDate: row.expiry_date, quantity: t.quantity, locationCode: byId.get(row.id)!.location_code,
          place: { warehouseId: row.warehouse_id, customerId: row.customer_id, skuId: row.sku_id, locationId: row.location_id, lot: row.lot, pallet: row.pallet },
        });
        line.need -= t.quantity;
      }
      // Done when filled, or nothing raced and every candidate was seen (fewer than the limit were read).
      if (line.need <= 0 || (line.req.singleSource && line.taken.length > 0) || (!raced && sawAll)) line.done = true;
    }
  }

  /**
   * Why a SKU's line cannot be (fully) allocated now: the reason holding back most of its free units (expired,
   * quarantine, a count's hold, not pickable), else 'no-stock'. For /BKO, without allocating.
   */
  async shortReason(tx: Executor, req: ShortReasonRequest): Promise<ShortReason> {
    return this.shortReasonOf(tx, { ...await this.allocationFilter(tx, req), skuId: req.skuId });
  }

  /** The short reason of each line left short: one statement per kind of request (warehouse, locations, lot). */
  private async shortReasonsOf(tx: Executor, short: AllocatingLine[]): Promise<Map<AllocatingLine, ShortReason>> {
    const groups = new Map<string, AllocatingLine[]>();
    for (const l of short) {
      const key = JSON.stringify([l.filter.warehouseId, l.filter.customerId, l.filter.today, l.filter.locations, l.filter.lot]);
      groups.set(key, [...(groups.get(key) ?? []), l]);
    }
    const reasons = new Map<AllocatingLine, ShortReason>();
    for (const group of groups.values()) {
      const skuIds = [...new Set(group.map((l) => l.req.skuId))];
      // Per SKU, the reason holding back most units (blockedStock's rule); none blocked: no-stock.
      const best = new Map<number, { reason: ShortReason; units: number }>();
      for (let i = 0; i < skuIds.length; i += BATCH) {
        for (const r of await repo.blockedStockMany(tx, { ...group[0].filter, skuIds: skuIds.slice(i, i + BATCH) })) {
          const units = Number(r.units);
          const seen = best.get(r.sku_id);
          if (r.reason !== 'no-stock' && (!seen || units > seen.units)) best.set(r.sku_id, { reason: r.reason, units });
        }
      }
      for (const l of group) reasons.set(l, best.get(l.req.skuId)?.reason ?? 'no-stock');
    }
    return reasons;
  }

  private async shortReasonOf(tx: Executor, f: AllocationFilter & { skuId: number }): Promise<ShortReason> {
    const blocked = (await repo.blockedStock(tx, f)).filter((r) => r.reason !== 'no-stock').sort((a, b) => Number(b.units) - Number(a.units));
    return blocked[0]?.reason ?? 'no-stock';
  }

  /** Units of each SKU that allocation could take now (the same rules; every lot), by SKU id; 0 when none. */
  async freeStock(tx: Executor, req: { warehouseId: number; customerId: number; skuIds: number[]; today?: string; locations?: AllocationLocations }) {
    const filter = await this.allocationFilter(tx, req);
    const free = new Map<number, number>(req.skuIds.map((id) => [id, 0]));
    const ids = [...free.keys()];
    for (let i = 0; i < ids.length; i += BATCH) {
      for (const r of await repo.freeStock(tx, { ...filter, skuIds: ids.slice(i, i + BATCH) })) free.set(r.sku_id, Number(r.free));
    }
    return free;
  }

  private async allocationFilter(tx: Executor, req: { warehouseId: number; customerId: number; today?: string; locations?: AllocationLocations; lot?: string }): Promise<AllocationFilter> {
    return {
      warehouseId: req.warehouseId, customerId: req.customerId, locations: req.locations ?? 'all',
      today: req.today ?? await this.timeZones.dayOf(req.warehouseId, new Date(), tx),
      lot: req.lot || undefined,
    };
  }

  /**
   * Releases every open reservation of an owner inside the caller's transaction (a task done or cancelled, an
   * order line shipped or cancelled); answers what was released. 409 when a balance has less allocated than its
   * reservation says (the books disagree: nothing is released).
   */
  async release(uow: UnitOfWork, owner: ReservationOwner) {
    const open = await repo.openReservations(uow.tx, this.dialect, owner);
    const at = new Date().toISOString();
    for (const r of open) {
      if (!(await repo.deallocate(uow.tx, r.balance_id, r.quantity, at))) throw conflict('Less stock is allocated here than is being released');
    }
    if (open.length) await repo.emptyReservations(uow.tx, open.map((r) => r.id), at);
    return open.map((r) => ({ balanceId: r.balance_id, quantity: r.quantity }));
  }

  /**
   * `release` for every owner of many documents of one type at once (orders unallocated, held or cancelled in a
   * batch): their open reservations read and locked (in balance order), each balance's allocated lowered and the
   * reservations emptied — three statements per 500 documents whatever their lines. 409 as `release`.
   */
  async releaseDocuments(uow: UnitOfWork, documentType: string, documentIds: string[]) {
    const at = new Date().toISOString();
    const released: { balanceId: number; quantity: number }[] = [];
    for (let i = 0; i < documentIds.length; i += BATCH) {
      const open = await repo.reservationsOf(uow.tx, this.dialect, documentType, documentIds.slice(i, i + BATCH));
      if (open.length === 0) continue;
      const give = new Map<number, number>();
      for (const r of open) give.set(r.balance_id, (give.get(r.balance_id) ?? 0) + r.quantity);
      const rows = [...give].map(([id, quantity]) => ({ id, quantity }));
      for (let k = 0; k < rows.length; k += BATCH) {
        const part = rows.slice(k, k + BATCH);
        if ((await repo.deallocateMany(uow.tx, this.dialect, part, at)).length !== part.length) throw conflict('Less stock is allocated here than is being released');
      }
      for (let k = 0; k < open.length; k += BATCH) await repo.emptyReservations(uow.tx, open.slice(k, k + BATCH).map((r) => r.id), at);
      released.push(...rows.map((r) => ({ balanceId: r.id, quantity: r.quantity })));
    }
    return released;
  }

  /**
   * Moves reserved units on, the reservation moving with them: from the bin to a tote (pick), from the tote to the
   * pack station (pack), back again (undo) — or out of the building (ship: `to` null). Each move names its owner
   * (an order line) and the place its units are reserved at; the owner's reservation there shrinks, the units are
   * posted out and (unless shipped) in at `to` with the same lot, expiry and receipt time, and reserved there for
   * the same owner. A fixed number of statements for any number of moves (one document type's owners at a time):
   * 409 when less is reserved at a place than is being moved (nothing changes), 422/409 from the posting itself.
   */
  async moveReserved(uow: UnitOfWork, req: ReservedMovePosting, actor: Actor, also: Change[] = []) {
    if (req.moves.length === 0) throw new Error('A reserved move needs at least one move');
    const documentType = req.moves[0].owner.documentType;
    if (req.moves.some((m) => m.owner.documentType !== documentType)) throw new Error('Reserved moves of one document type at a time');
    const at = new Date().toISOString();
    const lines = [...new Set(req.moves.map((m) => m.owner.documentLine ?? ''))];
    // Every balance the move changes, where its units leave and where they arrive, is locked at once, by id.
    const places = new Map<string, Place>();
    for (const m of req.moves) {
      const from = pick(m.from);
      places.set(placeKey(from), from);
      if (m.to !== null) places.set(placeKey({ ...from, locationId: m.to, pallet: m.toPallet ?? '' }), { ...from, locationId: m.to, pallet: m.toPallet ?? '' });
    }
    const { legs, arrivals } = this.dialect.engine === 'postgres' && req.moves.length <= MOVES_AT_ONCE
      ? await this.takeReservedAtOnce(uow, req, [...places.values()], at)
      : await this.takeReserved(uow, req, documentType, lines, [...places.values()], at);
    const posted = await this.post(uow, { documentType: req.documentType, documentId: req.documentId, reason: req.reason, legs, record: req.record }, actor, also);
    if (arrivals.length) {
      // Where the units arrived: each place's balance (the posting made it) reserves them, found by place in the same statement.
      const take = new Map<string, { place: Place; quantity: number }>();
      for (const a of arrivals) {
        const key = placeKey(a.place);
        take.set(key, { place: a.place, quantity: (take.get(key)?.quantity ?? 0) + a.quantity });
      }
      if (this.dialect.engine === 'postgres') {
        // The balances found and reserved in one statement: each owner's units at each place, summed.
        const owners = new Map<string, { owner: ReservationOwner; place: Place; quantity: number }>();
        for (const a of arrivals) {
          const key = JSON.stringify([a.owner.documentId, a.owner.documentLine ?? '', placeKey(a.place)]);
          const seen = owners.get(key);
          if (seen) seen.quantity += a.quantity;
          else owners.set(key, { ...a });
        }
        // Sent with the transaction's next statement; it fails the transaction (409) when it cannot reserve them all.
        await repo.allocateArrivedAndReserve(uow.tx, [...take.values()], [...owners.values()], at);
        return posted;
      }
      const allocated = await repo.allocateArrivedAt(uow.tx, this.dialect, [...take.values()], at);
      if (allocated.length !== take.size) throw conflict('The stock moved could not be reserved where it arrived');
      const idOf = new Map(allocated.map((b) => [placeKey({ warehouseId: arrivals[0].place.warehouseId, customerId: b.customer_id, skuId: b.sku_id, locationId: b.location_id, lot: b.lot, pallet: b.pallet }), b.id]));
      await repo.reserveMany(uow.tx, reservationsOf(arrivals.map((a) => ({
        owner: a.owner, taken: [{ balanceId: idOf.get(placeKey(a.place))!, place: a.place, locationCode: '', expiryDate: null, quantity: a.quantity }],
      }))), at);
    }
    return posted;
  }

  /**
   * A reserved move's giving up at its sources, in three statements: the owners' reservations read (balances locked),
   * shrunk, and their balances freed. Answers the move's ledger legs and its arrivals (to reserve where they land).
   */
  private async takeReserved(uow: UnitOfWork, req: ReservedMovePosting, documentType: string, lines: string[], places: Place[], at: string) {
    const reserved = await repo.reservationsOf(uow.tx, this.dialect, documentType, [...new Set(req.moves.map((m) => m.owner.documentId))],
      lines.length <= BATCH ? lines : undefined, places);
    const shrink = new Map<number, number>();
    const give = new Map<number, number>();
    for (const m of req.moves) {
      const row = reservationAt(reserved, m.owner, pick(m.from));
      const left = row ? row.quantity - (shrink.get(row.id) ?? 0) : 0;
      if (!row || left < m.quantity) throw conflict(`Only ${count(Math.max(0, left), 'unit')} reserved here for this line; ${m.quantity} asked`);
      shrink.set(row.id, (shrink.get(row.id) ?? 0) + m.quantity);
      give.set(row.balance_id, (give.get(row.balance_id) ?? 0) + m.quantity);
    }
    const shrunk = await repo.shrinkReservations(uow.tx, this.dialect, [...shrink].map(([id, quantity]) => ({ id, quantity })), at);
    const freed = await repo.deallocateMany(uow.tx, this.dialect, [...give].map(([id, quantity]) => ({ id, quantity })), at);
    if (shrunk.length !== shrink.size || freed.length !== give.size) throw conflict('Less stock is reserved here than is being moved');
    return legsOf(req, (m) => {
      const row = reservationAt(reserved, m.owner, pick(m.from))!;
      return { expiryDate: row.expiry_date, receivedAt: row.received_at };
    });
  }

  /**
   * PostgreSQL: takeReserved in one statement (repo.takeReserved), sent with the move's ledger rows — two round trips
   * fewer on every pick, undo and ship than reading, shrinking and freeing. It refuses itself (409, saying how much
   * is reserved where too little is), and the arrivals carry their sources' expiry and receipt time as they are written.
   */
  private async takeReservedAtOnce(uow: UnitOfWork, req: ReservedMovePosting, places: Place[], at: string) {
    const takes = new Map<string, { owner: ReservationOwner; place: Place; quantity: number }>();
    for (const m of req.moves) {
      const from = pick(m.from);
      const key = JSON.stringify([m.owner.documentId, m.owner.documentLine ?? '', placeKey(from)]);
      const seen = takes.get(key);
      if (seen) seen.quantity += m.quantity;
      else takes.set(key, { owner: m.owner, place: from, quantity: m.quantity });
    }
    await repo.takeReserved(uow.tx, places, [...takes.values()], at);
    return legsOf(req, (m) => ({ carriedFrom: pick(m.from) }));
  }

  /**
   * Gives back part of owners' reservations at given places (a short pick: the units not found at the bin stop
   * being reserved there, and become free — or, when the bin is counted, whatever the count finds). The owner's
   * reservation at each place shrinks and its balance's allocated falls, in two statements for any number of
   * releases (one document type's owners at a time); 409 when less is reserved at a place than is released
   * (nothing changes). Answers the balances and quantities released.
   */
  async releasePart(uow: UnitOfWork, releases: { owner: ReservationOwner; place: Place; quantity: number }[]) {
    if (releases.length === 0) return [];
    const documentType = releases[0].owner.documentType;
    if (releases.some((r) => r.owner.documentType !== documentType)) throw new Error('Releases of one document type at a time');
    const at = new Date().toISOString();
    const reserved = await repo.reservationsOf(uow.tx, this.dialect, documentType, [...new Set(releases.map((r) => r.owner.documentId))]);
    const shrink = new Map<number, number>();
    const give = new Map<number, number>();
    for (const r of releases) {
      if (!Number.isInteger(r.quantity) || r.quantity <= 0) throw new Error('A release is a whole number of units, at least 1');
      const row = reservationAt(reserved, r.owner, pick(r.place));
      const left = row ? row.quantity - (shrink.get(row.id) ?? 0) : 0;
      if (!row || left < r.quantity) throw conflict(`Only ${count(Math.max(0, left), 'unit')} reserved here for this line; ${r.quantity} to release`);
      shrink.set(row.id, (shrink.get(row.id) ?? 0) + r.quantity);
      give.set(row.balance_id, (give.get(row.balance_id) ?? 0) + r.quantity);
    }
    const shrunk = await repo.shrinkReservations(uow.tx, this.dialect, [...shrink].map(([id, quantity]) => ({ id, quantity })), at);
    const freed = await repo.deallocateMany(uow.tx, this.dialect, [...give].map(([id, quantity]) => ({ id, quantity })), at);
    if (shrunk.length !== shrink.size || freed.length !== give.size) throw conflict('Less stock is reserved here than is being released');
    return [...give].map(([balanceId, quantity]) => ({ balanceId, quantity }));
  }

  /** Hands an owner's open reservations to another (a document that got its id after allocating). */
  async transferReservations(uow: UnitOfWork, from: ReservationOwner, to: ReservationOwner) {
    await repo.transferReservations(uow.tx, from, to, new Date().toISOString());
  }

  /** The one-round-trip reference check (warehouse serves the client; locations there, active, of an allowed type; the SKU the client's). */
  references(req: ReferenceRequest, messages?: { inactiveLocation?: (code: string) => string }, tx: Executor = this.db) {
    return checkReferences(tx, req, messages);
  }

  /**
   * Refuses (422) `quantity` more units at a location beyond its capacity (0: unlimited), inside the caller's
   * transaction, before the stock is posted there. The location row is locked first and held until commit,
   * so two arrivals checked at once take turns and cannot both claim the same room (read-then-write would).
   * `capacity`: the location's as the caller read it (its reference check), when it has.
   */
  async assertRoom(uow: UnitOfWork, locationId: number, quantity: number, capacity?: number) {
    // A location the caller has just read as unlimited (capacity 0) has no room to claim: no lock, no statement.
    if (capacity === 0) return;
    const location = await repo.lockLocation(uow.tx, this.dialect, locationId);
    if (!location) throw notFound('Location');
    if (location.capacity <= 0) return;
    const room = location.capacity - (await repo.onHandAt(uow.tx, locationId));
    if (room < quantity) throw unprocessable(`Location ${location.code} has room for ${Math.max(0, room)} more ${noun(Math.max(0, room), 'unit')}`, { toLocationId: 'Not enough free capacity' });
  }

  /** assertRoom for many locations at once (quantity by location id): two statements whatever their number. */
  async assertRoomMany(uow: UnitOfWork, quantities: Map<number, number>) {
    const ids = [...quantities.keys()];
    if (ids.length === 0) return;
    const locations = await repo.lockLocations(uow.tx, this.dialect, ids);
    if (locations.length !== ids.length) throw notFound('Location');
    const limited = locations.filter((l) => l.capacity > 0);
    if (limited.length === 0) return;
    const held = new Map((await repo.onHandAtMany(uow.tx, limited.map((l) => l.id))).map((r) => [r.location_id, Number(r.n)]));
    for (const l of limited) {
      const room = l.capacity - (held.get(l.id) ?? 0);
      if (room < quantities.get(l.id)!) throw unprocessable(`Location ${l.code} has room for ${Math.max(0, room)} more ${noun(Math.max(0, room), 'unit')}`, { toLocationId: 'Not enough free capacity' });
    }
  }

  /**
   * The balances at these places (undefined where none is), locked until commit on PostgreSQL, in id order like
   * every other lock of balances, so a count's differences are taken against what it read. A statement per 500 places.
   */
  async lockBalances(uow: UnitOfWork, places: Place[]) {
    const found = new Map<string, { id: number; on_hand: number; allocated: number }>();
    for (let i = 0; i < places.length; i += BATCH) {
      for (const b of await repo.lockBalancesAt(uow.tx, this.dialect, places.slice(i, i + BATCH))) {
        found.set(placeKey({ warehouseId: b.warehouse_id, customerId: b.customer_id, skuId: b.sku_id, locationId: b.location_id, lot: b.lot, pallet: b.pallet }), b);
      }
    }
    return places.map((p) => found.get(placeKey(p)));
  }

  /** Proves the ledger sums to the balances, and that each balance's allocated is the sum of its open reservations. */
  async reconcile(scope: Scope, filter: { warehouseId: number; customerId: number }) {
    const { differences, checked } = await repo.reconcile(this.db, scope, filter);
    const reserved = await repo.reconcileReservations(this.db, scope, filter);
    const reservations = {
      balanced: reserved.length === 0,
      differences: reserved.map((r) => ({
        balanceId: Number(r.id), warehouseId: r.warehouse_id, customerId: r.customer_id, skuId: r.sku_id, locationId: r.location_id, lot: r.lot, pallet: r.pallet,
        allocated: Number(r.allocated), reserved: Number(r.reserved), difference: Number(r.allocated) - Number(r.reserved),
      })),
    };
    return {
      balanced: differences.length === 0 && reservations.balanced,
      checkedBalances: checked,
      differences: differences.map((d) => ({
        warehouseId: d.warehouse_id, customerId: d.customer_id, skuId: d.sku_id, locationId: d.location_id, lot: d.lot, pallet: d.pallet,
        onHand: Number(d.on_hand ?? 0), ledgerSum: Number(d.ledger_sum ?? 0), difference: Number(d.on_hand ?? 0) - Number(d.ledger_sum ?? 0),
      })),
      reservations,
    };
  }
}

/** One reserved move: an owner's units reserved at `from`, to location `to` (null: out of the building). */
export interface ReservedMove {
  owner: ReservationOwner;
  from: Place;
  to: number | null;
  quantity: number;
  /** The ledger rows' document line (a pick task, a carton line). */
  documentLine?: string;
  /** The pallet the units arrive on at `to` (default none): an undone pick goes back onto the bin's pallet. */
  toPallet?: string;
}
export interface ReservedMovePosting {
  documentType: StockDocumentType;
  documentId: string;
  reason: string | null;
  /** The ledger type of the units leaving, and of those arriving (default: the same). */
  outType: StockTxnType;
  inType?: StockTxnType;
  moves: ReservedMove[];
  record: PostingRecord;
}

/** What `allocate` is asked: a quantity of one SKU for one owner. */
export interface AllocationRequest {
  owner: ReservationOwner;
  warehouseId: number; customerId: number; skuId: number;
  /** Units; a multiple of `multipleOf` when given. */
  quantity: number;
  /** The warehouse's business day (lots expiring before it are expired); looked up when omitted. */
  today?: string;
  /** Default 'all'; orders allocate from 'pickable' locations, replenishment from 'bulk'. */
  locations?: AllocationLocations;
  /** That lot only; empty or omitted: any lot. */
  lot?: string;
  /** Units per package for a package-level line: every take is whole packages. */
  multipleOf?: number;
  /** Short is answered (with its reason) rather than refused with a 422. */
  allowPartial?: boolean;
  /** One take only (a replenishment task moves one source). */
  singleSource?: boolean;
  excludeLocationId?: number;
}

export interface AllocationLine { balanceId: number; place: Place; locationCode: string; expiryDate: string | null; quantity: number }

export interface AllocationResult { allocated: number; short: number; lines: AllocationLine[]; shortReason: ShortReason | null }

/** A line being allocated: what it still needs and what it has taken. */
interface AllocatingLine { req: AllocationRequest; filter: AllocationFilter; need: number; done: boolean; taken: AllocationLine[] }

export type ShortReasonRequest = Pick<AllocationRequest, 'warehouseId' | 'customerId' | 'skuId' | 'today' | 'locations' | 'lot'>;

/** The reservation rows of the lines' takes: one per owner and balance (a line that raced may take from a balance twice). */
function reservationsOf(lines: { owner: ReservationOwner; taken: AllocationLine[] }[]) {
  const rows = new Map<string, { owner: ReservationOwner; quantity: number; balance: { id: number; warehouse_id: number; customer_id: number; sku_id: number } }>();
  for (const { owner, taken } of lines) {
    for (const t of taken) {
      const key = JSON.stringify([owner.documentType, owner.documentId, owner.documentLine ?? '', t.balanceId]);
      const seen = rows.get(key);
      if (seen) seen.quantity += t.quantity;
      else rows.set(key, { owner, quantity: t.quantity, balance: { id: t.balanceId, warehouse_id: t.place.warehouseId, customer_id: t.place.customerId, sku_id: t.place.skuId } });
    }
  }
  return [...rows.values()];
}

/** The refusal of a take from a held place. */
function heldConflict(holdType: string, documentId: string, locationCode: string) {
  if (holdType === 'CYCLE_COUNT') {
    return conflict(`Location ${locationCode} is being counted (cycle count ${documentId})`,
      'Nothing can be moved or adjusted out of it until the count is approved or cancelled');
  }
  return conflict(`Stock at location ${locationCode} is held for ${holdType.toLowerCase()} (${documentId})`, 'Nothing can leave it until the hold is lifted');
}

/**
 * A reserved move's ledger legs, in the order of its moves (out at the source, then in at `to`, carrying the source's
 * expiry and receipt time: `carried`), and the arrivals to reserve where they land.
 */
function legsOf(req: ReservedMovePosting, carried: (m: ReservedMove) => Pick<Leg, 'expiryDate' | 'receivedAt' | 'carriedFrom'>) {
  const legs: Leg[] = [];
  const arrivals: { place: Place; owner: ReservationOwner; quantity: number }[] = [];
  for (const m of req.moves) {
    const from = pick(m.from);
    legs.push({ place: from, qty: -m.quantity, txnType: req.outType, documentLine: m.documentLine });
    if (m.to !== null) {
      const place = { ...from, locationId: m.to, pallet: m.toPallet ?? '' };
      legs.push({ place, qty: m.quantity, txnType: req.inType ?? req.outType, documentLine: m.documentLine, ...carried(m) });
      arrivals.push({ place, owner: m.owner, quantity: m.quantity });
    }
  }
  return { legs, arrivals };
}

/** An owner's reservation row at a place, among the rows `reservationsOf` read. */
function reservationAt<R extends { document_id: string; document_line: string; location_id: number; sku_id: number; customer_id: number; lot: string; pallet: string }>(
  rows: R[], owner: ReservationOwner, at: Place): R | undefined {
  return rows.find((r) => r.document_id === owner.documentId && r.document_line === (owner.documentLine ?? '')
    && r.location_id === at.locationId && r.sku_id === at.skuId && r.customer_id === at.customerId && r.lot === at.lot && r.pallet === at.pallet);
}

export function pick(p: Place): Place {
  return { warehouseId: p.warehouseId, customerId: p.customerId, skuId: p.skuId, locationId: p.locationId, lot: p.lot ?? '', pallet: p.pallet ?? '' };
}
