import type { Compilable, CompiledQuery, RawBuilder } from 'kysely';
import type { Executor } from './schema.js';

/** Where argument `index` goes among a query's parameters. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query Kysely builds and compiles once per engine and shape, then runs with each call's values: building and
 * compiling a large select costs more than SQLite takes to run it (the orders bench). `shape` is what may change the
 * SQL text (say, a scope's inlined ids), named by `keyOf`; `build` may use the other arguments only as values
 * (compared, inserted), never to choose the query's shape, and must not inline them (sql.lit). At most `room` shapes
 * are kept per engine (beyond that the cache starts again). `build` may answer a raw `sql` statement too.
 */
export function compiledOnce<S, A extends unknown[], R>(keyOf: (shape: S) => string, build: (db: Executor, shape: S, ...args: A) => Compilable<R> | RawBuilder<R>, room = 200) {
  const byEngine = new Map<unknown, Map<string, CompiledQuery<R>>>();
  /** The statement with this call's values, not run (for a caller that sends it its own way: db/pg-driver.ts's writeBehind). */
  const compiled = (db: Executor, shape: S, ...args: A): CompiledQuery<R> => {
    const engine = db.getExecutor().adapter.constructor;
    let queries = byEngine.get(engine);
    if (!queries) byEngine.set(engine, (queries = new Map()));
    const key = keyOf(shape);
    let query = queries.get(key);
    if (!query) {
      if (queries.size >= room) queries.clear();
      query = build(db, shape, ...(args.map((_, i) => new Slot(i)) as A)).compile(db);
      queries.set(key, query);
    }
    return { ...query, parameters: query.parameters.map((p) => (p instanceof Slot ? args[p.index] : p)) };
  };
  const run = async (db: Executor, shape: S, ...args: A): Promise<R[]> => (await db.executeQuery<R>(compiled(db, shape, ...args))).rows;
  return Object.assign(run, { compiled });
}
