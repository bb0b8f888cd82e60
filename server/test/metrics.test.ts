import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../src/config.js';
import { listenForMetrics } from '../src/modules/health/metrics-listener.js';
import { unprocessable } from '../src/platform/errors.js';
import { buildTestApp, type TestApp } from './helpers.js';

// Issue 19, item 4: /metrics closed unless opened by a token or a port of its own, with labels that cannot explode.

const TOKEN = 'metrics-token-0123456789';
let t: TestApp | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const scrape = (app: TestApp, authorization?: string) =>
  app.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The series of a metric in a scrape: one line each, `name{labels} value`. */
const series = (body: string, name: string) => body.split('\n').filter((l) => l.startsWith(`${name}{`));

describe('/metrics', () => {
  it('is closed on the main port unless a scraper brings METRICS_TOKEN', async () => {
    t = await buildTestApp();
    const closed = await scrape(t);
    expect(closed.statusCode).toBe(403);
    expect(closed.json().message).toMatch(/set METRICS_TOKEN .* or METRICS_PORT/);
    await t.close();

    t = await buildTestApp({ config: { metricsToken: TOKEN } });
    const none = await scrape(t);
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect((await scrape(t, 'Bearer metrics-token-0123456780')).statusCode).toBe(403);
    expect((await scrape(t, `Basic ${TOKEN}`)).statusCode).toBe(401);
    const open = await scrape(t, `Bearer ${TOKEN}`);
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toMatch(/^text\/plain/);
    expect(open.body).toContain('process_cpu_seconds_total');
  });

  it('with METRICS_PORT: served there alone, and refused on the main port', async () => {
    t = await buildTestApp({ config: { metricsPort: 9999 } });
    expect((await scrape(t)).json().message).toMatch(/served on the metrics port/);
    const server = await listenForMetrics(t.app.services.health, 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('bolx_http_request_duration_seconds');
      expect((await fetch(`${base}/Common/Auth/login`)).status).toBe(404);
    } finally {
      server.close();
    }
  });

  it('labels requests by route pattern, method and status class: a hundred odd URLs make no new series', async () => {
    t = await buildTestApp({ config: { metricsToken: TOKEN } });
    for (let i = 0; i < 100; i++) {
      await t.app.inject({ method: 'GET', url: `/no/such/page-${i}?secret=${i}` });
      await t.app.inject({ method: 'GET', url: `/Common/Job/GetJob?jobId=${i}` }); // 401: signed out
    }
    await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/health' });
    await t.app.inject({ method: 'GET', url: '/health' });
    const body = (await scrape(t, `Bearer ${TOKEN}`)).body;
    const requests = series(body, 'bolx_http_request_duration_seconds_count');
    expect(requests).toEqual(expect.arrayContaining([
      expect.stringMatching(/^bolx_http_request_duration_seconds_count\{method="GET",route="unmatched",status_class="4xx"\} 100$/),
      expect.stringMatching(/^bolx_http_request_duration_seconds_count\{method="GET",route="\/Common\/Job\/GetJob",status_class="4xx"\} 100$/),
      expect.stringMatching(/^bolx_http_request_duration_seconds_count\{method="GET",route="\/health",status_class="2xx"\} 1$/),
      expect.stringMatching(/^bolx_http_request_duration_seconds_count\{method="OTHER",/),
    ]));
    expect(requests.length).toBeLessThanOrEqual(6);
    expect(body).not.toMatch(/page-\d|jobId=|secret/);
  });

  it('counts job runs by job and outcome, and the jobs waiting', async () => {
    t = await buildTestApp({ config: { metricsToken: TOKEN } });
    const jobs = t.app.services.jobs;
    jobs.register('test.metrics', {
      payload: z.object({ fail: z.boolean() }),
      run: async (p) => { if (p.fail) throw unprocessable('refused'); return null; },
    });
    await jobs.enqueue(t.database.db, 'test.metrics', { fail: false });
    await jobs.enqueue(t.database.db, 'test.metrics', { fail: true });
    await jobs.enqueue(t.database.db, 'test.metrics', { fail: false }, { runAfter: new Date(Date.now() + 3600_000) });
    let body = (await scrape(t, `Bearer ${TOKEN}`)).body;
    expect(body).toMatch(/^bolx_jobs\{job="test.metrics",status="queued"\} 3$/m);
    await jobs.start({ pollMs: 10, lockMs: 2000, concurrency: 2 });
    const deadline = Date.now() + 10_000;
    while (!/bolx_jobs_finished_total\{job="test.metrics",outcome="failed"\} 1/.test(body) || !/outcome="succeeded"\} 1/.test(body)) {
      if (Date.now() > deadline) throw new Error(`job metrics never came:\n${series(body, 'bolx_jobs_finished_total').join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
      body = (await scrape(t, `Bearer ${TOKEN}`)).body;
    }
    expect(body).toMatch(/^bolx_job_duration_seconds_count\{job="test.metrics"\} 2$/m);
    expect(body).toMatch(/^bolx_jobs\{job="test.metrics",status="queued"\} 1$/m);
  });
});

describe('TOKEN_SECRET', () => {
  it('is required with DATABASE_URL, in one line saying how to make one', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/bolx' })).toThrow(/^Invalid configuration: TOKEN_SECRET must be set when DATABASE_URL is set .*openssl rand/);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/bolx', TOKEN_SECRET: 'x'.repeat(32) }).databaseUrl).toBe('postgres://db/bolx');
  });
});
