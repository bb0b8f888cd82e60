import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { prepareDatabase } from './db/prepare.js';

/** Starts the portal: migrate, seed when empty, listen; on SIGTERM/SIGINT finish requests in flight and exit. */
async function main() {
  const started = Date.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  await prepareDatabase(app.database, { demoData: config.demoData, adminPassword: config.adminPassword }, app.log);
  await app.services.events.start();
  // Refuses to start (one line, naming them) when queued jobs have no handler in this build.
  await app.services.jobs.start();
  app.services.schedules.start();
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ engine: app.database.dialect.engine, readyMs: Date.now() - started }, `BOLX-WMS ready on ${config.publicUrl}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    void app.services.events.stop()
      .then(() => app.close())
      .then(() => process.exit(0), (err) => { app.log.error({ err }, 'shutdown failed'); process.exit(1); });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`BOLX-WMS failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
