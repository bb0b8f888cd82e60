import { CompiledQuery, createQueryId, PostgresDialect, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult } from 'kysely';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { PreparedStatements } from './pg-prepared.js';

/**
 * The PostgreSQL driver: Kysely's own, except that statements nothing waits on travel with the next one. Each
 * statement sent alone is a round trip, and on the machines we run on a round trip costs more CPU than most of our
 * statements (a trivial prepared SELECT: ~0.2 ms of Node and PostgreSQL together, where a whole pick costs ~6–10 ms).
 *  - BEGIN is not sent on its own: it goes with the transaction's first statement;
 *  - `writeBehind`: a write whose answer nothing waits for (a change's audit rows and outbox events, a reservation
 *    that checks itself) goes with the transaction's next statement, its COMMIT at the latest;
 *  - `sendAhead`: a statement whose answer the caller reads after its next one (a pick's own rows, then the stock
 *    engine's) goes with that one.
 * A mid-job pick was 10 round trips; it is 4. Statements sent together are one extended-protocol batch with one
 * Sync: when one fails, PostgreSQL skips the rest, so nothing after a failure runs, and the failure is the batch's
 * (the caller's error rolls the transaction back, as before). SQLite answers every statement at once: nothing queues.
 */
export class PgDialect implements Dialect {
  private readonly inner: PostgresDialect;
  constructor(private readonly pool: pg.Pool, private readonly prepared: PreparedStatements) {
    this.inner = new PostgresDialect({ pool });
  }
  createDriver(): Driver { return new PgDriver(this.pool, this.prepared); }
  createQueryCompiler() { return this.inner.createQueryCompiler(); }
  createAdapter() { return this.inner.createAdapter(); }
  createIntrospector(db: Kysely<any>) { return this.inner.createIntrospector(db); }
}

/** A write sent with the transaction's next statement; `onRows` gets its rows once it ran. */
const WRITE_BEHIND = Symbol('write behind');
/** Marks a result whose rows come later (with the next statement). */
const DEFERRED = Symbol('deferred');
/** Who gets a queued statement's outcome: its rows, or the batch's failure. */
interface Receiver { rows(rows: unknown[]): void; fail(err: unknown): void }
type WriteBehindQuery = CompiledQuery & { [WRITE_BEHIND]: Receiver };

// The transaction's commands, recognised by identity: they reach the connection through any wrapper (a pinned one).
const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
/** Named once per connection: in a batch they then cost a Bind and an Execute, no Parse. */
const COMMAND_NAMES = new Map([[BEGIN.sql, 'bolx_begin'], [COMMIT.sql, 'bolx_commit']]);

/**
 * Runs a write whose answer nothing waits for, where the engine can defer it: on PostgreSQL inside a transaction it
 * is sent with the transaction's next statement (whatever it is, so that statement sees its effect; COMMIT at the
 * latest), and `onRows` gets its rows then (before the after-commit hooks run); otherwise it runs now. Its failure
 * is that next statement's (a failed commit rolls everything back), so it is for writes that fail only on a bug, or
 * check themselves (migration 0048's bolx_refuse answers 409): the error surfaces where that statement was sent.
 */
export async function writeBehind<R>(db: QueryRunner, query: CompiledQuery<R> | (() => CompiledQuery<R>), onRows: (rows: R[]) => void): Promise<void> {
  await queue(db, query, { rows: onRows as (rows: unknown[]) => void, fail: () => undefined });
}

/**
 * A statement whose answer the caller reads later: on PostgreSQL inside a transaction it is queued and sent with the
 * transaction's next statement (one round trip for both), elsewhere it runs now. Call `rows()` after that next
 * statement; its failure is also that statement's. For a statement the next one does not depend on (a pick's own
 * rows, then the stock engine's reservations: independent writes whose answers are checked before commit).
 */
export async function sendAhead<R>(db: QueryRunner, query: CompiledQuery<R>): Promise<{ rows(): Promise<R[]> }> {
  let receiver!: Receiver;
  const answer = new Promise<R[]>((resolve, reject) => { receiver = { rows: resolve as (rows: unknown[]) => void, fail: reject }; });
  answer.catch(() => undefined); // the failure also reaches the statement it was sent with; read here only if wanted
  await queue(db, query, receiver);
  return { rows: () => answer };
}

type QueryRunner = { executeQuery<T>(q: CompiledQuery<T>): Promise<QueryResult<T>> };
/**
 * `query` as a function: built when it is sent (with the next statement), so until then the caller may still add to
 * what it writes (platform/events.ts: a transaction's later changes join its audit rows and events still unsent).
 */
