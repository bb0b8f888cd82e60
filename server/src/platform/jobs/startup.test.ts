import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { prepareDatabase } from '../../db/prepare.js';

/** The real entry point (src/main.ts) refuses to start on a queued job this build has no handler for. SQLite file. */
const serverDir = new URL('../../..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'bolx-jobs-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('start-up with queued jobs', () => {
  it('stops with one clear line naming a queued job that has no handler', async () => {
    const database = openDatabase({ dataDir });
    await prepareDatabase(database, { demoData: false, adminPassword: 'bolx-start-admin' }, { info: () => {}, warn: () => {} });
    await database.db.insertInto('job').values({ name: 'nightly.report', payload_json: '{}' } as never).execute();
    await database.close();

    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bolx-start-admin' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toContain('BOLX-WMS failed to start: Queued jobs have no handler: nightly.report (register it, or cancel those jobs)');
  });
});
