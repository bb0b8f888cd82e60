import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase, withStatementCache } from './database.js';

describe('the SQLite statement cache', () => {
  it('prepares a statement once and reuses it, keeping the most recently used ones', () => {
    const sqlite = new SQLite(':memory:');
    const cached = withStatementCache(sqlite, 2);
    const first = cached.prepare('select 1 as a');
    expect(cached.prepare('select 1 as a')).toBe(first);
    const second = cached.prepare('select 2 as b');
    cached.prepare('select 1 as a'); // now the most recent
    cached.prepare('select 3 as c'); // evicts 'select 2'
    expect(cached.prepare('select 1 as a')).toBe(first);
    expect(cached.prepare('select 2 as b')).not.toBe(second);
    expect((cached.prepare('select 2 as b') as unknown as SQLite.Statement).get()).toEqual({ b: 2 });
    cached.close();
  });
});

describe('SQLite statistics', () => {
  it('are gathered when the database opens, so the planner knows an IN list over most clients is not selective', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bolx-optimize-'));
    try {
      const first = openDatabase({ dataDir });
      first.sqlite!.exec(`CREATE TABLE item (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, code TEXT NOT NULL);
        CREATE INDEX item_owner ON item (owner); CREATE INDEX item_code ON item (code, id);`);
      const insert = first.sqlite!.prepare('INSERT INTO item (owner, code) VALUES (?, ?)');
      first.sqlite!.transaction(() => { for (let i = 0; i < 5000; i++) insert.run(i % 6, `C${String(i).padStart(5, '0')}`); })();
      const plan = (db: ReturnType<typeof openDatabase>) => db.sqlite!.prepare('EXPLAIN QUERY PLAN SELECT * FROM item WHERE owner IN (1, 2, 3, 4, 5) ORDER BY code, id LIMIT 10')
        .all().map((r) => (r as { detail: string }).detail).join('; ');
      expect(plan(first)).toContain('TEMP B-TREE'); // no statistics yet: some 4,000 rows sorted for ten
      await first.close();
      const reopened = openDatabase({ dataDir });
      expect(plan(reopened)).not.toContain('TEMP B-TREE');
      expect(plan(reopened)).toContain('item_code');
      await reopened.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('PostgreSQL connections', () => {
  it('run without JIT: a report statement estimated far above what it reads is not compiled for longer than it runs', async () => {
    const database = openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: tmpdir() });
    try {
      const { rows } = await database.pool!.query<{ jit: string }>('SHOW jit');
      expect(rows[0].jit).toBe('off');
    } finally {
      await database.close();
    }
  });
});
