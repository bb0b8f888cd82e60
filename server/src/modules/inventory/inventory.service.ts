import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Actor } from '../../platform/actor.js';
import { writeAudit } from '../../platform/audit.js';
import { badRequest, notFound, unprocessable } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import { listPage, type ListRequest, type ListSpec } from '../../platform/list.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../services.js';
import { inventoryRepository as repo, type Place } from './inventory.repository.js';

/** One side of a stock movement: a signed quantity at a place, with its ledger type. */
export interface Leg {
  place: Place;
  qty: number;
  txnType: string;
  /** For stock arriving at a place: the lot's expiry (moves carry the source's along). */
  expiryDate?: string | null;
}

export interface Movement {
  documentType: string;
  reason: string | null;
  legs: Leg[];
}

export const STOCK_LIST: ListSpec = {
  sortable: {
    skuCode: 's.sku_code', locationCode: 'l.code', onHand: 'b.on_hand', expiryDate: 'b.expiry_date', customerName: 'c.name', warehouseName: 'w.name',
  },
  defaultSort: { column: 'l.code', direction: 'asc' },
  searchable: ['s.sku_code', 's.description', 'l.code', 'b.lot', 'b.pallet'],
  tieBreaker: 'b.id',
};

/**
 * The inventory engine. Every quantity change goes through `post`: each leg is one conditional statement on
 * its balance plus its ledger row, in the caller's transaction, so stock is never lost, doubled or negative
 * and the ledger always sums to the balances.
 */
export class InventoryService {
  private readonly db: Db;
  private readonly dialect: Dialect;
  private readonly events: EventBus;
  constructor(deps: ServiceDeps) {
    this.db = deps.db;
    this.dialect = deps.dialect;
    this.events = deps.events;
  }

  /** Applies a movement inside an open transaction; throws 422 (rolling everything back) when stock is short. */
  async post(uow: UnitOfWork, movement: Movement, actor: Actor) {
    const at = new Date().toISOString();
    const document = randomUUID();
    // Stock arriving from another place keeps that place's lot expiry; read it before anything changes.
    const sources = movement.legs.filter((l) => l.qty < 0);
    const carried = sources.length ? (await repo.findBalance(uow.tx, sources[0].place))?.expiry_date ?? null : null;
    // Every transaction touches balance rows in the same order, so two opposite moves cannot deadlock.
    for (const leg of [...movement.legs].sort((x, y) => placeKey(x.place).localeCompare(placeKey(y.place)))) {
      if (leg.qty < 0) {
        const taken = await repo.takeStock(uow.tx, leg.place, -leg.qty, at);
        if (!taken) throw unprocessable('Not enough free stock at this place', 'The quantity is more than is on hand and not allocated');
      } else {
        await repo.addStock(uow.tx, leg.place, leg.qty, leg.expiryDate ?? carried, at);
      }
    }
    const entries = await repo.insertLedger(uow.tx, movement.legs.map((leg) => ({
      place: leg.place, qtyChange: leg.qty, txnType: leg.txnType, reason: movement.reason,
      documentType: movement.documentType, documentId: document, userId: actor.userId, at,
    })));
    return {
      document,
      entries: entries.map((e) => ({
        id: e.id, at: e.at, txnType: e.txn_type, qtyChange: e.qty_change, locationId: e.location_id, lot: e.lot, pallet: e.pallet,
        documentType: e.document_type, documentId: e.document_id,
      })),
    };
  }

  /** Checks that the SKU is the customer's, the locations are the warehouse's and active, and all is in scope. */
  private async assertReferences(principal: Principal, place: Place, locationIds: number[]) {
    principal.scope.assert({ warehouseId: place.warehouseId, customerId: place.customerId });
    const refs = await repo.references(this.db, place.skuId, locationIds, place.customerId);
    if (!refs.sku || refs.sku.customer_id !== place.customerId) throw notFound('SKU');
    if (!refs.servedWarehouses.includes(place.warehouseId)) throw unprocessable('This client is not served by this warehouse');
    for (const id of locationIds) {
      const loc = refs.locations.find((l) => l.id === id);
      if (!loc || loc.warehouse_id !== place.warehouseId) throw notFound('Location');
      if (loc.is_active !== 1) throw unprocessable('This location is inactive');
    }
  }

