import type pg from 'pg';

/**
 * PostgreSQL plans an unnamed statement every time it runs. For the hot OLTP statements that planning cost more than
 * the execution: in a pick (11 statements) 3.4 ms of PostgreSQL's 6.3 ms went to planning. A named (prepared)
 * statement is parsed once per connection, and after five runs PostgreSQL keeps a generic plan when it costs no more
 * than the custom ones, so it is not planned again. SQLite's side of the same idea is withStatementCache.
 *
 * Only statements with parameters: without, pg sends the simple protocol, which allows several statements in one text
 * (a prepared statement may not), and `begin`/`commit` gain nothing. A text is prepared from its second run on: statements that carry inlined values (an id list, a literal) are
 * seldom run twice and never take a name. Bounds: at most MAX_NAMED texts get names per pool (then the rest run
 * unnamed, as before), and each connection prepares at most those, so its server-side memory stays bounded.
 *
 * Not named: statements whose result columns depend on a table's current columns (`select *` of a table,
 * `"t".*`, `returning *`). A prepared one would fail with "cached plan must not change result type" on an older
 * node after a newer one's migration added a column, during a rolling upgrade.
 */
export class PreparedStatements {
  private readonly named = new Map<string, string>();
  private readonly seenOnce = new Set<string>();

  constructor(private readonly maxNamed = MAX_NAMED, private readonly maxSeen = MAX_SEEN) {}

  /** The statement's name when it should run prepared, else undefined. */
  nameOf(text: string): string | undefined {
    const name = this.named.get(text);
    if (name !== undefined || this.named.size >= this.maxNamed) return name;
    if (!this.seenOnce.delete(text)) {
      if (this.seenOnce.size >= this.maxSeen) this.seenOnce.clear();
      this.seenOnce.add(text);
      return undefined;
    }
    if (TABLE_SHAPED.test(text)) return undefined;
    const promoted = `bolx_${this.named.size + 1}`;
    this.named.set(text, promoted);
    return promoted;
  }

  /** Makes the pool's connections run hot statements prepared (Kysely calls `client.query(text, values)`, pool.query adds a callback). */
  install(pool: pg.Pool): void {
    pool.on('connect', (client) => {
      // The prototype's query, looked up at each call: a statement counter or tracer (tests, the bench) patches it there.
      const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
      const query = (...args: unknown[]) => proto.query.apply(client, args);
      (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
        if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
          const name = this.nameOf(config);
          // pool.query passes a callback; Kysely does not.
          if (name) return callback === undefined ? query({ name, text: config, values }) : query({ name, text: config, values }, callback);
        }
        return query(config, values, callback);
      };
    });
  }
}

/** Distinct statement texts prepared per pool (PostgreSQL keeps each, with its plan, on every connection that ran it). */
const MAX_NAMED = 500;
/** Texts remembered as seen once, waiting for a second run; forgotten all at once when full. */
const MAX_SEEN = 5000;
/** A result shaped by a table's columns at the time of preparing: Kysely's selectAll and returningAll. */
const TABLE_SHAPED = /\* from "|"\.\*|returning \*/i;
