import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEPS } from '../src/db/migrate.js';
import { LAST_RELEASE } from './upgrade-release.js';

/**
 * Expand, then contract (README, "Upgrading"): during a rolling upgrade the last release's nodes run on the schema
 * this release's migrations made, so a migration since that release may only add — tables, nullable columns or
 * columns with a default, indexes, wider checks. Dropping, renaming, retyping or newly requiring a column the old
 * nodes still write breaks them; such a step ships a release later, once no node uses the thing, as a contract step:
 * the migration exports `contract`, a sentence saying which release stopped using what it removes.
 */

/** Contracting changes in a migration's source (comments left out), each named with the text that made it. */
function contractingChanges(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const rules: [string, RegExp][] = [
    ['drops a column', /\.dropColumn\(|\bDROP\s+COLUMN\b/gi],
    ['drops a table', /\.dropTable\(|\bDROP\s+TABLE\b/gi],
    ['renames', /\.renameColumn\(|\.renameTo\(|\bRENAME\b/gi],
    // Retyping to a varchar is how a column's length grows (0024 widens floor_event.kind); any other type change
    // breaks the old nodes' reads or writes.
    ['changes a column type', /\.setDataType\(|\bALTER\s+COLUMN\s+\w+\s+(SET\s+DATA\s+)?TYPE\b(?!\s+varchar\()/gi],
    ['makes an existing column required', /\.setNotNull\(|\bSET\s+NOT\s+NULL\b/gi],
  ];
  for (const [what, re] of rules) for (const m of code.matchAll(re)) found.push(`${what}: ${m[0]}`);
  // A required column added to an existing table without a default: the old nodes' inserts leave it out.
  for (const m of code.matchAll(/alterTable\(([^)]*)\)\s*\.addColumn\(/g)) {
    const args = balanced(code, m.index! + m[0].length - 1);
    if (/\.notNull\(\)/.test(args) && !/\.defaultTo\(/.test(args)) found.push(`adds a required column without a default to ${m[1]}: addColumn${args}`);
  }
  for (const m of code.matchAll(/\bADD\s+(COLUMN\s+)?[^;`]*?\bNOT\s+NULL\b[^;`]*/gi)) {
    if (!/\bDEFAULT\b/i.test(m[0]) && !/\bCONSTRAINT\b|\bCHECK\b/i.test(m[0])) found.push(`adds a required column without a default: ${m[0].trim()}`);
  }
  return found;
}

/** The text of the parenthesised group opening at `open`, parentheses included. */
function balanced(code: string, open: number): string {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')' && --depth === 0) return code.slice(open, i + 1);
  }
  return code.slice(open);
}

describe('migrations since the last release only expand', () => {
  const names = Object.keys(STEPS);

  it('the last release\'s last migration is one of ours, so the steps after it are known', () => {
    expect(names).toContain(LAST_RELEASE.lastMigration);
  });

  it('every step after it adds only, unless it says it is a contract step', () => {
    const since = names.filter((n) => n > LAST_RELEASE.lastMigration);
    const offending = since.flatMap((name) => {
      if (typeof (STEPS[name] as { contract?: unknown }).contract === 'string') return [];
      const source = readFileSync(new URL(`../src/db/migrations/${name}.ts`, import.meta.url), 'utf8');
      return contractingChanges(source).map((c) => `${name} ${c}`);
    });
    expect(offending).toEqual([]);
  });

  it('the check sees each kind of contracting change, and lets expanding ones through', () => {
    const flagged = (src: string) => contractingChanges(src).length > 0;
    expect(flagged(`await db.schema.alterTable('sku').dropColumn('upc').execute();`)).toBe(true);
    expect(flagged(`await sql\`ALTER TABLE sku DROP COLUMN upc\`.execute(db);`)).toBe(true);
    expect(flagged(`await db.schema.dropTable('sku_old').execute();`)).toBe(true);
    expect(flagged(`await db.schema.alterTable('sku').renameColumn('upc', 'gtin').execute();`)).toBe(true);
    expect(flagged(`await db.schema.alterTable('sku_next').renameTo('sku').execute();`)).toBe(true);
    expect(flagged(`await db.schema.alterTable('sku').alterColumn('upc', (c) => c.setDataType('text')).execute();`)).toBe(true);
    expect(flagged(`await sql\`ALTER TABLE sku ALTER COLUMN upc SET NOT NULL\`.execute(db);`)).toBe(true);
    expect(flagged(`await db.schema.alterTable('sku').addColumn('gtin', 'varchar(14)', (c) => c.notNull()).execute();`)).toBe(true);
    expect(flagged(`await sql\`ALTER TABLE sku ADD COLUMN gtin varchar(14) NOT NULL\`.execute(db);`)).toBe(true);

    expect(flagged(`await db.schema.alterTable('sku').addColumn('gtin', 'varchar(14)').execute();`)).toBe(false);
    expect(flagged(`await db.schema.alterTable('sku').addColumn('kind', 'varchar(8)', (c) => c.notNull().defaultTo('unit')).execute();`)).toBe(false);
    expect(flagged(`await sql\`ALTER TABLE sku ADD COLUMN kind varchar(8) NOT NULL DEFAULT 'unit'\`.execute(db);`)).toBe(false);
    expect(flagged(`await db.schema.createTable('sku_alias').addColumn('alias', 'varchar(64)', (c) => c.notNull()).execute();`)).toBe(false);
    expect(flagged(`await db.schema.createIndex('sku_gtin').on('sku').columns(['gtin']).execute(); // never DROP TABLE here`)).toBe(false);
    expect(flagged(`await sql\`ALTER TABLE sku ADD CONSTRAINT sku_kind CHECK (kind IS NOT NULL)\`.execute(db);`)).toBe(false);
  });

  it('run on an old migration, it catches the contracting step it made', () => {
    // 0010 rebuilt a table on SQLite (a rename): the kind of step that must now come as a contract step.
    const source = readFileSync(new URL('../src/db/migrations/0010_adjustment_posted.ts', import.meta.url), 'utf8');
    expect(contractingChanges(source).some((c) => c.startsWith('renames'))).toBe(true);
  });
});
