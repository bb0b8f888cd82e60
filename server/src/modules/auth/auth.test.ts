import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from '../../../test/helpers.js';
import { AUTH_RULES, RESET_LINK_SENT } from './auth.service.js';

let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t?.close(); });

const post = (url: string, payload: unknown, remoteAddress = '10.0.0.1') => t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress });
const lastMail = async (to: string) =>
  t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow();

describe('login', () => {
  it('answers the spec fields for a username or an e-mail, with a 15-minute JWT', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff', defaultAppId: 1 });
    for (const name of [u.username, `${u.username}@example.com`, u.username.toUpperCase()]) {
      const res = await post('/Common/Auth/login', { username: name, password: u.password, rememberMe: true });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['accesstoken', 'appName', 'refreshtoken', 'userid', 'username', 'usertype']);
      expect(body).toMatchObject({ username: u.username, usertype: 'Warehouse Staff', userid: u.id, appName: 'Warehouse Management' });
      const claims = JSON.parse(Buffer.from(body.accesstoken.split('.')[1], 'base64url').toString());
      expect(claims.exp - claims.iat).toBe(15 * 60);
    }
  });

  it('stores argon2id hashes, never the password', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const row = await t.database.db.selectFrom('app_user').select('password_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(row.password_hash).not.toContain(u.password);
  });

  it('refuses a wrong password or unknown user with 401 in the API_ERROR shape, and audits it', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    for (const payload of [{ username: u.username, password: 'wrong password' }, { username: 'nobody-here', password: 'x' }]) {
      const res = await post('/Common/Auth/login', payload, '10.1.0.1');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, message: 'Invalid username or password', code: 'UNAUTHENTICATED' });
      expect(res.json().requestId).toBe(res.headers['x-request-id']);
    }
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'login_failed').where('user_id', '=', u.id).execute();
    expect(audit).toHaveLength(1);
  });

  it('answers 400 with the spec field messages for missing fields, and writes nothing', async () => {
    const before = await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await post('/Common/Auth/login', { username: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, details: { username: 'Please enter Email/Username!', password: 'Please enter password!' } });
    const after = await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; the old one no longer works', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const r1 = await post('/Common/Auth/refresh-token', { refreshToken: s.refreshtoken });
    expect(r1.statusCode).toBe(200);
    expect(Object.keys(r1.json()).sort()).toEqual(['accesstoken', 'refreshtoken']);
    expect(r1.json().refreshtoken).not.toBe(s.refreshtoken);
    const r2 = await post('/Common/Auth/refresh-token', { refreshToken: r1.json().refreshtoken });
    expect(r2.statusCode).toBe(200);
  });

  it('are stored hashed', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const rows = await t.database.db.selectFrom('refresh_token').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === s.refreshtoken)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('revoke the whole family when one is reused', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const r1 = (await post('/Common/Auth/refresh-token', { refreshToken: s.refreshtoken })).json();
    // The stolen first token is replayed: refused, and the session it belongs to ends.
    const replay = await post('/Common/Auth/refresh-token', { refreshToken: s.refreshtoken });
    expect(replay.statusCode).toBe(401);
    expect((await post('/Common/Auth/refresh-token', { refreshToken: r1.refreshtoken })).statusCode).toBe(401);
    expect((await as(t.app, r1.accesstoken).get('/Common/Auth/Profile')).statusCode).toBe(401);
    expect((await as(t.app, s.accesstoken).get('/Common/Auth/Profile')).statusCode).toBe(401);
    // Another sign-in of the same user is a different family and keeps working.
    const other = await login(t.app, ADMIN.username, ADMIN.password);
    expect((await as(t.app, other).get('/Common/Auth/Profile')).statusCode).toBe(200);
  });

  it('refuse an unknown token', async () => {
    expect((await post('/Common/Auth/refresh-token', { refreshToken: 'not-a-token' })).statusCode).toBe(401);
  });

  it('logout ends the session', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    expect((await as(t.app, s).post('/Common/Auth/logout', { refreshToken: s.refreshtoken })).statusCode).toBe(200);
    expect((await as(t.app, s).get('/Common/Auth/Profile')).statusCode).toBe(401);
    expect((await post('/Common/Auth/refresh-token', { refreshToken: s.refreshtoken })).statusCode).toBe(401);
  });
});

