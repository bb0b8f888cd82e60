import { EventEmitter } from 'node:events';
import type { HubEventMap, HubEventName } from '@bolx/contracts';
import type { Database } from '../db/database.js';
import type { Insertable } from 'kysely';
import type { AuditLogTable, Executor } from '../db/schema.js';
import { compiledOnce } from '../db/compiled-once.js';
import { AUDIT_COLUMNS } from './audit.js';

/**
 * A domain event as the hub will deliver it: `target` is the hub method (contracts' HubEventMap), and the
 * warehouse and customer decide who may receive it.
 */
export interface DomainEvent<K extends HubEventName = HubEventName> {
  target: K;
  payload: HubEventMap[K];
  warehouseId?: number | null;
  customerId?: number | null;
}
/** The same, by the name that tells it apart from the internal domain events of platform/domain-events.ts. */
export type HubEvent<K extends HubEventName = HubEventName> = DomainEvent<K>;
export interface DeliveredEvent extends DomainEvent {
  id: number;
}

/** Events a statement: well under either engine's bound on parameters (4 a row). */
const EVENTS_PER_STATEMENT = 1000;

/** Inserts of at most this many rows (events and audit rows) are compiled once per shape; larger ones are built each time. */
const FEW_ROWS = 16;

/**
 * The outbox insert of `shape.events` events (their name, payload, warehouse and client a row), with `shape.audits`
 * audit rows (AUDIT_COLUMNS a row, after the events' values) inserted by the same statement when there are any.
 */
function eventsInsert(db: Executor, shape: { events: number; audits: number }, ...v: unknown[]) {
  const events = Array.from({ length: shape.events }, (_, i) => ({
    name: v[4 * i] as string, payload_json: v[4 * i + 1] as string, warehouse_id: v[4 * i + 2] as number | null, customer_id: v[4 * i + 3] as number | null,
  }));
  const from = 4 * shape.events;
  const audits = Array.from({ length: shape.audits }, (_, row) =>
    Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, v[from + row * AUDIT_COLUMNS.length + i]])) as Insertable<AuditLogTable>);
  const into: Pick<Executor, 'insertInto'> = audits.length ? db.with('audit', (q) => q.insertInto('audit_log').values(audits)) : db;
  return into.insertInto('event_outbox').values(events).returning(['id']);
}
const eventsInsertOnce = compiledOnce((s: { events: number; audits: number }) => `${s.events}|${s.audits}`, eventsInsert);

/** How often a node whose listening connection was lost tries to listen again. */
const RELISTEN_EVERY_MS = 1000;

/**
 * One channel per schema: ids are per schema, so a node must never hear (and load by id) another schema's
 * events — several test files, or several deployments, may share one PostgreSQL database.
 */
function channelFor(schema: string | undefined): string {
  if (!schema) return 'bolx_events';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(schema)) throw new Error(`Unusable PostgreSQL schema name for events: ${schema}`);
  return `bolx_events_${schema}`;
}

