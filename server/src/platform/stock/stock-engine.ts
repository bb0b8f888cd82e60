import { randomUUID } from 'node:crypto';
import type { HubEventMap, StockDocumentType, StockHoldType, StockTxnType } from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../actor.js';
import type { WarehouseTimeZones } from '../business-day.js';
import type { Change, ChangeRecorder } from '../change-recorder.js';
import { domainEvent } from '../domain-events.js';
import { AppError, conflict, notFound, unprocessable } from '../errors.js';
import { count, noun } from '../plural.js';
import type { Scope } from '../scope.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { checkReferences, type ReferenceRequest } from './references.js';
import { stockRepository as repo, type Place, type ReservationOwner } from './stock.repository.js';

export type { Place, ReservationOwner };
export type StockChangeKind = HubEventMap['ReceiveInventoryData']['subEvent'];

/** One side of a stock movement: a signed quantity at a place, with its ledger type. */
export interface Leg {
  place: Place;
  qty: number;
  txnType: StockTxnType;
  /** For stock arriving at a place: the lot's expiry (moves carry the source's along). */
  expiryDate?: string | null;
  /** For stock arriving at a place: when it was first received, for aging (moves carry the source's along). */
  receivedAt?: string | null;
  /** The document line of this leg, when the document's legs belong to different lines. */
  documentLine?: string;
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
  RECEIPT: 'Receive', PUTAWAY: 'Putaway', REPLENISHMENT: 'Replenish', WO: 'Kit',
};

/** Rows per multi-row statement: well inside both engines' bound-parameter limits. */
const BATCH = 500;

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
   * it was). Balances are touched in place order, so two opposite moves cannot deadlock. `also`: the caller's own
   * audit rows and events, written in the engine's two statements.
   */
  async post(uow: UnitOfWork, posting: Posting, actor: Actor, also: Change[] = []) {
    if (posting.legs.length === 0) throw new Error('A posting needs at least one leg');
    const at = new Date().toISOString();
    const document = posting.documentId ?? randomUUID();
    const days = new Map<number, string>();
    for (const id of new Set(posting.legs.map((l) => l.place.warehouseId))) days.set(id, await this.timeZones.dayOf(id, at, uow.tx));
    const rows = this.insertionOrder(posting.legs).map((i) => {
      const leg = posting.legs[i];
      return {
        index: i, place: leg.place, qtyChange: leg.qty, txnType: leg.txnType, reason: posting.reason, documentType: posting.documentType, documentId: document,
        documentLine: leg.documentLine ?? posting.documentLine ?? null, businessDay: days.get(leg.place.warehouseId)!,
        expiryDate: leg.qty > 0 ? leg.expiryDate ?? null : null, receivedAt: leg.qty > 0 ? leg.receivedAt ?? null : null, userId: actor.userId, at,
      };
    });
    const entries: Awaited<ReturnType<typeof repo.insertLedger>> = [];
    try {
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
   * in place order, so two opposite moves lock their balances in the same order and cannot deadlock; on SQLite (one
   * writer) takes first, so an arrival finds its source's expiry already posted. At a place both given and taken
   * from, the arrival comes first (a receipt put away in the same document leaves its dock as it was).
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
   * sees what can be taken — never clamped to it, moving less than asked is a silent error), or a held place (409).
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
   * The allocation primitive (orders use it): reserves `quantity` of a SKU's free stock FEFO — earliest expiry
   * first, never an expired lot — for its owner (a document line), inside the caller's transaction. Each take is
   * one conditional UPDATE plus the owner's reservation row; when another transaction got to a balance first, the
   * candidates are read again, so parallel allocations never over-allocate. Short stock throws 422 unless `allowPartial`.
   */
  async allocate(uow: UnitOfWork, req: {
    owner: ReservationOwner;
    warehouseId: number; customerId: number; skuId: number; quantity: number;
    today?: string; locations?: 'all' | 'pickable' | 'bulk'; excludeLocationId?: number; allowPartial?: boolean;
    /** Take from the first (FEFO) balance only: a replenishment task moves one source. */
    singleSource?: boolean;
  }) {
    const today = req.today ?? await this.timeZones.dayOf(req.warehouseId, new Date(), uow.tx);
    const at = new Date().toISOString();
    const lines: { balanceId: number; place: Place; expiryDate: string | null; quantity: number }[] = [];
    let need = req.quantity;
    for (let round = 0; need > 0 && round < 20; round++) {
      const candidates = await repo.fefoCandidates(uow.tx, { ...req, today, locations: req.locations ?? 'all' });
      if (candidates.length === 0) break;
      let raced = false;
      for (const c of candidates) {
        const want = Math.min(need, c.on_hand - c.allocated);
        const row = await repo.allocate(uow.tx, c.id, want, today, at);
        if (!row) { raced = true; break; } // changed since read: read again, keeping FEFO order
        await repo.reserve(uow.tx, req.owner, row, want, at);
        lines.push({
          balanceId: row.id, expiryDate: row.expiry_date, quantity: want,
          place: { warehouseId: row.warehouse_id, customerId: row.customer_id, skuId: row.sku_id, locationId: row.location_id, lot: row.lot, pallet: row.pallet },
        });
        need -= want;
        if (need === 0 || req.singleSource) break;
      }
      if (req.singleSource && lines.length > 0) break;
      if (!raced && need > 0 && candidates.length < 200) break;
    }
    if (need > 0 && !req.allowPartial) throw unprocessable('Not enough stock to allocate', `${need} of ${count(req.quantity, 'unit')} ${noun(need, 'is', 'are')} not free in unexpired lots`);
    return { allocated: req.quantity - need, short: need, lines };
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

  /** A place's balance, locked until commit (PostgreSQL) so a count's difference is taken against what it read. */
  lockBalance(uow: UnitOfWork, place: Place) {
    return repo.lockBalance(uow.tx, this.dialect, place);
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

/** The refusal of a take from a held place. */
function heldConflict(holdType: string, documentId: string, locationCode: string) {
  if (holdType === 'CYCLE_COUNT') {
    return conflict(`Location ${locationCode} is being counted (cycle count ${documentId})`,
      'Nothing can be moved or adjusted out of it until the count is approved or cancelled');
  }
  return conflict(`Stock at location ${locationCode} is held for ${holdType.toLowerCase()} (${documentId})`, 'Nothing can leave it until the hold is lifted');
}

export function pick(p: Place): Place {
  return { warehouseId: p.warehouseId, customerId: p.customerId, skuId: p.skuId, locationId: p.locationId, lot: p.lot ?? '', pallet: p.pallet ?? '' };
}