describe('access tokens', () => {
  it('no token or a bad token → 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/Common/Auth/Profile' })).statusCode).toBe(401);
    expect((await as(t.app, 'garbage').get('/Common/Auth/Profile')).statusCode).toBe(401);
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const [h, p] = s.accesstoken.split('.');
    expect((await as(t.app, `${h}.${p}.AAAA`).get('/Common/Auth/Profile')).statusCode).toBe(401);
  });

  it('an expired token → 401', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const sessionId = JSON.parse(Buffer.from(s.accesstoken.split('.')[1], 'base64url').toString()).sid;
    const expired = await t.app.services.tokens.sign({ userId: s.userid, sessionId }, -10);
    expect((await as(t.app, expired).get('/Common/Auth/Profile')).statusCode).toBe(401);
  });

  it('disabling a user ends their sessions at once', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    expect((await as(t.app, s).get('/Common/Auth/Profile')).statusCode).toBe(200);
    await t.database.db.updateTable('app_user').set({ is_active: 0 }).where('id', '=', u.id).execute();
    expect((await as(t.app, s).get('/Common/Auth/Profile')).statusCode).toBe(401);
    expect((await post('/Common/Auth/refresh-token', { refreshToken: s.refreshtoken })).statusCode).toBe(401);
    expect((await post('/Common/Auth/login', { username: u.username, password: u.password }, '10.2.0.1')).statusCode).toBe(401);
  });
});

describe('password change', () => {
  it('needs the previous password, keeps this session and ends the others at once', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const here = await login(t.app, u.username, u.password);
    const elsewhere = await login(t.app, u.username, u.password);
    const missing = await as(t.app, here).put('/Common/Auth/reset-password', { userId: u.id, newPassword: 'brand new secret' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please enter previous password!');
    const wrong = await as(t.app, here).put('/Common/Auth/reset-password', { userId: u.id, previousPassword: 'nope', newPassword: 'brand new secret' });
    expect(wrong.statusCode).toBe(422);
    const ok = await as(t.app, here).put('/Common/Auth/reset-password', { userId: u.id, previousPassword: u.password, newPassword: 'brand new secret' });
    expect(ok.statusCode).toBe(200);
    expect((await as(t.app, here).get('/Common/Auth/Profile')).statusCode).toBe(200);
    expect((await as(t.app, elsewhere).get('/Common/Auth/Profile')).statusCode).toBe(401);
    expect((await post('/Common/Auth/refresh-token', { refreshToken: elsewhere.refreshtoken })).statusCode).toBe(401);
    await login(t.app, u.username, 'brand new secret');
  });

  it('an administrator resets a user in their warehouses, ending all the user’s sessions; not others’', async () => {
    const wh = await makeWarehouse(t.database);
    const otherWh = await makeWarehouse(t.database);
    const admin = await makeUser(t.database, { role: 'Administrator', warehouseIds: [wh] });
    const mine = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [wh] });
    const theirs = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [otherWh] });
    const staffSession = await login(t.app, mine.username, mine.password);
    const a = await login(t.app, admin.username, admin.password);
    expect((await as(t.app, a).put('/Common/Auth/reset-password', { userId: mine.id, newPassword: 'set by admin 1' })).statusCode).toBe(200);
    expect((await as(t.app, staffSession).get('/Common/Auth/Profile')).statusCode).toBe(401);
    expect((await as(t.app, a).put('/Common/Auth/reset-password', { userId: theirs.id, newPassword: 'set by admin 2' })).statusCode).toBe(403);
    const staff = await login(t.app, mine.username, 'set by admin 1');
    expect((await as(t.app, staff).put('/Common/Auth/reset-password', { userId: theirs.id, newPassword: 'set by staff 1' })).statusCode).toBe(403);
  });

  it('stops guessing the previous password after a few wrong ones with 429 and Retry-After, changing nothing', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    for (let i = 0; i < AUTH_RULES.accountFailuresBeforeBlock; i++) {
      expect((await as(t.app, s).put('/Common/Auth/reset-password', { userId: u.id, previousPassword: `guess ${i}`, newPassword: 'guessed new 1' })).statusCode).toBe(422);
    }
    const right = await as(t.app, s).put('/Common/Auth/reset-password', { userId: u.id, previousPassword: u.password, newPassword: 'guessed new 1' });
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    await login(t.app, u.username, u.password);
  });

  it('refuses a short new password with 400', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const res = await as(t.app, s).put('/Common/Auth/reset-password', { userId: s.userid, previousPassword: ADMIN.password, newPassword: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.newPassword).toBeTruthy();
  });
});

