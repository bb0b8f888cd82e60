// A query's plan on either engine, for the tests that show a heavy query uses its index (EXPLAIN).
import { CompiledQuery, type Compilable } from 'kysely';
import { expect } from 'vitest';
import type { TestApp } from '../helpers.js';

/** The plan's text; PostgreSQL is told to avoid a sequential scan, so a usable index shows on its few test rows. */
export async function planOf(t: TestApp, q: Compilable<unknown>): Promise<string> {
  const c = q.compile();
  if (t.database.sqlite) return (t.database.sqlite.prepare(`EXPLAIN QUERY PLAN ${c.sql}`).all(...(c.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail).join('\n');
  return t.database.db.transaction().execute(async (tx) => {
    await tx.executeQuery(CompiledQuery.raw('SET LOCAL enable_seqscan = off'));
    const rows = (await tx.executeQuery(CompiledQuery.raw(`EXPLAIN ${c.sql}`, [...c.parameters]))).rows as Record<string, string>[];
    return rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

/** The plan never reads a whole table: on SQLite no bare SCAN of it, on PostgreSQL no Seq Scan of it (names or aliases). */
export function expectNoFullScan(t: TestApp, text: string, tables: string[]): void {
  for (const table of tables) {
    if (t.database.sqlite) expect(text, text).not.toMatch(new RegExp(`SCAN ${table}(?! USING)`));
    else expect(text, text).not.toMatch(new RegExp(`Seq Scan on ${table}`));
  }
}