/**
 * The transactional outbox. `record` writes the event in the caller's transaction; it is delivered to local
 * subscribers only after that transaction commits — on PostgreSQL through NOTIFY, which every server node hears,
 * sent once the transaction has committed (see announce); on SQLite through `afterCommit`.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  private listenerClient: import('pg').PoolClient | undefined;
  private readonly pending: number[] = [];
  private draining = false;
  private stopped = false;
  /** The newest event id delivered from a notification: where to catch up from after listening again. */
  private lastDelivered = 0;
  private readonly channel: string;
  /** Committed events' ids waiting to be announced, and whether an announcement is on its way. */
  private readonly unannounced: number[] = [];
  private announcing = false;

  constructor(private readonly database: Database) {
    this.emitter.setMaxListeners(0);
    this.channel = channelFor(database.pgSchema);
  }

  async record<K extends HubEventName>(tx: Executor, event: DomainEvent<K>, afterCommit: (fn: () => void) => void): Promise<void> {
    await this.recordMany(tx, [event], afterCommit);
  }

  /** Several events of one change in one statement (a thousand a statement). */
  async recordMany(tx: Executor, events: DomainEvent[], afterCommit: (fn: () => void) => void): Promise<void> {
    // A bulk upload's thousands of events: a thousand rows a statement, well under either engine's parameter bound.
    for (let i = 0; i < events.length; i += EVENTS_PER_STATEMENT) await this.insertEvents(tx, events.slice(i, i + EVENTS_PER_STATEMENT), afterCommit);
  }

  /**
   * PostgreSQL: the events (at most EVENTS_PER_STATEMENT) and the audit rows of the same change in one statement
   * (a data-modifying WITH): one round trip where two were. Elsewhere: false, nothing written (the caller writes apart).
   */
  async recordWithAudits(tx: Executor, events: DomainEvent[], audits: Insertable<AuditLogTable>[], afterCommit: (fn: () => void) => void): Promise<boolean> {
    if (!this.canRecordWithAudits(events.length, audits.length)) return false;
    await this.insertEvents(tx, events, afterCommit, audits);
    return true;
  }

  canRecordWithAudits(events: number, audits: number): boolean {
    return this.database.dialect.engine === 'postgres' && events > 0 && events <= EVENTS_PER_STATEMENT && audits > 0;
  }

  /** The events' insert, with `audits` (PostgreSQL) as its data-modifying WITH; compiled once for a few rows (every change's). */
  private async insertEvents(tx: Executor, events: DomainEvent[], afterCommit: (fn: () => void) => void, audits: Insertable<AuditLogTable>[] = []): Promise<void> {
    const shape = { events: events.length, audits: audits.length };
    const values = [
      ...events.flatMap((event) => [event.target, JSON.stringify(event.payload), event.warehouseId ?? null, event.customerId ?? null]),
      ...audits.flatMap((a) => AUDIT_COLUMNS.map((c) => a[c] ?? null)),
    ];
    const rows = events.length + audits.length <= FEW_ROWS ? await eventsInsertOnce(tx, shape, ...values) : await eventsInsert(tx, shape, ...values).execute();
    if (this.database.dialect.engine === 'postgres') afterCommit(() => this.announce(rows.map((r) => Number(r.id))));
    else afterCommit(() => events.forEach((event, i) => this.emitter.emit('event', { ...event, id: rows[i].id })));
  }

  /**
   * PostgreSQL: tells every node (this one included) of committed events, after their transaction. A NOTIFY inside
   * the transaction would hold PostgreSQL's one notification lock from its commit until the commit is on disk, so
   * every writing request of the cluster would commit in turn, each waiting for the previous one's disk flush (8
   * pickers at once were slower than one). Announced apart, the commits share their flushes, and the announcement
   * itself waits for no flush (synchronous_commit off: a notification is not data). Ids committed meanwhile go
   * together in the next announcement (comma-separated, at most ~7,000 characters a notification).
   */
  private announce(ids: number[]): void {
    this.unannounced.push(...ids);
    if (this.announcing) return;
    this.announcing = true;
    void (async () => {
      try {
        while (this.unannounced.length > 0) {
          const batch = this.unannounced.splice(0, 700);
          // On the pool itself, never a request's pinned connection (platform/pinned-connection.ts), which may by now be
          // another request's transaction.
          await this.database.pool!.query(`select set_config('synchronous_commit', 'off', true), pg_notify($1, $2)`, [this.channel, batch.join(',')]);
        }
      } catch {
        this.unannounced.length = 0; // the database is closing; nothing is listening any more
      } finally {
        this.announcing = false;
      }
    })();
  }

  /** The newest committed event's id: what a listener joining now has already missed. */
  async latestId(): Promise<number> {
    const row = await this.database.db.selectFrom('event_outbox').select(({ fn }) => fn.max('id').as('id')).executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  subscribe(listener: (event: DeliveredEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** On PostgreSQL, listens for events committed by any node. */
  async start(): Promise<void> {
    if (!this.database.pool) return;
    this.stopped = false;
    this.lastDelivered = await this.latestId();
    await this.listen();
  }

  private async listen(): Promise<void> {
    const client = await this.database.pool!.connect();
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      this.pending.push(...msg.payload.split(',').map(Number));
      void this.drain();
    });
    // The listening connection lost (PostgreSQL restarted, the connection was cut): listen again on a new one.
    client.on('error', () => void this.relisten(client));
    client.on('end', () => void this.relisten(client));
    try {
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      client.release(true);
      throw err;
    }
    if (this.stopped) client.release();
    else this.listenerClient = client;
  }

  /**
   * Listens again after the listening connection was lost, trying every second until the database answers; then
   * delivers the events committed meanwhile (those after the last one delivered), which no notification brought.
   * An event committed just as listening resumed may be announced both ways and reach the hub twice: its clients
   * refetch what changed, so a repeat costs a read, where a miss would leave a screen stale.
   */
  private async relisten(lost: import('pg').PoolClient): Promise<void> {
    if (this.listenerClient !== lost) return;
    this.listenerClient = undefined;
    lost.release(true);
    while (!this.stopped) {
      try {
        await this.listen();
        const missed = await this.database.db.selectFrom('event_outbox').select('id').where('id', '>', this.lastDelivered).orderBy('id').execute();
        const waiting = new Set(this.pending);
        this.pending.push(...missed.map((r) => Number(r.id)).filter((id) => !waiting.has(id)));
        void this.drain();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, RELISTEN_EVERY_MS));
      }
    }
  }

  /**
   * Notifications arrive in the order they were announced (a node's, in commit order); loading each one on its own
   * pooled query could emit them out of order, so one loader at a time takes every id waiting and emits them in that order.
   */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const ids = this.pending.splice(0, 500);
        let rows;
        try {
          rows = await this.database.db.selectFrom('event_outbox').selectAll().where('id', 'in', ids).execute();
        } catch {
          return; // the database is closing; nothing is listening any more
        }
        const byId = new Map(rows.map((r) => [Number(r.id), r]));
        for (const id of ids) {
          const row = byId.get(id);
          if (!row) continue;
          this.lastDelivered = Math.max(this.lastDelivered, id);
          this.emitter.emit('event', {
            id: row.id,
            target: row.name as HubEventName,
            payload: JSON.parse(row.payload_json),
            warehouseId: row.warehouse_id,
            customerId: row.customer_id,
          });
        }
      }
    } finally {
      this.draining = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.listenerClient;
    this.listenerClient = undefined;
    client?.release();
  }
}