describe('throttling', () => {
  it('blocks an account after repeated failures with 429 and Retry-After, and lifts the block when it lapses', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    for (let i = 0; i < AUTH_RULES.accountFailuresBeforeBlock; i++) {
      expect((await post('/Common/Auth/login', { username: u.username, password: 'bad' }, `10.3.0.${i}`)).statusCode).toBe(401);
    }
    const blocked = await post('/Common/Auth/login', { username: u.username, password: u.password }, '10.3.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(AUTH_RULES.firstBlockSeconds);
    expect(blocked.json()).toMatchObject({ status: 429, code: 'THROTTLED' });
    // Never a permanent lock: once the block's time has passed, the right password works.
    await t.database.db.updateTable('login_throttle').set({ blocked_until: new Date(Date.now() - 1000).toISOString() })
      .where('key', '=', `acct:${u.username}`).execute();
    expect((await post('/Common/Auth/login', { username: u.username, password: u.password }, '10.3.1.1')).statusCode).toBe(200);
  });

  it('checks at most the allowed number of passwords when many wrong ones for one account arrive at once', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      post('/Common/Auth/login', { username: u.username, password: `wrong ${i}` }, `10.6.${i >> 8}.${i & 255}`)));
    // Every checked password that was wrong leaves exactly one login_failed audit row; a refused one leaves none.
    const checked = await t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'login_failed').where('user_id', '=', u.id).execute();
    expect(checked.length).toBeLessThanOrEqual(AUTH_RULES.accountFailuresBeforeBlock);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(checked.length);
    expect(refused).toHaveLength(200 - checked.length);
    for (const r of refused) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('checks at most the allowed number of passwords when many wrong ones from one address arrive at once', async () => {
    const ip = '10.6.9.9';
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      post('/Common/Auth/login', { username: `sprayed-${i}`, password: 'x' }, ip)));
    const checked = await t.database.db.selectFrom('audit_log').select('id').where('action', '=', 'login_failed').where('ip', '=', ip).execute();
    expect(checked.length).toBeLessThanOrEqual(AUTH_RULES.addressFailuresBeforeBlock);
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(checked.length);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(200 - checked.length);
  });

  it('lets many right sign-ins of one account at once all in: they wait for the ones being checked, never a block', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const answers = await Promise.all(Array.from({ length: 2 * AUTH_RULES.accountFailuresBeforeBlock }, () =>
      post('/Common/Auth/login', { username: u.username, password: u.password }, '10.6.10.1')));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
  });

  it('counts only failures against an address: many right sign-ins from one address are never blocked', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    for (let i = 0; i <= AUTH_RULES.addressFailuresBeforeBlock; i++) {
      expect((await post('/Common/Auth/login', { username: u.username, password: u.password }, '10.9.0.1')).statusCode).toBe(200);
    }
    const row = await t.database.db.selectFrom('login_throttle').selectAll().where('key', '=', 'ip:10.9.0.1').executeTakeFirst();
    expect(row?.failures ?? 0).toBe(0);
  });

  it('blocks an address that fails across many accounts', async () => {
    const ip = '10.4.0.9';
    for (let i = 0; i < AUTH_RULES.addressFailuresBeforeBlock; i++) {
      expect((await post('/Common/Auth/login', { username: `spray-${i}`, password: 'x' }, ip)).statusCode).toBe(401);
    }
    const res = await post('/Common/Auth/login', { username: ADMIN.username, password: ADMIN.password }, ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect((await post('/Common/Auth/login', { username: ADMIN.username, password: ADMIN.password }, '10.4.0.10')).statusCode).toBe(200);
  });

  it('doubles the block for each further failure', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const key = `acct:${u.username}`;
    for (let i = 0; i < AUTH_RULES.accountFailuresBeforeBlock; i++) await post('/Common/Auth/login', { username: u.username, password: 'bad' }, `10.5.0.${i}`);
    const first = await t.database.db.selectFrom('login_throttle').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    await t.database.db.updateTable('login_throttle').set({ blocked_until: new Date(Date.now() - 1000).toISOString() }).where('key', '=', key).execute();
    await post('/Common/Auth/login', { username: u.username, password: 'bad' }, '10.5.1.1');
    const second = await t.database.db.selectFrom('login_throttle').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    const span = (r: typeof first) => Date.parse(r.blocked_until!) - Date.now();
    expect(span(second)).toBeGreaterThan(span(first) + 20_000);
  });
});

