import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openDatabase, type Database } from './database.js';
import type { DB } from './schema.js';
import { Scope } from '../platform/scope.js';
import { stockRepository } from '../platform/stock/stock.repository.js';

/** Which database a backup is taken from or restored into: the server's own settings. */
export interface BackupTarget {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL: the one schema to back up or restore (tests); otherwise the whole database, `public` restored. */
  pgSchema?: string;
  /** PostgreSQL: the folder holding pg_dump, pg_restore and psql; otherwise they are looked up on PATH. */
  pgBin?: string;
}

/** What a reconciliation found: the ledger sums to the balances, and the open reservations to the allocations. */
export interface Reconciliation {
  balanced: boolean;
  ledgerRows: number;
  balances: number;
  ledgerDifferences: number;
  reservationDifferences: number;
}

export class BackupError extends Error {}

const SQLITE_FILE = 'bolx.db';
/** Pages copied per step of SQLite's online backup: all of them, so the copy is one consistent read. */
const ALL_PAGES = 0x7fffffff;

/** The default file for a backup taken now: `DATA_DIR/backups/bolx-<UTC time>.db` (SQLite) or `.pgdump`. */
export function defaultBackupFile(target: BackupTarget, now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '-');
  return join(target.dataDir, 'backups', `bolx-${stamp}Z.${target.databaseUrl ? 'pgdump' : 'db'}`);
}

/**
 * Takes a backup while the server runs and writes go on: SQLite's online backup API (one read transaction, so
 * writers are not held up) or pg_dump's snapshot. Written beside `file` first and renamed when complete, so a
 * file by that name is always a whole backup. Answers the reconciliation of what was copied (SQLite).
 */
export async function backupDatabase(target: BackupTarget, file: string): Promise<{ file: string; bytes: number; reconciliation?: Reconciliation }> {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    if (target.databaseUrl) {
      await run(target, 'pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', partial,
        ...(target.pgSchema ? ['--schema', target.pgSchema] : [])]);
      renameSync(partial, file);
      return { file, bytes: statSync(file).size };
    }
    const source = join(target.dataDir, SQLITE_FILE);
    if (!existsSync(source)) throw new BackupError(`No database at ${source} (check DATA_DIR)`);
    const db = new SQLite(source, { fileMustExist: true });
    try {
      await db.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      db.close();
    }
    // The copy is in WAL mode like its source; a backup is better one self-contained file.
    const copy = new SQLite(partial);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    const reconciliation = await checkSqliteFile(partial);
    renameSync(partial, file);
    return { file, bytes: statSync(file).size, reconciliation };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Replaces the database with a backup, then proves it by the reconciliations. The servers must be stopped.
 * SQLite: the file is checked before anything is touched, and the database it replaces is kept beside it as
 * `bolx.db.before-restore-<time>`. PostgreSQL: the schema is emptied and refilled in one transaction, so a
 * failing restore leaves the database as it was.
 */
export async function restoreDatabase(target: BackupTarget, file: string, opts: { force?: boolean } = {}): Promise<Reconciliation> {
  if (!existsSync(file)) throw new BackupError(`No backup file at ${file}`);
  if (target.databaseUrl) {
    await restorePostgres(target, file);
  } else {
    const reconciliation = await checkSqliteFile(file);
    if (!reconciliation.balanced) throw new BackupError(`${file} does not reconcile (${summary(reconciliation)}); nothing was restored`);
    mkdirSync(target.dataDir, { recursive: true });
    const dest = join(target.dataDir, SQLITE_FILE);
    // The server deletes its write-ahead log when it closes the database cleanly; one still there means the
    // server runs (restoring under it would lose the restore or corrupt the file) or stopped uncleanly.
    if (existsSync(`${dest}-wal`) && !opts.force) {
      throw new BackupError(`${dest}-wal exists: stop the server first (after an unclean stop, start and stop it once, or restore with --force)`);
    }
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(dest + suffix)) renameSync(dest + suffix, `${dest}.before-restore-${stamp}Z${suffix}`);
    }
    copyFileSync(file, `${dest}.restoring`);
    renameSync(`${dest}.restoring`, dest);
  }
  const database = openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, pgSchema: target.pgSchema, poolSize: 2 });
  try {
    return await reconcile(database);
  } finally {
    await database.close();
  }
}

