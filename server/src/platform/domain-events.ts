import type { Actor } from './actor.js';
import type { UnitOfWork } from './unit-of-work.js';

// Internal domain events: how one module reacts to another's change without the changing module knowing it
// (backorders filled on arrival, billing charges, labour counts). Apart from the hub's client event map
// (contracts' HubEventMap): these never leave the server, and their payloads are shaped for subscribers, not
// screens. A module adds its events to the map below; a subscriber registers by event name.

/** A warehouse and client the change belongs to: every payload carries them, so a subscriber keeps to its tenant. */
interface Owned {
  warehouseId: number;
  customerId: number;
}

/** One ledger leg of a posting: the place and the signed quantity. */
export interface PostedLeg {
  skuId: number;
  locationId: number;
  lot: string;
  pallet: string;
  qty: number;
  txnType: string;
}

export interface DomainEventMap {
  /**
   * Stock changed through the ledger (one posting: its document and legs). The stock engine raises it with the
   * posting's audit row and hub event: `raises: domainEvent('stock.posted', …)` in the Change it records.
   */
  'stock.posted': Owned & { documentType: string; documentId: string; document: string; legs: PostedLeg[] };
  /** Goods arrived on a receiving order: good units into stock at a dock (or straight to their putaway place). */
  'receipt.posted': Owned & {
    receivingOrderId: number; roNumber: string; document: string | null;
    lines: {
      lineId: number; skuId: number; locationId: number; lot: string; expiryDate: string | null; quantity: number;
      damagedQuantity: number; damagedLocationId: number | null;
    }[];
  };
  /** A receiving order closed: finalized and all of it put away. */
  'receiving-order.closed': Owned & { receivingOrderId: number; roNumber: string };
  /** A cycle count's variances were posted. */
  'cycle-count.approved': Owned & { cycleCountId: number; countNo: string; document: string | null; varianceLines: number };
  /** An adjustment reached the ledger (posted at once, or approved). */
  'adjustment.posted': Owned & { adjustmentId: number; document: string; skuId: number; locationId: number; quantityChange: number; reasonCode: string };
  /** A replenishment task moved its stock to the pick face. */
  'replenishment-task.completed': Owned & { taskId: number; document: string; skuId: number; fromLocationId: number; toLocationId: number; quantity: number };
  /** An order was taken in (the screen, an upload or the client API): its lines as ordered, in units. */
  'order.created': Owned & {
    orderId: number; soNumber: string; orderType: string; referenceNumber: string; priority: number; source: string;
    lines: { lineId: number; skuId: number; quantity: number; lot: string }[];
  };
  /** An order's lines were allocated (by a person, or as stock arrived for its backorders): what each holds now. */
  'order.allocated': Owned & {
    orderId: number; soNumber: string; status: string;
    lines: { lineId: number; skuId: number; allocated: number; short: number; shortReason: string | null }[];
  };
  /** A kit work order was completed: kits built from their components (Build) or taken apart (Unbuild), in one posting. */
  'kit-work-order.completed': Owned & {
    workOrderId: number; woNumber: string; type: 'Build' | 'Unbuild'; kitSkuId: number; quantity: number; locationId: number; document: string;
  };
  /** An RMA's return label was made (shipping): returns put the RMA In Transit with its tracking number. */
  'shipment.return-labelled': Owned & { rmaId: number; shipmentId: number; trackingNumber: string; carrier: string };
  /**
   * A document moved from one status to another. The status machine raises it for every transition:
   * `raises: domainEvent('document.status-changed', …)` in the Change of the transition's audit row and hub event.
   */
  'document.status-changed': Partial<Owned> & { kind: string; documentId: number; from: string; to: string };
}

export type DomainEventName = keyof DomainEventMap;

/** One raised event: a name with the payload that name carries (a mismatch does not compile). */
export type RaisedEvent = { [K in DomainEventName]: { name: K; payload: DomainEventMap[K] } }[DomainEventName];

