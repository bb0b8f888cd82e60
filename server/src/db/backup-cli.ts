import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { BackupError, backupDatabase, defaultBackupFile, restoreDatabase, summary, type BackupTarget } from './backup.js';

/**
 * `npm run backup [FILE]` and `npm run restore FILE [--force]`, with the server's own settings (DATABASE_URL,
 * DATA_DIR; PG_BIN for the PostgreSQL client tools' folder). Exits 0 only when the database reconciles.
 */
const [command, ...rest] = process.argv.slice(2);
const force = rest.includes('--force');
const fileArg = rest.find((a) => !a.startsWith('--'));
// npm runs scripts from the package's folder; a file named on the command line is where the user typed it.
const here = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

async function main(): Promise<number> {
  // A backup signs nothing: no token secret is needed (nor generated).
  const config = loadConfig(process.env, { tokenSecret: new Uint8Array(0) });
  const target: BackupTarget = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgBin: process.env.PG_BIN || undefined };
  if (command === 'backup') {
    const { file, bytes, reconciliation } = await backupDatabase(target, fileArg ? here(fileArg) : defaultBackupFile(target));
    console.log(`backup written: ${file} (${(bytes / 1048576).toFixed(1)} MB)${reconciliation ? `; ${summary(reconciliation)}` : ''}`);
    return reconciliation && !reconciliation.balanced ? 1 : 0;
  }
  if (command === 'restore' && fileArg) {
    const reconciliation = await restoreDatabase(target, here(fileArg), { force });
    console.log(`restored ${here(fileArg)}: ${summary(reconciliation)}`);
    return reconciliation.balanced ? 0 : 1;
  }
  console.error('usage: npm run backup [FILE]  |  npm run restore FILE [--force]');
  return 2;
}

main().then((code) => process.exit(code), (err) => {
  console.error(err instanceof BackupError || err instanceof Error ? `${command} failed: ${err.message}` : err);
  process.exit(1);
});