  async move(principal: Principal, input: Place & { toLocationId: number; quantity: number; note?: string }, actor: Actor) {
    if (input.toLocationId === input.locationId) throw badRequest('Choose a different destination location', { toLocationId: 'Same as the source location' });
    const from: Place = pick(input);
    const to: Place = { ...from, locationId: input.toLocationId };
    await this.assertReferences(principal, from, [from.locationId, to.locationId]);
    const result = await inTransaction(this.db, async (uow) => {
      const posted = await this.post(uow, {
        documentType: 'MOVE', reason: input.note ?? null,
        legs: [{ place: from, qty: -input.quantity, txnType: 'move_out' }, { place: to, qty: input.quantity, txnType: 'move_in' }],
      }, actor);
      await this.recordChange(uow, actor, 'Move', posted.document, from, [from.locationId, to.locationId], { from, to, quantity: input.quantity });
      return posted;
    });
    return { message: `Moved ${input.quantity} units`, data: result };
  }

  async adjust(principal: Principal, input: Place & { quantityChange: number; reasonCode: string; expiryDate?: string; note?: string }, actor: Actor) {
    const place = pick(input);
    await this.assertReferences(principal, place, [place.locationId]);
    const result = await inTransaction(this.db, async (uow) => {
      const posted = await this.post(uow, {
        documentType: 'ADJUSTMENT', reason: [input.reasonCode, input.note].filter(Boolean).join(': '),
        legs: [{ place, qty: input.quantityChange, txnType: 'adjust', expiryDate: input.expiryDate ?? null }],
      }, actor);
      await this.recordChange(uow, actor, 'Adjust', posted.document, place, [place.locationId], { place, quantityChange: input.quantityChange, reasonCode: input.reasonCode });
      return posted;
    });
    return { message: `Adjusted by ${input.quantityChange > 0 ? '+' : ''}${input.quantityChange} units`, data: result };
  }

  private async recordChange(uow: UnitOfWork, actor: Actor, kind: 'Move' | 'Adjust', document: string, place: Place, locationIds: number[], after: unknown) {
    await writeAudit(uow.tx as Tx, actor, { action: kind.toLowerCase(), entity: 'inventory', entityId: document, warehouseId: place.warehouseId, customerId: place.customerId, after });
    await this.events.record(uow.tx, {
      target: 'ReceiveInventoryData', payload: { subEvent: kind, payload: { document, skuId: place.skuId, locationIds } },
      warehouseId: place.warehouseId, customerId: place.customerId,
    }, uow.afterCommit);
  }

  async stockOnHand(principal: Principal, req: ListRequest<{ warehouseId?: number; customerId?: number; skuId?: number; locationId?: number; includeEmpty?: boolean }>) {
    const page = await listPage(this.dialect, repo.stockList(this.db, principal.scope, req.filters ?? {}), (q) => q.select([
      'b.id', 'b.warehouse_id', 'w.name as warehouse_name', 'b.customer_id', 'c.name as customer_name', 'b.sku_id', 's.sku_code',
      's.description', 'b.location_id', 'l.code as location_code', 'b.lot', 'b.expiry_date', 'b.pallet', 'b.on_hand', 'b.allocated',
    ]), req, STOCK_LIST);
    return {
      totalCount: page.totalCount,
      items: page.items.map((r) => ({
        uniqueid: r.id, warehouseId: r.warehouse_id, warehouseName: r.warehouse_name, customerId: r.customer_id, customerName: r.customer_name,
        skuId: r.sku_id, skuCode: r.sku_code, skuDescription: r.description, locationId: r.location_id, locationCode: r.location_code,
        lot: r.lot, expiryDate: r.expiry_date, pallet: r.pallet, onHand: r.on_hand, allocated: r.allocated, available: r.on_hand - r.allocated,
      })),
    };
  }

  async reconcile(principal: Principal, filter: { warehouseId: number; customerId: number }) {
    const { differences, checked } = await repo.reconcile(this.db, principal.scope, filter);
    return {
      balanced: differences.length === 0,
      checkedBalances: checked,
      differences: differences.map((d) => ({
        warehouseId: d.warehouse_id, customerId: d.customer_id, skuId: d.sku_id, locationId: d.location_id, lot: d.lot, pallet: d.pallet,
        onHand: Number(d.on_hand ?? 0), ledgerSum: Number(d.ledger_sum ?? 0), difference: Number(d.on_hand ?? 0) - Number(d.ledger_sum ?? 0),
      })),
    };
  }
}

const placeKey = (p: Place) =>
  [p.warehouseId, p.customerId, p.skuId, p.locationId].map((n) => String(n).padStart(10, '0')).join('|') + `|${p.lot}|${p.pallet}`;

function pick(p: Place): Place {
  return { warehouseId: p.warehouseId, customerId: p.customerId, skuId: p.skuId, locationId: p.locationId, lot: p.lot ?? '', pallet: p.pallet ?? '' };
}
