// The shared start of a capture child (inventory-capture, masterdata-capture): the real app built in-process
// on the bench database named in the child config, and a JSON POST through it that must answer 200.
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/database.js';
import { readChildConfig } from './child.js';

export async function openCaptureApp(name: string) {
  const cfg = readChildConfig();
  const { capturedFile } = cfg;
  if (!capturedFile) throw new Error(`${name}: no capturedFile in the child config`);
  const config = loadConfig({ LOG_LEVEL: 'silent' }, {
    dataDir: cfg.dataDir, databaseUrl: cfg.databaseUrl, tokenSecret: Buffer.from(cfg.tokenSecretHex, 'hex'), host: '127.0.0.1', port: 0, dbPoolSize: cfg.poolSize,
  });
  const database = openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, pgSchema: cfg.pgSchema, poolSize: cfg.poolSize });
  const app = await buildApp(config, { database, logger: false });
  await app.ready();

  async function inject(path: string, body: unknown, token?: string, headers: Record<string, string> = {}) {
    const res = await app.inject({
      method: 'POST', url: path, payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
    if (res.statusCode !== 200) throw new Error(`${name}: ${path} answered ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, unknown>;
  }

  return { capturedFile, app, database, db: database.db, inject };
}