async function queue(db: QueryRunner, query: CompiledQuery | (() => CompiledQuery), receiver: Receiver) {
  const result = await db.executeQuery(typeof query === 'function' ? builtWhenSent(query, receiver) : { ...query, [WRITE_BEHIND]: receiver } as CompiledQuery);
  if (!(DEFERRED in result)) receiver.rows(result.rows);
}

function builtWhenSent(build: () => CompiledQuery, receiver: Receiver): CompiledQuery {
  let built: CompiledQuery | undefined;
  const field = (name: keyof CompiledQuery) => ({ enumerable: true, get: () => (built ??= build())[name] });
  // Its id is its own: Kysely reads it once the statement is queued, which must not build it.
  return Object.defineProperties({ [WRITE_BEHIND]: receiver, queryId: createQueryId() }, {
    query: field('query'), sql: field('sql'), parameters: field('parameters'),
  }) as unknown as CompiledQuery;
}

class PgDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, PgConnection>();
  constructor(private readonly pool: pg.Pool, private readonly prepared: PreparedStatements) {}
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) this.connections.set(client, (connection = new PgConnection(client, this.prepared)));
    return connection;
  }
  async beginTransaction(connection: DatabaseConnection, settings: { isolationLevel?: string; accessMode?: string }) {
    if (settings.isolationLevel || settings.accessMode) {
      const sql = ['start transaction', settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '', settings.accessMode ?? ''].filter(Boolean).join(' ');
      await connection.executeQuery(CompiledQuery.raw(sql));
    } else {
      await connection.executeQuery(BEGIN);
    }
  }
  async commitTransaction(connection: DatabaseConnection) { await connection.executeQuery(COMMIT); }
  async rollbackTransaction(connection: DatabaseConnection) { await connection.executeQuery(ROLLBACK); }
  async savepoint(connection: DatabaseConnection, name: string) { await connection.executeQuery(CompiledQuery.raw(`savepoint "${savepointName(name)}"`)); }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string) { await connection.executeQuery(CompiledQuery.raw(`rollback to "${savepointName(name)}"`)); }
  async releaseSavepoint(connection: DatabaseConnection, name: string) { await connection.executeQuery(CompiledQuery.raw(`release "${savepointName(name)}"`)); }
  async releaseConnection(connection: DatabaseConnection) { (connection as PgConnection).release(); }
  async destroy() { await this.pool.end(); }
}

const savepointName = (name: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`Unusable savepoint name: ${name}`);
  return name;
};

/** One pooled client: its transaction's BEGIN, when not yet sent, and the writes waiting for its COMMIT. */
class PgConnection implements DatabaseConnection {
  private beginPending = false;
  private inTransaction = false;
  private queued: WriteBehindQuery[] = [];

  constructor(private readonly client: pg.PoolClient, private readonly prepared: PreparedStatements) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query === BEGIN) {
      this.beginPending = true;
      this.inTransaction = true;
      this.queued = [];
      return { rows: [] };
    }
    if (query === ROLLBACK) {
      const begun = !this.beginPending;
      for (const w of this.queued) w[WRITE_BEHIND].fail(new Error('The transaction was rolled back before this statement was sent'));
      this.end();
      if (begun) await this.send([ROLLBACK]);
      return { rows: [] };
    }
    if (WRITE_BEHIND in query && this.inTransaction) {
      this.queued.push(query as WriteBehindQuery);
      return { rows: [], [DEFERRED]: true } as QueryResult<R>;
    }
    // The queued writes go first, so this statement (a read, a savepoint's command, COMMIT) sees their effect.
    const writes = this.queued.splice(0, this.queued.length);
    if (query === COMMIT && this.beginPending && writes.length === 0) { // an empty transaction: nothing to begin or commit
      this.end();
      return { rows: [] };
    }
    const batch = [...(this.beginPending ? [BEGIN] : []), ...writes.map(plain), query];
    this.beginPending = false;
    if (query === COMMIT) this.end();
    else if (/^\s*(start transaction|begin)\b/i.test(query.sql)) this.inTransaction = true;
    let results: pg.QueryResult[];
    try {
      results = await this.send(batch);
    } catch (err) {
      for (const w of writes) w[WRITE_BEHIND].fail(err);
      throw err;
    }
    writes.forEach((w, i) => w[WRITE_BEHIND].rows(results[batch.length - 1 - writes.length + i].rows ?? []));
    return toKysely<R>(results[results.length - 1]);
  }

  private end() {
    this.beginPending = false;
    this.inTransaction = false;
    this.queued = [];
  }

  /** Sends statements: one alone as pg does; several as one batch. Answers each one's result, in order. */
  private async send(queries: CompiledQuery[]): Promise<pg.QueryResult[]> {
    if (queries.length === 1) {
      const [q] = queries;
      const name = COMMAND_NAMES.get(q.sql);
      return [await (name ? this.client.query({ name, text: q.sql }) : this.client.query(q.sql, [...q.parameters]))];
    }
    return new Promise((resolve, reject) => {
      const batch = new BatchQuery(queries.map((q) => this.statementOf(q)), (err, results) => (err ? reject(err) : resolve(results!)));
      this.client.query(batch as unknown as pg.QueryConfig);
    });
  }

  private statementOf(q: CompiledQuery): BatchStatement {
    const values = [...q.parameters];
    return { text: q.sql, values, name: COMMAND_NAMES.get(q.sql) ?? (values.length > 0 ? this.prepared.nameOf(q.sql) : undefined) };
  }

  release() {
    this.end();
    this.client.release();
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not configured for PostgreSQL');
  }
}

