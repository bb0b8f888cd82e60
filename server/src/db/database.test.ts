import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './database.js';

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
