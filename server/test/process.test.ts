import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';

/** The real entry point (src/main.ts) in its own process: configuration, start-up, mail, shutdown. */
const serverDir = new URL('..', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bolx-proc-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitReady(url: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('not ready');
}

describe('the server process', () => {
  it('stops at start with one clear line naming a bad variable', async () => {
    const p = start({ PORT: 'not-a-port' });
    expect(await p.exited).toBe(2);
    expect(p.output().trim()).toMatch(/^Invalid configuration: PORT /);
  });

  it('stops at start with one line when DATABASE_URL comes without TOKEN_SECRET', async () => {
    const p = start({ DATABASE_URL: 'postgres://127.0.0.1:1/bolx', TOKEN_SECRET: '' });
    expect(await p.exited).toBe(2);
    expect(p.output().trim()).toMatch(/^Invalid configuration: TOKEN_SECRET must be set when DATABASE_URL is set [^\n]*$/);
  });

  it('prints a random admin password once on an empty database without demo data (metrics on METRICS_PORT)', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const p = start({ PORT: String(port), METRICS_PORT: String(metricsPort) });
    await waitReady(`http://127.0.0.1:${port}`);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(403);
    const password = p.output().match(/password: (\S+)/)?.[1];
    expect(password).toBeTruthy();
    const res = await fetch(`http://127.0.0.1:${port}/Common/Auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }),
    });
    expect(res.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('finishes a request in flight on SIGTERM, then exits 0', async () => {
    const port = await freePort();
    const p = start({ PORT: String(port), ADMIN_PASSWORD: 'bolx-proc-admin' });
    await waitReady(`http://127.0.0.1:${port}`);
    // SendResetLink takes a fixed ~400 ms: long enough to be in flight when the signal lands.
    const inFlight = fetch(`http://127.0.0.1:${port}/Common/ForgotPassword/SendResetLink`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emailOrUsername: 'admin' }),
    });
    await new Promise((r) => setTimeout(r, 100));
    p.child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { userId: number }).userId).toBe(1);
    expect(await p.exited).toBe(0);
  });

  it('on SIGTERM leaves the load balancer first: /ready fails while requests are still answered, then it exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const p = start({ PORT: String(port), ADMIN_PASSWORD: 'bolx-proc-admin', SHUTDOWN_DRAIN_MS: '3000' });
    await waitReady(base);
    p.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    // Still serving: a balancer that has not yet seen /ready fail loses nothing it sends meanwhile.
    const login = await fetch(`${base}/Common/Auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bolx-proc-admin' }),
    });
    expect(login.status).toBe(200);
    expect(await p.exited).toBe(0);
  });

  it('delivers mail through SMTP_URL and marks it sent', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => { received.push(data); done(); });
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', () => r()));
    const port = await freePort();
    const p = start({ PORT: String(port), ADMIN_PASSWORD: 'bolx-proc-admin', SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitReady(base);
      await fetch(`${base}/Common/ForgotPassword/SendResetLink`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emailOrUsername: 'admin' }),
      });
      for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      const message = received[0].replace(/=\r?\n/g, '').replace(/=3D/g, '='); // quoted-printable
      expect(message).toContain('Subject: Reset your BOLX-WMS password');
      expect(message).toContain('/reset-password?userId=1&token=');
      const { accesstoken } = (await (await fetch(`${base}/Common/Auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bolx-proc-admin' }),
      })).json()) as { accesstoken: string };
      const outbox = (await (await fetch(`${base}/Common/Mail/GetOutbox`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${accesstoken}` }, body: '{}',
      })).json()) as { items: { sentAt: string | null }[] };
      expect(outbox.items[0].sentAt).toBeTruthy();
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
      await new Promise<void>((r) => smtp.close(() => r()));
    }
  });
});
