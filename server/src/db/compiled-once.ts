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
  return async (db: Executor, shape: S, ...args: A): Promise<R[]> => {
    const engine = db.getExecutor().adapter.constructor;
    let compiled = byEngine.get(engine);
    if (!compiled) byEngine.set(engine, (compiled = new Map()));
    const key = keyOf(shape);
    let query = compiled.get(key);
    if (!query) {
      if (compiled.size >= room) compiled.clear();
      query = build(db, shape, ...(args.map((_, i) => new Slot(i)) as A)).compile(db);
      compiled.set(key, query);
    }
    const parameters = query.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
