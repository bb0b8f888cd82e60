// Demo databases for the bench: a temp SQLite file, or a throw-away database on PostgreSQL. Each registers its
// removal with the cleanup list as soon as it exists.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/database.js';
import { prepareDatabase } from '../../server/src/db/prepare.js';
import { onCleanup } from './cleanup.js';
import type { Engine } from './sql-capture.js';

export interface BenchDatabase {
  engine: Engine;
  dataDir: string;
  databaseUrl?: string;
  pgSchema?: string;
}

const quiet = { info: () => undefined, warn: () => undefined };

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Is PostgreSQL there? A short connect, so an absent server costs seconds, not minutes. */
export async function pgReachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message || err.constructor.name : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function pgExec(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A database of our own on the PostgreSQL server, dropped afterwards. Not a schema in the shared database:
 * the server's migrator takes Kysely's tables in *any* schema for its own (see the bench report), so a
 * bench schema and the test suite's schemas would break each other's migrations. Where we may not create
 * databases, a schema it is.
 */
async function pgTarget(pgUrl: string): Promise<{ databaseUrl: string; pgSchema?: string }> {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  try {
    await pgExec(pgUrl, `CREATE DATABASE ${name}`);
  } catch (err) {
    if ((err as { code?: string }).code !== '42501') throw err; // 42501: insufficient_privilege
    await pgExec(pgUrl, `CREATE SCHEMA ${name}`);
    onCleanup(`drop schema ${name}`, () => pgExec(pgUrl, `DROP SCHEMA IF EXISTS ${name} CASCADE`));
    return { databaseUrl: pgUrl, pgSchema: name };
  }
  onCleanup(`drop database ${name}`, () => pgExec(pgUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return { databaseUrl: url.toString() };
}

/** Migrates and loads the demo data (admin, manager, staff, client; 3 warehouses, stock) into a new database. */
export async function prepareDemoDatabase(engine: Engine, pgUrl: string): Promise<BenchDatabase> {
  const dataDir = tempDir(`bolx-bench-${engine}-`);
  const target: BenchDatabase = engine === 'postgres' ? { engine, dataDir, ...(await pgTarget(pgUrl)) } : { engine, dataDir };
  const database = openDatabase({ databaseUrl: target.databaseUrl, dataDir, pgSchema: target.pgSchema, poolSize: 2 });
  try {
    await prepareDatabase(database, { demoData: true }, quiet);
  } finally {
    await database.close();
  }
  return target;
}