/** A raised event, typed by its name. */
export function domainEvent<K extends DomainEventName>(name: K, payload: DomainEventMap[K]): RaisedEvent {
  return { name, payload } as RaisedEvent;
}

/** What an in-transaction subscriber gets beside the payload: the raiser's transaction, and who made the change. */
export interface InTransactionContext {
  uow: UnitOfWork;
  actor: Actor;
}
/** What an after-commit subscriber gets: the transaction is over; it opens its own if it writes. */
export interface AfterCommitContext {
  actor: Actor;
}

type Handler<K extends DomainEventName, C> = (payload: DomainEventMap[K], context: C) => void | Promise<void>;

type Subscriber =
  | { name: string; phase: 'in-transaction'; handle: Handler<DomainEventName, InTransactionContext> }
  | { name: string; phase: 'after-commit'; handle: Handler<DomainEventName, AfterCommitContext> };

export interface DomainEventLog {
  error(obj: object, msg: string): void;
}

const consoleLog: DomainEventLog = { error: (obj, msg) => console.error(msg, obj) };

/**
 * The subscribers of the domain events, built once in the composition root. A subscriber runs either
 *  - in the transaction of the change (same unit of work, in registration order): its writes commit with the
 *    change, and its throw rolls the change back — for what must hold together with it; or
 *  - after commit: never after a rollback; its error is logged, never raised to the request that made the
 *    change. It runs in the process that made the change (on PostgreSQL: the node that committed it), once.
 */
export class DomainEvents {
  private readonly subscribers = new Map<DomainEventName, Subscriber[]>();
  private readonly names = new Set<string>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: DomainEventLog = consoleLog) {}

  /** Subscribes `name` (unique, for logs) to `event` inside the raiser's transaction. Answers the unsubscribe. */
  inTransaction<K extends DomainEventName>(event: K, name: string, handle: Handler<K, InTransactionContext>): () => void {
    return this.add(event, { name, phase: 'in-transaction', handle: handle as Handler<DomainEventName, InTransactionContext> });
  }

  /** Subscribes `name` (unique, for logs) to `event` after the raiser's transaction commits. Answers the unsubscribe. */
  afterCommit<K extends DomainEventName>(event: K, name: string, handle: Handler<K, AfterCommitContext>): () => void {
    return this.add(event, { name, phase: 'after-commit', handle: handle as Handler<DomainEventName, AfterCommitContext> });
  }

  private add(event: DomainEventName, subscriber: Subscriber): () => void {
    if (this.names.has(subscriber.name)) throw new Error(`A domain event subscriber named ${subscriber.name} is already registered`);
    this.names.add(subscriber.name);
    this.subscribers.set(event, [...(this.subscribers.get(event) ?? []), subscriber]);
    return () => {
      this.names.delete(subscriber.name);
      this.subscribers.set(event, (this.subscribers.get(event) ?? []).filter((s) => s !== subscriber));
    };
  }

  /**
   * Raises events in the caller's transaction: in-transaction subscribers run now (a throw propagates and rolls
   * the change back); after-commit ones are queued on the unit of work. Use the ChangeRecorder's `raises` (or
   * its `raise`) rather than calling this directly.
   */
  async raise(uow: UnitOfWork, actor: Actor, events: RaisedEvent[]): Promise<void> {
    for (const event of events) {
      for (const subscriber of this.subscribers.get(event.name) ?? []) {
        if (subscriber.phase === 'in-transaction') await subscriber.handle(event.payload, { uow, actor });
        else uow.afterCommit(() => this.runAfterCommit(subscriber, event, actor));
      }
    }
  }

  private runAfterCommit(subscriber: Subscriber & { phase: 'after-commit' }, event: RaisedEvent, actor: Actor): void {
    const run = (async () => {
      try {
        await subscriber.handle(event.payload, { actor });
      } catch (err) {
        this.log.error({ err, event: event.name, subscriber: subscriber.name }, 'An after-commit domain event subscriber failed');
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Resolves when every after-commit subscriber started so far has finished (shutdown waits for them; tests too). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