describe('forgot and reset password', () => {
  it('answers userId 0 for an unknown user, no sooner than a known one', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const t0 = Date.now();
    const unknown = await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: 'who-is-this' });
    const unknownMs = Date.now() - t0;
    const t1 = Date.now();
    const known = await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: `${u.username}@example.com` });
    const knownMs = Date.now() - t1;
    expect(unknown.json()).toMatchObject({ userId: 0, message: 'Invalid Email/Username!' });
    expect(known.json()).toEqual({ userId: RESET_LINK_SENT, message: 'A reset link has been sent to your e-mail address' });
    expect(unknownMs).toBeGreaterThanOrEqual(AUTH_RULES.resetLinkAnswerMs - 5);
    expect(knownMs).toBeGreaterThanOrEqual(AUTH_RULES.resetLinkAnswerMs - 5);
  });

  it('never tells an anonymous caller an account\'s id: every account found answers the same non-zero userId', async () => {
    const users = [await makeUser(t.database, { role: 'WarehouseStaff' }), await makeUser(t.database, { role: 'Client', customerId: await makeCustomer(t.database, [await makeWarehouse(t.database)]) })];
    const answers = await Promise.all(users.map((u, i) => post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: u.username }, `10.7.0.${i}`)));
    for (const [i, res] of answers.entries()) {
      expect(res.statusCode).toBe(200);
      expect(res.json().userId).toBe(RESET_LINK_SENT);
      expect(res.json().userId).not.toBe(users[i].id);
    }
  });

  it('throttles requests per requested name and per address with 429 and Retry-After, writing nothing', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    for (let i = 0; i < AUTH_RULES.resetRequestsPerName; i++) {
      expect((await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: u.username }, `10.8.0.${i}`)).statusCode).toBe(200);
    }
    const mails = async () => (await t.database.db.selectFrom('mail_outbox').select('id').where('to_address', '=', `${u.username}@example.com`).execute()).length;
    const before = await mails();
    const blocked = await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: ` ${u.username.toUpperCase()} ` }, '10.8.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ status: 429, code: 'THROTTLED' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mails()).toBe(before);
    // A sign-in is a different count: the reset requests did not lock the account.
    expect((await post('/Common/Auth/login', { username: u.username, password: u.password }, '10.8.1.2')).statusCode).toBe(200);

    const ip = '10.8.2.1';
    const spread = await Promise.all(Array.from({ length: AUTH_RULES.resetRequestsPerAddress }, (_, i) =>
      post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: `nobody-${i}` }, ip)));
    expect(spread.map((r) => r.statusCode)).toEqual(spread.map(() => 200));
    const fromAddress = await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: 'nobody-else' }, ip);
    expect(fromAddress.statusCode).toBe(429);
    expect(Number(fromAddress.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('mails a single-use link that sets the password and ends every session', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: u.username });
    const mail = await lastMail(`${u.username}@example.com`);
    const link = new URL(mail.body.match(/http\S+/)![0]);
    expect(link.pathname).toBe('/reset-password');
    const token = link.searchParams.get('token')!;
    const body = { userId: Number(link.searchParams.get('userId')), token, newPassword: 'from the link 1' };
    expect((await post('/Common/ForgotPassword/Restpassword', body)).statusCode).toBe(200);
    expect((await as(t.app, s).get('/Common/Auth/Profile')).statusCode).toBe(401);
    await login(t.app, u.username, 'from the link 1');
    const again = await post('/Common/ForgotPassword/Restpassword', { ...body, newPassword: 'from the link 2' });
    expect(again.statusCode).toBe(422);
  });

  it('refuses an expired link', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: u.username });
    const token = new URL((await lastMail(`${u.username}@example.com`)).body.match(/http\S+/)![0]).searchParams.get('token')!;
    await t.database.db.updateTable('password_reset').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', u.id).execute();
    const res = await post('/Common/ForgotPassword/Restpassword', { userId: u.id, token, newPassword: 'too late 123' });
    expect(res.statusCode).toBe(422);
    await login(t.app, u.username, u.password);
  });

  it('a second link replaces the first', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: u.username });
    const first = new URL((await lastMail(`${u.username}@example.com`)).body.match(/http\S+/)![0]).searchParams.get('token')!;
    await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: u.username });
    expect((await post('/Common/ForgotPassword/Restpassword', { userId: u.id, token: first, newPassword: 'old link 1234' })).statusCode).toBe(422);
  });
});

