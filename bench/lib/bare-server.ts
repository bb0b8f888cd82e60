// Child process: the raw baseline. A plain node:http server doing, per request, what the app does for the two
// benchmarked routes — the same statements (compiled from the server's repositories), the same driver, jose
// for the JWT and @node-rs/argon2 for the password — with no framework, validation, hooks or logging. For the
// inventory and master-data cases it replays, per request, the statements the app sent for that same request
// (captured by inventory-capture.ts and masterdata-capture.ts; see trace.ts).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ROLE_LABELS, roleSchema } from '@bolx/contracts';
import { newOpaqueToken, sha256, verifyPassword } from '../../server/src/platform/secrets.js';
import { AccessTokens } from '../../server/src/platform/tokens.js';
import { AUTH_RULES } from '../../server/src/modules/auth/auth.service.js';
import { occupancyPercent } from '../../server/src/modules/locations/occupancy.js';
import { announceReady, readChildConfig } from './child.js';
import { openRawDb, type RawDb } from './raw-db.js';
import { claimSlots, loginStatements, readStatements, type LoginStatements, type ReadStatements } from './statements.js';
import { replayer, traceKey, type CapturedRequests } from './trace.js';
import type { Slots, SqlTemplate } from './sql-capture.js';

const cfg = readChildConfig();
const db = openRawDb(cfg);
const tokens = new AccessTokens(Buffer.from(cfg.tokenSecretHex, 'hex'));
const L = await loginStatements(cfg.engine);
const R = await readStatements(cfg.engine);
const replays = new Map<string, (raw: RawDb) => Promise<void>>();
for (const file of cfg.replayFiles ?? []) {
  const captured = JSON.parse(readFileSync(file, 'utf8')) as Pick<CapturedRequests, 'traces'>;
  for (const [key, trace] of Object.entries(captured.traces)) replays.set(key, replayer(trace));
}

