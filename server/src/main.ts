import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { prepareDatabase } from './db/prepare.js';
import { listenForMetrics } from './modules/health/metrics-listener.js';

/**
 * Starts the portal: migrate, seed when empty, listen. On SIGTERM/SIGINT it leaves a load balancer's rotation first
 * (/ready fails for SHUTDOWN_DRAIN_MS while requests are still served), then ends its hub connections (their clients
 * reconnect, through the balancer to another node), stops listening, finishes requests and jobs in flight, and exits.
 */
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
  await prepareDatabase(app.database, { demoData: config.demoData, adminPassword: config.adminPassword, services: app.services }, app.log);
  await app.services.events.start();
  // Refuses to start (one line, naming them) when queued jobs have no handler in this build.
  await app.services.jobs.start({ lockMs: config.jobLockMs });
  app.services.schedules.start();
  await app.listen({ port: config.port, host: config.host });
  const metricsServer = config.metricsPort ? await listenForMetrics(app.services.health, config.metricsPort, config.host) : undefined;
  app.log.info({ engine: app.database.dialect.engine, readyMs: Date.now() - started }, `BOLX-WMS ready on ${config.publicUrl}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: draining, then finishing requests in flight');
    const force = setTimeout(() => process.exit(1), config.shutdownDrainMs + 15_000);
    force.unref();
    app.services.health.startDraining();
    void new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs))
      .then(() => { metricsServer?.close(); return app.hub.stop(); })
      .then(() => app.services.events.stop())
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