describe('mail flooding', () => {
  it('sends at most a few reset links or pins per account per window', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    // By username and by e-mail in turn, so the cap per mailbox is what stops it, not the cap per requested name.
    for (let i = 0; i < AUTH_RULES.mailsPerWindow + 2; i++) {
      await post('/Common/ForgotPassword/SendResetLink', { emailOrUsername: i % 2 ? `${u.username}@example.com` : u.username }, '10.10.0.1');
    }
    const mails = await t.database.db.selectFrom('mail_outbox').select('id').where('to_address', '=', `${u.username}@example.com`).execute();
    expect(mails).toHaveLength(AUTH_RULES.mailsPerWindow);
    const s = await login(t.app, u.username, u.password);
    for (let i = 0; i < AUTH_RULES.mailsPerWindow; i++) expect((await as(t.app, s).post('/Common/Auth/SendEmailPin')).statusCode).toBe(200);
    expect((await as(t.app, s).post('/Common/Auth/SendEmailPin')).statusCode).toBe(429);
  });
});

describe('e-mail pin', () => {
  const pinOf = async (to: string) => (await lastMail(to)).body.match(/\b(\d{6})\b/)![1];

  it('verifies with the mailed 6-digit pin, once', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    const sent = await as(t.app, s).post('/Common/Auth/SendEmailPin');
    expect(sent.statusCode).toBe(200);
    const pin = await pinOf(`${u.username}@example.com`);
    const wrong = pin === '000000' ? '111111' : '000000';
    expect((await as(t.app, s).post('/Common/Auth/VerifyEmailPin', { pin: wrong })).statusCode).toBe(422);
    expect((await as(t.app, s).post('/Common/Auth/VerifyEmailPin', { pin })).statusCode).toBe(200);
    expect((await as(t.app, s).get('/Common/Auth/Profile')).json().emailVerified).toBe(true);
    expect((await as(t.app, s).post('/Common/Auth/VerifyEmailPin', { pin })).statusCode).toBe(422);
  });

  it('checks the length with the spec message', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const res = await as(t.app, s).post('/Common/Auth/VerifyEmailPin', { pin: '123' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The length of Pin should be 6 digits');
  });

  it('expires, and stops after too many wrong tries', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    await as(t.app, s).post('/Common/Auth/SendEmailPin');
    const pin = await pinOf(`${u.username}@example.com`);
    await t.database.db.updateTable('email_pin').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('user_id', '=', u.id).execute();
    expect((await as(t.app, s).post('/Common/Auth/VerifyEmailPin', { pin })).statusCode).toBe(422);

    await as(t.app, s).post('/Common/Auth/SendEmailPin');
    const pin2 = await pinOf(`${u.username}@example.com`);
    const wrong = pin2 === '999999' ? '888888' : '999999';
    for (let i = 0; i < AUTH_RULES.pinMaxAttempts; i++) await as(t.app, s).post('/Common/Auth/VerifyEmailPin', { pin: wrong });
    expect((await as(t.app, s).post('/Common/Auth/VerifyEmailPin', { pin: pin2 })).statusCode).toBe(429);
  });
});