interface UserRow { id: number; username: string; password_hash: string; role: string; is_active: number; default_app_id: number | null }
interface SessionUser { id: number; username: string; role: string; customer_id: number | null }
interface AccessRow { kind: 'w' | 'c' | 'm'; id: number }
interface WarehouseRow { id: number; code: string; name: string; city: string | null; timezone: string; capacity: number; used: number; total: number }
interface CustomerRow { id: number; name: string; warehouse_id: number }

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/** AttemptThrottle.claimOne: the claim, and while the key is full but not blocked, the same waits and retries. */
async function claim(raw: RawDb, statement: SqlTemplate, stmts: LoginStatements, slot: Slots, key: string): Promise<boolean> {
  const deadline = Date.now() + AUTH_RULES.throttleWaitMs;
  for (let pause = 25; ; pause = Math.min(pause * 2, 400)) {
    if ((await raw.all(statement, { ...slot, ...claimSlots() })).length) return true;
    const [row] = await raw.all<{ blocked_until: string | null }>(stmts.getThrottleKey, { key });
    if ((row?.blocked_until && Date.parse(row.blocked_until) > Date.now()) || Date.now() + pause > deadline) return false;
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** AuthService.login, successful path (the bench sends rememberMe false). */
async function login(req: IncomingMessage, res: ServerResponse, stmts: LoginStatements, raw: RawDb): Promise<void> {
  const body = await readJson(req);
  const username = String(body.username ?? '').trim();
  const password = String(body.password ?? '');
  const ip = req.socket.remoteAddress ?? null;
  const acct = `acct:${username.toLowerCase()}`;
  const addr = `ip:${ip ?? 'unknown'}`;
  // Counted before the password is checked, as AttemptThrottle.claim does: a full key is waited for.
  if (!(await claim(raw, stmts.claimAccount, stmts, { acct }, acct)) || !(await claim(raw, stmts.claimAddress, stmts, { addr }, addr))) {
    return send(res, 429, { status: 429, message: 'Too many attempts' });
  }
  const [user] = await raw.all<UserRow>(stmts.findUserByLogin, { login: username.toLowerCase() });
  if (!user || !(await verifyPassword(user.password_hash, password)) || user.is_active !== 1) {
    return send(res, 401, { status: 401, message: 'Invalid username or password' });
  }
  const role = roleSchema.parse(user.role);
  const refreshToken = newOpaqueToken();
  const sid = randomUUID();
  const expires = new Date(Date.now() + AUTH_RULES.sessionHours * 36e5).toISOString();
  const appName = await raw.transaction(async (tx) => {
    const v = { acct, addr, sid, uid: user.id, expires, ip, ua: req.headers['user-agent']?.slice(0, 255) ?? null, rthash: sha256(refreshToken), uname: user.username, rid: randomUUID() };
    await tx.run(stmts.clearThrottle, v);
    await tx.run(stmts.refundAddress, v);
    await tx.run(stmts.createSession, v);
    await tx.run(stmts.insertRefreshToken, v);
    await tx.run(stmts.writeAudit, v);
    if (user.default_app_id == null) return null;
    const [app] = await tx.all<{ name: string }>(stmts.appName, { appid: user.default_app_id });
    return app?.name ?? null;
  });
  send(res, 200, {
    accesstoken: await tokens.sign({ userId: user.id, sessionId: sid }),
    refreshtoken: refreshToken, username: user.username, usertype: ROLE_LABELS[role], userid: user.id, appName,
  });
}

/** AuthService.principalFromToken + UserModuleService.getWarehouseClient. */
async function warehouseClient(req: IncomingMessage, res: ServerResponse, stmts: ReadStatements, raw: RawDb): Promise<void> {
  const header = req.headers.authorization;
  const claims = header?.startsWith('Bearer ') ? await tokens.verify(header.slice(7).trim()) : null;
  if (!claims) return send(res, 401, { status: 401, message: 'Authentication required' });
  const [user] = await raw.all<SessionUser>(stmts.findActiveSessionUser, { sid: claims.sessionId, uid: claims.userId });
  if (!user) return send(res, 401, { status: 401, message: 'Session expired or invalid token' });
  let warehouses: number[] | 'all' = 'all';
  let customers: number[] | 'all' = 'all';
  if (user.role !== 'SuperAdministrator') {
    const client = user.role === 'Client' ? user.customer_id : null;
    const rows = await raw.all<AccessRow>(client == null ? stmts.accessRows : stmts.accessRowsClient, { uid: user.id, client });
    warehouses = rows.filter((r) => r.kind === 'w').map((r) => Number(r.id));
    customers = client != null ? [client] : rows.filter((r) => r.kind === 'c').map((r) => Number(r.id));
  }
  const scoped = await stmts.forScope(warehouses, customers);
  const [ws, cs] = await Promise.all([raw.all<WarehouseRow>(scoped.warehouses, {}), raw.all<CustomerRow>(scoped.customers, {})]);
  send(res, 200, {
    warehouseData: ws.map((w) => ({
      uniqueid: w.id, warehouseId: w.id, warehouseName: w.name, warehouseCode: w.code, city: w.city, timeZone: w.timezone,
      capacity: w.capacity, usedLocations: Number(w.used), totalLocations: Number(w.total),
      occupancy: occupancyPercent(Number(w.used), Number(w.total)),
    })),
    customerData: cs.map((c) => ({ customerId: c.id, customerName: c.name, warehouseId: c.warehouse_id })),
  });
}

/** A captured request: the JWT checked as the app checks it, then the app's statements for it, replayed. */
async function replay(req: IncomingMessage, res: ServerResponse, raw: RawDb): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const run = replays.get(traceKey(req.method ?? '', req.url ?? '', Buffer.concat(chunks).toString('utf8')));
  if (!run) return send(res, 404, { status: 404, message: 'Not a captured request' });
  const header = req.headers.authorization;
  const claims = header?.startsWith('Bearer ') ? await tokens.verify(header.slice(7).trim()) : null;
  if (!claims) return send(res, 401, { status: 401, message: 'Authentication required' });
  await run(raw);
  send(res, 200, { message: 'ok' });
}

const server = createServer((req, res) => {
  const path = (req.url ?? '').split('?')[0].toLowerCase();
  const handled = req.method === 'POST' && path.startsWith('/warehouse/') ? replay(req, res, db)
    : req.method === 'POST' && path === '/common/auth/login' ? login(req, res, L, db)
    : req.method === 'GET' && path === '/common/usermodule/getwarehouseclient' ? warehouseClient(req, res, R, db)
      : req.method === 'GET' && path === '/health' ? Promise.resolve(send(res, 200, { status: 'ok' }))
        : Promise.resolve(send(res, 404, { status: 404, message: 'Not found' }));
  handled.catch((err: unknown) => {
    process.stderr.write(`bare: ${err instanceof Error ? err.stack : String(err)}\n`);
    if (!res.headersSent) send(res, 500, { status: 500, message: 'Internal error' });
  });
});
server.keepAliveTimeout = 65_000; // autocannon keeps its connections open; don't cut them mid-run
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('bare: no TCP address');
  announceReady(address.port, async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await db.close();
  });
});