/** The ledger and reservation reconciliations over every warehouse and client. */
export async function reconcile(database: Pick<Database, 'db'>): Promise<Reconciliation> {
  const all = { warehouseId: 0, customerId: 0 };
  const { differences, checked } = await stockRepository.reconcile(database.db, Scope.everything, all);
  const reserved = await stockRepository.reconcileReservations(database.db, Scope.everything, all);
  const ledger = await database.db.selectFrom('inventory_txn').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return {
    balanced: differences.length === 0 && reserved.length === 0,
    ledgerRows: Number(ledger.n),
    balances: checked,
    ledgerDifferences: differences.length,
    reservationDifferences: reserved.length,
  };
}

export function summary(r: Reconciliation): string {
  return r.balanced
    ? `${r.ledgerRows} ledger rows reconcile with ${r.balances} balances and their reservations`
    : `${r.ledgerDifferences} balances differ from the ledger, ${r.reservationDifferences} allocations from their reservations`;
}

/** A SQLite file that is whole (SQLite's quick check) and reconciles, read without changing it; refused with one line otherwise. */
async function checkSqliteFile(file: string): Promise<Reconciliation> {
  let raw: SQLite.Database;
  try {
    raw = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`${file} is not a BOLX-WMS SQLite backup: ${(err as Error).message}`);
  }
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    const check = raw.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${file} is damaged: ${String(check)}`);
    return await reconcile({ db });
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} is not a BOLX-WMS SQLite backup: ${(err as Error).message}`);
  } finally {
    await db.destroy();
  }
}

async function restorePostgres(target: BackupTarget, file: string): Promise<void> {
  const schema = target.pgSchema ?? 'public';
  // The archive is read first: a file that is not one stops here, before anything is dropped.
  const toc = await run(target, 'pg_restore', ['--list', file], { noDatabase: true });
  // A dump of one schema creates it; a whole database's dump expects `public` to be there.
  const createsSchema = toc.includes(` SCHEMA - ${schema} `);
  const ident = `"${schema.replaceAll('"', '""')}"`;
  const prologue = `DROP SCHEMA IF EXISTS ${ident} CASCADE;\n${createsSchema ? '' : `CREATE SCHEMA ${ident};\n`}`;
  // pg_restore writes the SQL; psql runs it after the prologue, all in one transaction, stopping at the first error.
  const script = spawnTool(target, 'pg_restore', ['--no-owner', '--no-privileges', '--file', '-', file], { noDatabase: true });
  const [applied, written] = await Promise.allSettled([
    run(target, 'psql', ['--quiet', '--no-psqlrc', '--set', 'ON_ERROR_STOP=1', '--single-transaction', '--file', '-'], {
      stdin: (stdin) => {
        stdin.write(prologue);
        script.child.stdout!.pipe(stdin);
      },
    }),
    script.done,
  ]);
  // psql's error says why; pg_restore's is mostly that psql stopped reading.
  if (applied.status === 'rejected') throw applied.reason;
  if (written.status === 'rejected') throw written.reason;
}

interface ToolOptions {
  /** pg_restore reading or converting a file: no connection. */
  noDatabase?: boolean;
  stdin?: (stdin: NodeJS.WritableStream) => void;
}

/** Runs a PostgreSQL client tool against the target; answers its output, or throws one line with its error. */
async function run(target: BackupTarget, tool: string, args: string[], opts: ToolOptions = {}): Promise<string> {
  const { child, done } = spawnTool(target, tool, args, opts);
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  if (opts.stdin) opts.stdin(child.stdin!); else child.stdin?.end();
  await done;
  return out;
}

function spawnTool(target: BackupTarget, tool: string, args: string[], opts: ToolOptions) {
  const command = target.pgBin ? join(target.pgBin, tool) : tool;
  const { dbname, password } = connectionFor(target.databaseUrl!);
  // The password goes in the environment, not the arguments (which other users of the machine can list).
  const child = spawn(command, opts.noDatabase ? args : [...args, '--dbname', dbname], {
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT'
      ? new BackupError(`${tool} was not found${target.pgBin ? ` in ${target.pgBin}` : ' on PATH'}: install the PostgreSQL client tools `
        + '(Debian: apt install postgresql-client; the same major version as the server or newer), or set PG_BIN to their folder')
      : e));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed: ${err.trim().split('\n').slice(-3).join(' ') || `exit ${code}`}`))));
  });
  return { child, done };
}

/** The connection string without its password, and the password apart. */
function connectionFor(databaseUrl: string): { dbname: string; password: string } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), password };
}
