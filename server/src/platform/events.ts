import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { HubEventMap, HubEventName } from '@bolx/contracts';
import type { Database } from '../db/database.js';
import type { Executor } from '../db/schema.js';

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
 * subscribers only after that transaction commits — on PostgreSQL through NOTIFY (which Postgres itself
 * holds back until commit, and which every server node hears), on SQLite through `afterCommit`.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  private listenerClient: import('pg').PoolClient | undefined;
  private readonly pending: number[] = [];
  private draining = false;
  private readonly channel: string;

  constructor(private readonly database: Database) {
    this.emitter.setMaxListeners(0);
    this.channel = channelFor(database.pgSchema);
  }

  async record<K extends HubEventName>(tx: Executor, event: DomainEvent<K>, afterCommit: (fn: () => void) => void): Promise<void> {
    await this.recordMany(tx, [event], afterCommit);
  }

  /**
   * Several events of one change in one statement. On PostgreSQL the NOTIFY rides on the same INSERT
   * (pg_notify in RETURNING), so an event costs one statement on either engine.
   */
  async recordMany(tx: Executor, events: DomainEvent[], afterCommit: (fn: () => void) => void): Promise<void> {
    // A bulk upload's thousands of events: a thousand rows a statement, well under either engine's parameter bound.
    for (let i = 0; i < events.length; i += 1000) await this.insertEvents(tx, events.slice(i, i + 1000), afterCommit);
  }

  private async insertEvents(tx: Executor, events: DomainEvent[], afterCommit: (fn: () => void) => void): Promise<void> {
    const notify = this.database.dialect.engine === 'postgres';
    const rows = await tx
      .insertInto('event_outbox')
      .values(events.map((event) => ({
        name: event.target,
        payload_json: JSON.stringify(event.payload),
        warehouse_id: event.warehouseId ?? null,
        customer_id: event.customerId ?? null,
      })))
      .returning(notify ? ['id', sql<string>`pg_notify(${this.channel}, id::text)`.as('notified')] : ['id'])
      .execute();
    if (!notify) afterCommit(() => events.forEach((event, i) => this.emitter.emit('event', { ...event, id: rows[i].id })));
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
    const pool = this.database.pool;
    if (!pool) return;
    const client = await pool.connect();
    this.listenerClient = client;
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      this.pending.push(Number(msg.payload));
      void this.drain();
    });
    await client.query(`LISTEN ${this.channel}`);
  }

  /**
   * Notifications arrive in commit order; loading each one on its own pooled query could emit them out of
   * order, so one loader at a time takes every id waiting and emits them in that order.
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
    this.listenerClient?.release();
    this.listenerClient = undefined;
  }
}
