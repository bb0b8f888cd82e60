import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './database.js';
import { migrateToLatest } from './migrate.js';
import { syncReferenceData } from './seed/base.js';
import { seedDemoData } from './seed/demo.js';
import { insertUser } from './seed/users.js';
import { randomPassword } from '../platform/secrets.js';
import { ChangeRecorder } from '../platform/change-recorder.js';
import { EventBus } from '../platform/events.js';
import { WarehouseTimeZones } from '../platform/business-day.js';
import { StockEngine } from '../platform/stock/stock-engine.js';

export interface PrepareOptions {
  demoData: boolean;
  adminPassword?: string;
}

/**
 * Brings a database to a usable state: migrations, reference data, then — only when it has no users — either
 * demo data or the one Super Administrator `admin` (with ADMIN_PASSWORD, or a random password printed once).
 */
export async function prepareDatabase(database: Database, opts: PrepareOptions, log: Pick<FastifyBaseLogger, 'info' | 'warn'>): Promise<void> {
  const applied = await migrateToLatest(database.db, database.dialect, database.pgSchema);
  if (applied.length) log.info({ migrations: applied }, 'database migrated');
  await syncReferenceData(database.db);
  const anyUser = await database.db.selectFrom('app_user').select('id').limit(1).executeTakeFirst();
  if (anyUser) return;
  if (opts.demoData) {
    // The demo's stock is posted through the stock engine, as every other posting is.
    const stock = new StockEngine({
      db: database.db, dialect: database.dialect, recorder: new ChangeRecorder(new EventBus(database)), timeZones: new WarehouseTimeZones(database.db),
    });
    await seedDemoData(database.db, stock);
    log.info('demo data loaded: sign in as admin / bolx-demo-admin (see README for the other accounts)');
    return;
  }
  const password = opts.adminPassword ?? randomPassword();
  await database.db.transaction().execute((tx) => insertUser(tx, {
    username: 'admin', password, email: 'admin@localhost', firstName: 'System', lastName: 'Administrator',
    role: 'SuperAdministrator', modules: { WMS: 'write', FREIGHT: 'write', SERVICE: 'write' },
  }));
  if (!opts.adminPassword) {
    // Printed once, to the console only: it is not stored anywhere in clear.
    process.stdout.write(`\nBOLX-WMS: created Super Administrator "admin" with password: ${password}\n\n`);
  }
}
