// Child process: the real BOLX-WMS app as main.ts starts it (same plugins, logger, metrics), on the database
// the bench prepared. Only the listening address and the PostgreSQL schema differ.
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/database.js';
import { announceReady, metricsTokenOf, readChildConfig } from './child.js';

const cfg = readChildConfig();
const config = loadConfig({ LOG_LEVEL: cfg.logLevel }, {
  dataDir: cfg.dataDir,
  databaseUrl: cfg.databaseUrl,
  tokenSecret: Buffer.from(cfg.tokenSecretHex, 'hex'),
  host: '127.0.0.1',
  port: 0,
  dbPoolSize: cfg.poolSize,
  metricsToken: metricsTokenOf(cfg.tokenSecretHex),
});
const database = openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, pgSchema: cfg.pgSchema, poolSize: cfg.poolSize });
const app = await buildApp(config, { database });
await app.services.events.start();
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('app: no TCP address');

announceReady(address.port, async () => {
  await app.services.events.stop();
  await app.close();
  await database.close();
});
