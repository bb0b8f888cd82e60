import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, as, buildTestApp, login, makeUser, recordEvents, type TestApp } from './helpers.js';
import { loadConfig, ConfigError } from '../src/config.js';
import Fastify from 'fastify';
import { inTransaction } from '../src/platform/unit-of-work.js';
import { accessPlugin, callerOf } from '../src/plugins/access.js';
import { errorHandlerPlugin } from '../src/plugins/error-handler.js';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t?.close(); });

describe('route table', () => {
  it('every route declares an access policy, and every API route a schema with a response', () => {
    const missing: string[] = [];
    for (const r of t.app.routeTable) {
      const config = (r.config ?? {}) as { policy?: unknown; servesFiles?: boolean };
      const name = `${String(r.method)} ${r.url}`;
      if (!config.policy) missing.push(`${name}: no policy`);
      if (!config.servesFiles && !(r.schema as { response?: unknown } | undefined)?.response) missing.push(`${name}: no response schema`);
    }
    expect(missing).toEqual([]);
    expect(t.app.routeTable.length).toBeGreaterThan(15);
  });

  it('fails closed on a route without a policy', async () => {
    const bare = Fastify({ logger: false });
    await bare.register(errorHandlerPlugin);
    await bare.register(accessPlugin, { resolve: async () => null });
    bare.get('/forgot-to-declare', async () => ({ secret: 'data' }));
    const res = await bare.inject({ method: 'GET', url: '/forgot-to-declare' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This route has no access policy');
    await bare.close();
  });

  it('fails closed on a deferSession route whose handler never checks its caller', async () => {
    const bare = Fastify({ logger: false });
    await bare.register(errorHandlerPlugin);
    const refused = async () => ({ principal: async () => null });
    await bare.register(accessPlugin, { resolve: async () => null, deferred: { claims: async () => ({ userId: 1, sessionId: 's' }), sendCheck: refused } });
    bare.post('/forgot-to-check', { config: { policy: { access: 'authenticated', scope: 'none', deferSession: true } } }, async () => ({ done: true }));
    bare.post('/checks', { config: { policy: { access: 'authenticated', scope: 'none', deferSession: true } } }, async (req) => {
      await (await callerOf(req).check(t.database.db)).principal();
      return { done: true };
    });
    const headers = { authorization: 'Bearer any' };
    const unchecked = await bare.inject({ method: 'POST', url: '/forgot-to-check', headers, payload: {} });
    expect(unchecked.statusCode).toBe(500);
    expect(unchecked.body).not.toMatch(/done/);
    expect((await bare.inject({ method: 'POST', url: '/checks', headers, payload: {} })).statusCode).toBe(401);
    await bare.close();
  });

  it('routes case-insensitively', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    for (const url of ['/common/usermodule/getallUserApps', '/COMMON/USERMODULE/GETALLUSERAPPS', '/Common/UserModule/GetAllUserApps']) {
      expect((await as(t.app, s).get(url)).statusCode).toBe(200);
    }
  });
});

describe('errors', () => {
  it('answers the API_ERROR shape with a request id, never a stack or SQL', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/Common/Auth/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(bad.statusCode).toBe(400);
    const body = bad.json();
    expect(body).toMatchObject({ status: 400, requestId: bad.headers['x-request-id'] });
    expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+|SELECT|INSERT/i);
    const unknown = await t.app.inject({ method: 'GET', url: '/Warehouse/Nope/Nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('keeps a caller’s valid x-request-id and makes one otherwise', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers['x-request-id']).toBe('trace-123');
    const odd = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id with spaces\n' } });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps a unique-key clash to 409 without the driver text', async () => {
    const a = await makeUser(t.database, { role: 'WarehouseStaff' });
    const b = await makeUser(t.database, { role: 'WarehouseStaff' });
    const res = await as(t.app, await login(t.app, a.username, a.password))
      .put('/Common/Auth/Profile', { firstName: 'a', lastName: 'b', email: `${b.username}@example.com`, timezone: 'UTC' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A record with the same key already exists');
  });
});

describe('idempotency', () => {
  it('a replay answers the first result and changes nothing; another body with the same key is refused', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    const key = { 'idempotency-key': 'profile-update-0001' };
    const body = { firstName: 'Once', lastName: 'Only', email: `${u.username}@example.com`, timezone: 'UTC' };
    const first = await as(t.app, s).put('/Common/Auth/Profile', body, key);
    expect(first.statusCode).toBe(200);
    await t.database.db.updateTable('app_user').set({ first_name: 'Changed since' }).where('id', '=', u.id).execute();
    const replay = await as(t.app, s).put('/Common/Auth/Profile', body, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect(replay.headers['idempotent-replay']).toBe('true');
    const row = await t.database.db.selectFrom('app_user').select('first_name').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Changed since');
    const audits = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'profile').where('entity_id', '=', String(u.id)).execute();
    expect(audits).toHaveLength(1);
    const other = await as(t.app, s).put('/Common/Auth/Profile', { ...body, firstName: 'Twice' }, key);
    expect(other.statusCode).toBe(422);
  });

  it('keys are per user', async () => {
    const a = await makeUser(t.database, { role: 'WarehouseStaff' });
    const b = await makeUser(t.database, { role: 'WarehouseStaff' });
    const key = { 'idempotency-key': 'shared-key-0001' };
    const ra = await as(t.app, await login(t.app, a.username, a.password)).put('/Common/Auth/Profile', { firstName: 'A', lastName: 'A', email: `${a.username}@example.com`, timezone: 'UTC' }, key);
    const rb = await as(t.app, await login(t.app, b.username, b.password)).put('/Common/Auth/Profile', { firstName: 'B', lastName: 'B', email: `${b.username}@example.com`, timezone: 'UTC' }, key);
    expect(ra.json().data.firstName).toBe('A');
    expect(rb.json().data.firstName).toBe('B');
  });

  it('refuses a malformed key', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const res = await as(t.app, s).put('/Common/UserModule/SetDefaultApp?appId=1', {}, { 'idempotency-key': 'x' });
    expect(res.statusCode).toBe(400);
  });
});

describe('audit log', () => {
  it('administrators list and filter it; others are refused', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    await as(t.app, s).put('/Common/UserModule/SetDefaultApp?appId=2');
    const res = await as(t.app, s).post('/Common/Audit/GetAuditLogs', { filters: { action: 'set_default_app' }, pageNumber: 1, pageSize: 10 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalCount).toBeGreaterThanOrEqual(1);
    expect(body.items[0]).toMatchObject({ action: 'set_default_app', entity: 'user', username: 'admin', after: { appId: 2 } });
    expect(body.items[0].requestId).toBeTruthy();
    const page = await as(t.app, s).post('/Common/Audit/GetAuditLogs', { pageNumber: 1, pageSize: 2 });
    expect(page.json().items).toHaveLength(2);
    // The list's one shape (listRows): a sort by a named column, the search box over user name and record id.
    const oldestFirst = (await as(t.app, s).post('/Common/Audit/GetAuditLogs', { pageNumber: 1, pageSize: 50, sort: { field: 'at', order: 'ascend' } })).json().items as { at: string }[];
    expect(oldestFirst.map((r) => r.at)).toEqual([...oldestFirst.map((r) => r.at)].sort());
    const searched = (await as(t.app, s).post('/Common/Audit/GetAuditLogs', { searchQuery: 'ADMIN', pageNumber: 1, pageSize: 50 })).json();
    expect(searched.totalCount).toBeGreaterThanOrEqual(1);
    expect(searched.items.every((r: { username: string | null; entityId: string | null }) => /admin/i.test(`${r.username} ${r.entityId}`))).toBe(true);
    const u = await makeUser(t.database, { role: 'WarehouseManager' });
    const refused = await as(t.app, await login(t.app, u.username, u.password)).post('/Common/Audit/GetAuditLogs', {});
    expect(refused.statusCode).toBe(403);
  });

  it('never records secrets', async () => {
    const rows = await t.database.db.selectFrom('audit_log').select(['before_json', 'after_json']).execute();
    const text = JSON.stringify(rows);
    expect(text).not.toContain(ADMIN.password);
  });

  it('the mail outbox is readable by administrators', async () => {
    await t.app.inject({ method: 'POST', url: '/Common/ForgotPassword/SendResetLink', payload: { emailOrUsername: 'admin' } });
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const res = await as(t.app, s).post('/Common/Mail/GetOutbox', { pageNumber: 1, pageSize: 5 });
    expect(res.json().items[0]).toMatchObject({ to: 'admin@localhost', subject: 'Reset your BOLX-WMS password', sentAt: null });
    const none = await as(t.app, s).post('/Common/Mail/GetOutbox', { searchQuery: 'no such subject', pageNumber: 1, pageSize: 5 });
    expect(none.json()).toEqual({ items: [], totalCount: 0 });
  });
});

describe('outbox events', () => {
  it('are delivered after commit, and never for a rolled-back change', async () => {
    const events = await recordEvents(t.app);
    {
      await expect(inTransaction(t.database.db, async ({ tx, afterCommit }) => {
        await t.app.services.events.record(tx, { target: 'ReceiveWareHousedata', payload: { subEvent: 'AddWarehouse', payload: { n: 'rolled-back' } } }, afterCommit);
        throw new Error('boom');
      })).rejects.toThrow('boom');
      await inTransaction(t.database.db, async ({ tx, afterCommit }) => {
        await t.app.services.events.record(tx, { target: 'ReceiveWareHousedata', payload: { subEvent: 'AddWarehouse', payload: { n: 'committed' } }, warehouseId: 1 }, afterCommit);
      });
      const seen = await events.until(2, 1000); // waits for a second event that must never come
      expect(seen.map((e) => (e.payload as { payload: { n: string } }).payload.n)).toEqual(['committed']);
      expect(seen[0]).toMatchObject({ target: 'ReceiveWareHousedata', warehouseId: 1 });
      const rows = await t.database.db.selectFrom('event_outbox').select('payload_json').execute();
      expect(rows.map((r) => JSON.parse(r.payload_json).payload.n)).toEqual(['committed']);
    }
  });

  it('are delivered in commit order, even when many commit at once', async () => {
    const events = await recordEvents(t.app);
    const count = 60;
    for (let n = 0; n < count; n++) {
      await inTransaction(t.database.db, async ({ tx, afterCommit }) => {
        await t.app.services.events.record(tx, { target: 'ReceiveWareHousedata', payload: { subEvent: 'UpdateWarehouse', payload: { n } } }, afterCommit);
      });
    }
    const seen = await events.until(count, 10_000);
    expect(seen.map((e) => (e.payload as { payload: { n: number } }).payload.n)).toEqual([...Array(count).keys()]);
  });

  it('never reach an app on another database or schema (ids are per schema)', async () => {
    const other = await buildTestApp();
    try {
      const record = (app: TestApp, n: string) => inTransaction(app.database.db, async ({ tx, afterCommit }) => {
        await app.app.services.events.record(tx, { target: 'ReceiveWareHousedata', payload: { subEvent: 'AddWarehouse', payload: { n } } }, afterCommit);
      });
      const delivered = await recordEvents(t.app);
      await record(t, 'here');
      await delivered.until(1);
      // The other schema's outbox ids run up to this one's, so a misrouted id would load a row here.
      const { id: lastHere } = await t.database.db.selectFrom('event_outbox').select(({ fn }) => fn.max('id').as('id')).executeTakeFirstOrThrow();
      const heardHere = await recordEvents(t.app);
      for (let n = 0; n < Number(lastHere); n++) await record(other, 'elsewhere');
      expect(await heardHere.until(1, 1000)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('operations', () => {
  it('/health, /ready, the metrics and the OpenAPI document answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({ status: 'ready' });
    expect(await t.app.services.health.metrics()).toContain('bolx_http_request_duration_seconds'); // over HTTP: metrics.test.ts
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/Common/Auth/login', '/Common/UserModule/GetWarehouseClient', '/Common/ForgotPassword/Restpassword']));
    expect(doc.paths['/Common/Auth/login'].post.requestBody).toBeDefined();
  });

  it('a draining node fails /ready (a load balancer stops sending it requests) and still answers the rest', async () => {
    const other = await buildTestApp();
    try {
      other.app.services.health.startDraining();
      const ready = await other.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'draining' });
      expect((await other.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      await login(other.app, ADMIN.username, ADMIN.password);
    } finally {
      await other.close();
    }
  });
});

describe('configuration', () => {
  it('names the variable in one clear line on a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration: PORT /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD must be at least 8/);
    expect(() => loadConfig({ JOB_LOCK_MS: '10' })).toThrow(/^Invalid configuration: JOB_LOCK_MS /);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/^Invalid configuration: SHUTDOWN_DRAIN_MS /);
    // Report files are found through their finished job, which housekeeping keeps 30 days.
    expect(() => loadConfig({ REPORT_FILE_RETENTION_DAYS: '31' })).toThrow(/^Invalid configuration: REPORT_FILE_RETENTION_DAYS must be at most 30/);
  });

  it('defaults, and keeps a generated token secret in DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolx-cfg-'));
    const a = loadConfig({ DATA_DIR: dir });
    expect(a).toMatchObject({ port: 8080, databaseUrl: undefined, demoData: false, logLevel: 'info', jobLockMs: 60_000, shutdownDrainMs: 0, reportFileRetentionDays: 7 });
    const b = loadConfig({ DATA_DIR: dir, DEMO_DATA: '1' });
    expect(Buffer.from(b.tokenSecret).equals(Buffer.from(a.tokenSecret))).toBe(true);
    expect(b.demoData).toBe(true);
    expect(statSync(join(dir, 'token-secret')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'token-secret'), 'utf8').length).toBeGreaterThanOrEqual(48);
  });
});

describe('first start without demo data', () => {
  it('has exactly one Super Administrator, admin', async () => {
    const users = await t.database.db.selectFrom('app_user').select(['username', 'role']).execute();
    expect(users.filter((u) => u.role === 'SuperAdministrator')).toEqual([{ username: 'admin', role: 'SuperAdministrator' }]);
  });
});