const plain = (q: WriteBehindQuery): CompiledQuery => ({ query: q.query, queryId: q.queryId, sql: q.sql, parameters: q.parameters });
function toKysely<R>(r: pg.QueryResult): QueryResult<R> {
  const counted = r.command === 'INSERT' || r.command === 'UPDATE' || r.command === 'DELETE' || r.command === 'MERGE';
  return { numAffectedRows: counted ? BigInt(r.rowCount ?? 0) : undefined, rows: (r.rows ?? []) as R[] };
}

/** A statement of a batch: its text, values and, when it runs prepared, its name. */
export interface BatchStatement { text: string; values: unknown[]; name?: string }

// pg's Query, as much of it as the batch uses (not in its types).
interface PgWire {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(m: { text: string; name: string }): void;
  bind(m: { portal: string; statement: string; values: unknown[]; binary?: boolean; valueMapper?: (v: unknown) => unknown }): void;
  describe(m: { type: 'P'; name: string }): void;
  execute(m: { portal: string }): void;
  sync(): void;
  stream: { cork?(): void; uncork?(): void };
}
interface PgQuery { name?: string; text?: string; _results: pg.QueryResult | pg.QueryResult[]; handleError(err: Error, connection: PgWire): void }
const QueryBase = pg.Query as unknown as new (config: object) => PgQuery;
/** pg's own mapping of a value to its wire text (dates, arrays, JSON, buffers), as its Query binds them. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (v: unknown) => unknown };

/**
 * Several statements in one write: for each a Parse (unless its name is parsed on this connection already), Bind,
 * Describe and Execute, then one Sync. PostgreSQL answers each in order, and pg's Query keeps one result per
 * statement (as it does for a multi-statement simple query). At most one statement of a batch is parsed under a
 * name, and its Parse is the batch's first: pg marks "the query's name" parsed at every ParseComplete, so it must be
 * the first to complete; another statement needing a Parse is parsed unnamed (planned again on each run).
 */
class BatchQuery extends QueryBase {
  /** What the statement counters of the tests and the bench read. */
  readonly statements: BatchStatement[];
  private readonly plan: { statement: BatchStatement; parse: boolean; as: string }[] = [];

  constructor(statements: BatchStatement[], callback: (err: Error | null, results?: pg.QueryResult[]) => void) {
    super({ text: '', callback: (err: Error | null, res: pg.QueryResult | pg.QueryResult[]) => callback(err, err ? undefined : Array.isArray(res) ? res : [res]) });
    this.statements = statements;
  }

  requiresPreparation() { return true; }

  submit(connection: PgWire) {
    let named: BatchStatement | undefined;
    let parsing = false;
    for (const s of this.statements) {
      const known = s.name !== undefined && (connection.parsedStatements[s.name] !== undefined || connection.submittedNamedStatements[s.name] !== undefined);
      if (known) { this.plan.push({ statement: s, parse: false, as: s.name! }); continue; }
      const asNamed = s.name !== undefined && !parsing;
      if (asNamed) named = s;
      parsing = true;
      this.plan.push({ statement: s, parse: true, as: asNamed ? s.name! : '' });
    }
    // The name pg's client marks parsed on ParseComplete (and forgets after an error), as for a single query.
    this.name = named?.name;
    this.text = named?.text ?? '';
    let values: unknown[][];
    try {
      values = this.plan.map((p) => p.statement.values.map((v) => prepareValue(v)));
    } catch (err) {
      return err as Error;
    }
    connection.stream.cork?.();
    try {
      this.plan.forEach((p, i) => {
        if (p.parse) {
          connection.parse({ text: p.statement.text, name: p.as });
          if (p.as) connection.submittedNamedStatements[p.as] = p.statement.text;
        }
        connection.bind({ portal: '', statement: p.as, values: values[i] });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }
}
