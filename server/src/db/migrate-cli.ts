import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';
import { prepareDatabase } from './prepare.js';

/** `npm run db:migrate`: migrations and reference data, without starting the server. */
// Migrating signs nothing: no token secret is needed (nor generated).
const config = loadConfig(process.env, { tokenSecret: new Uint8Array(0) });
const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const log = { info: (o: unknown, m?: string) => console.log(m ?? '', typeof o === 'string' ? o : JSON.stringify(o)), warn: console.warn };
prepareDatabase(database, { demoData: config.demoData, adminPassword: config.adminPassword }, log as never)
  .then(() => database.close())
  .then(() => console.log('database is up to date'), (err) => { console.error(`migration failed: ${err.message}`); process.exit(1); });