describe('profile', () => {
  it('reads and updates the caller’s own profile with the spec messages', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    const bad = await as(t.app, s).put('/Common/Auth/Profile', { firstName: '', lastName: 'X', email: 'not-an-email', timezone: 'UTC' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toMatchObject({ firstName: 'Please enter first name!', email: 'The Email you entered is not a valid format!' });
    const ok = await as(t.app, s).put('/Common/Auth/Profile', { firstName: 'Jo', lastName: 'Doe', email: 'JO@EXAMPLE.COM', phone: '+1 555 123 4567', timezone: 'Europe/Berlin' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Profile updated successfully', data: { firstName: 'Jo', email: 'jo@example.com', timezone: 'Europe/Berlin' } });
    const tz = await as(t.app, s).put('/Common/Auth/Profile', { firstName: 'Jo', lastName: 'Doe', email: 'jo@example.com', timezone: 'Mars/Olympus' });
    expect(tz.statusCode).toBe(400);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'profile').where('entity_id', '=', String(u.id)).execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].before_json!).firstName).toBe('Test');
  });

  it('refuses an e-mail that another user has with 409', async () => {
    const a = await makeUser(t.database, { role: 'WarehouseStaff' });
    const b = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, a.username, a.password);
    const res = await as(t.app, s).put('/Common/Auth/Profile', { firstName: 'A', lastName: 'B', email: `${b.username}@example.com`, timezone: 'UTC' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).not.toMatch(/UNIQUE|constraint|sql/i);
  });
});

describe('client accounts', () => {
  it('are held to their own customer', async () => {
    const wh = await makeWarehouse(t.database);
    const mine = await makeCustomer(t.database, [wh]);
    const u = await makeUser(t.database, { role: 'Client', customerId: mine });
    const s = await login(t.app, u.username, u.password);
    const principal = await t.app.services.auth.principalFromToken(s.accesstoken);
    expect(principal?.scope.customers).toEqual([mine]);
    expect(principal?.scope.warehouses).toEqual([wh]);
  });
});

describe('the caller behind a token', () => {
  const principalOf = (token: string) => t.app.services.auth.principalFromToken(token);
  const moduleId = async (key: string) => (await t.database.db.selectFrom('module').select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;

  it('holds a staff user’s warehouses, customers and modules as they are at each request, with the same token', async () => {
    const [w1, w2] = [await makeWarehouse(t.database), await makeWarehouse(t.database)];
    const [c1, c2] = [await makeCustomer(t.database, [w1]), await makeCustomer(t.database, [w2])];
    const [orders, skus] = [await moduleId('OrderDashboard'), await moduleId('SKU')];
    const u = await makeUser(t.database, { role: 'WarehouseStaff', warehouseIds: [w1, w2], customerIds: [c1, c2], modules: { OrderDashboard: 'write', SKU: 'read' } });
    const { accesstoken } = await login(t.app, u.username, u.password);
    let p = await principalOf(accesstoken);
    expect([p?.scope.warehouses, p?.scope.customers, p?.modules]).toEqual([[w1, w2], [c1, c2], new Map([['OrderDashboard', 'write'], ['SKU', 'read']])]);

    const db = t.database.db;
    await db.deleteFrom('user_warehouse').where('user_id', '=', u.id).where('warehouse_id', '=', w2).execute();
    await db.deleteFrom('user_customer').where('user_id', '=', u.id).where('customer_id', '=', c1).execute();
    await db.deleteFrom('user_module').where('user_id', '=', u.id).where('module_id', '=', skus).execute();
    await db.updateTable('user_module').set({ permission: 'read' }).where('user_id', '=', u.id).where('module_id', '=', orders).execute();
    p = await principalOf(accesstoken);
    expect([p?.scope.warehouses, p?.scope.customers, p?.modules]).toEqual([[w1], [c2], new Map([['OrderDashboard', 'read']])]);

    await db.deleteFrom('user_warehouse').where('user_id', '=', u.id).execute();
    await db.deleteFrom('user_customer').where('user_id', '=', u.id).execute();
    await db.deleteFrom('user_module').where('user_id', '=', u.id).execute();
    p = await principalOf(accesstoken);
    expect([p?.scope.warehouses, p?.scope.customers, p?.modules]).toEqual([[], [], new Map()]);
  });

  it('holds a client account to its customer’s warehouses as they are at each request', async () => {
    const [w1, w2] = [await makeWarehouse(t.database), await makeWarehouse(t.database)];
    const mine = await makeCustomer(t.database, [w1, w2]);
    const u = await makeUser(t.database, { role: 'Client', customerId: mine });
    const { accesstoken } = await login(t.app, u.username, u.password);
    expect((await principalOf(accesstoken))?.scope.warehouses).toEqual([w1, w2]);
    await t.database.db.deleteFrom('customer_warehouse').where('customer_id', '=', mine).where('warehouse_id', '=', w1).execute();
    expect((await principalOf(accesstoken))?.scope).toMatchObject({ warehouses: [w2], customers: [mine] });
  });
});
