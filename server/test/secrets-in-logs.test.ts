import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, as, buildTestApp, login, makeCustomer, makeUser, makeWarehouse, type TestApp } from './helpers.js';
import { REDACTED, redactUrl } from '../src/platform/log-redaction.js';

/** Every log line the app writes, as text, at the most talkative level and in demo mode (mail is logged). */
const lines: string[] = [];
const capture = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
beforeAll(async () => { t = await buildTestApp({ config: { logLevel: 'trace', demoData: true }, logStream: capture }); });
afterAll(async () => { await t?.close(); });

const outbox = (to: string) =>
  t.database.db.selectFrom('mail_outbox').select(['id', 'body']).where('to_address', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow();

async function loggedMail(mailId: number) {
  for (let i = 0; i < 50 && !lines.some((l) => l.includes(`"mailId":${mailId}`)); i++) await new Promise((r) => setTimeout(r, 20));
  return lines.find((l) => l.includes(`"mailId":${mailId}`));
}

describe('?access_token=', () => {
  it('is refused on an API route: a token in the URL is not a sign-in', async () => {
    const s = await login(t.app, ADMIN.username, ADMIN.password);
    const res = await t.app.inject({ method: 'GET', url: `/Common/Auth/Profile?access_token=${s.accesstoken}` });
    expect(res.statusCode).toBe(401);
    expect((await as(t.app, s).get('/Common/Auth/Profile')).statusCode).toBe(200);
    const post = await t.app.inject({ method: 'POST', url: `/Warehouse/User/GetUsers?access_token=${s.accesstoken}`, payload: {} });
    expect(post.statusCode).toBe(401);
  });
});

describe('log lines', () => {
  it('never carry a customer’s API key (created, sent in X-Api-Key or a URL, handed to a log call)', async () => {
    const admin = as(t.app, await login(t.app, ADMIN.username, ADMIN.password));
    const customerId = await makeCustomer(t.database, [await makeWarehouse(t.database)]);
    const created = await admin.post('/Warehouse/Customer/CreateApiKey', { customerId, name: 'Logged key' });
    expect(created.statusCode).toBe(200);
    const key: string = created.json().data.apiKey;
    const secret = key.split('_')[2];
    expect((await t.app.inject({ method: 'GET', url: '/Warehouse/Customer/ApiKeyWhoAmI', headers: { 'x-api-key': key } })).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: `/Warehouse/Customer/ApiKeyWhoAmI?apiKey=${key}`, headers: { 'x-api-key': `${key}x` } });
    t.app.log.info({ apiKey: key, headers: { 'x-api-key': key } }, 'a careless key log call');
    const text = lines.join('\n');
    expect(text).toContain('a careless key log call');
    expect(text).not.toContain(secret);
  });

  it('never carry a token, password, pin or cookie', async () => {
    const u = await makeUser(t.database, { role: 'WarehouseStaff' });
    const s = await login(t.app, u.username, u.password);
    const secrets = [u.password, s.accesstoken, s.refreshtoken];

    await t.app.inject({ method: 'GET', url: `/Common/Auth/Profile?access_token=${s.accesstoken}&x=1` });
    await t.app.inject({ method: 'GET', url: `/hubs/wms?id=abc&access_token=${encodeURIComponent(s.accesstoken)}` });
    await t.app.inject({ method: 'GET', url: '/Common/Auth/Profile', headers: { authorization: `Bearer ${s.accesstoken}`, cookie: `session=${s.refreshtoken}` } });
    const refreshed = (await t.app.inject({ method: 'POST', url: '/Common/Auth/refresh-token', payload: { refreshToken: s.refreshtoken } })).json();
    secrets.push(refreshed.accesstoken, refreshed.refreshtoken);

    // The reset link's token: mailed (demo mode logs the mail), then opened in the browser (the page's URL).
    await t.app.inject({ method: 'POST', url: '/Common/ForgotPassword/SendResetLink', payload: { emailOrUsername: u.username } });
    const resetMail = await outbox(`${u.username}@example.com`);
    const resetToken = new URL(resetMail.body.match(/http\S+/)![0]).searchParams.get('token')!;
    secrets.push(resetToken);
    expect(await loggedMail(resetMail.id)).toBeTruthy();
    await t.app.inject({ method: 'GET', url: `/reset-password?userId=${u.id}&token=${resetToken}` });
    await t.app.inject({ method: 'POST', url: '/Common/ForgotPassword/Restpassword', payload: { userId: u.id, token: resetToken, newPassword: 'a new secret 123' } });
    secrets.push('a new secret 123');

    const again = await login(t.app, u.username, 'a new secret 123');
    await as(t.app, again).post('/Common/Auth/SendEmailPin');
    const pinMail = await outbox(`${u.username}@example.com`);
    const pin = pinMail.body.match(/\b(\d{6})\b/)![1];
    expect(await loggedMail(pinMail.id)).toBeTruthy();
    await as(t.app, again).post('/Common/Auth/VerifyEmailPin', { pin });
    secrets.push(again.accesstoken, again.refreshtoken);

    // What a module might hand to a log call.
    t.app.log.info({ password: 'logged-password-1', user: { newPassword: 'logged-password-2', token: 'logged-token-1' },
      headers: { authorization: 'Bearer logged-token-2', cookie: 'c=logged-cookie' } }, 'a careless log call');
    secrets.push('logged-password-1', 'logged-password-2', 'logged-token-1', 'logged-token-2', 'logged-cookie');

    const text = lines.join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(new RegExp(`\\b${pin}\\b`));
    // The lines are there, with the secret parts censored — not simply missing.
    expect(text).toContain(`/Common/Auth/Profile?access_token=${REDACTED}&x=1`);
    expect(text).toContain(`/reset-password?userId=${u.id}&token=${REDACTED}`);
    expect(text).toContain('a careless log call');
  });
});

describe('redactUrl', () => {
  it('censors the values of secret parameters only, whatever their spelling, and keeps the rest as sent', () => {
    expect(redactUrl('/a/b')).toBe('/a/b');
    expect(redactUrl('/a?x=1&Access_Token=abc&y=%20z')).toBe(`/a?x=1&Access_Token=${REDACTED}&y=%20z`);
    expect(redactUrl('/a?refreshToken=r&password=p&newPassword=n&pin=123456&apiKey=k&api-key=k2&key=k3&client_secret=s'))
      .toBe(`/a?refreshToken=${REDACTED}&password=${REDACTED}&newPassword=${REDACTED}&pin=${REDACTED}&apiKey=${REDACTED}` +
        `&api-key=${REDACTED}&key=${REDACTED}&client_secret=${REDACTED}`);
    expect(redactUrl('/a?access%5Ftoken=t&skuCode=A1&shipping=2')).toBe(`/a?access%5Ftoken=${REDACTED}&skuCode=A1&shipping=2`);
  });
});
