import { writeFileSync } from 'node:fs';
import type pg from 'pg';

/**
 * Diagnostics (BENCH_PLANS=file): how PostgreSQL planned each prepared statement on the pool's idle connections —
 * custom plans (planned anew for its values, at every run) against generic ones (planned once per connection). A
 * hot statement with many custom plans is planned at every run (the ledger insert was, before its VALUES list).
 */
export async function writePlans(pool: pg.Pool | undefined, file: string | undefined): Promise<void> {
  if (!pool || !file) return;
  const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
  const plans = new Map<string, { generic: number; custom: number }>();
  try {
    for (const c of clients) {
      for (const r of (await c.query('select statement, generic_plans, custom_plans from pg_prepared_statements')).rows) {
        const text = String(r.statement).replace(/\s+/g, ' ').trim().slice(0, 160);
        const seen = plans.get(text) ?? { generic: 0, custom: 0 };
        plans.set(text, { generic: seen.generic + Number(r.generic_plans), custom: seen.custom + Number(r.custom_plans) });
      }
    }
  } finally {
    for (const c of clients) c.release();
  }
  writeFileSync(file, [...plans].sort((a, b) => b[1].custom - a[1].custom).map(([text, p]) => `custom ${p.custom}  generic ${p.generic}  ${text}`).join('\n') + '\n');
}
