import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, engine, login, makeUser, type TestApp } from '../test/helpers.js';
import { apiRoutes, routeKey, sampleRequest, send, type ApiRoute, type RequestParts } from './support/route-requests.js';
import { leavesOf, withValueAt, type LeafKind } from './support/schema-walk.js';

// Issue 19, item 5: a schema-driven fuzz of every route. From each route's request schemas (the contracts' zod
// schemas) it makes a plausible request, then sends it with one leaf replaced at a time by a boundary integer,
// a huge or NUL-bearing or malformed string, a value of the wrong type, or nothing at all; and each whole part
// replaced by the wrong type. Any 5xx fails, on either engine. Runs as a super administrator on the demo data, so
// ids of real records are reached (sampled ids are 1) and the requests get past access into the services.

const HUGE = 'x'.repeat(70_000);
const BAD: Record<LeafKind, unknown[]> = {
  int: [-1, 2 ** 31, 2 ** 53, 1.5, 'seven', null],
  number: [1e308, 'x', null],
  string: ['', HUGE, 'a\u0000b', '\ud800', 5],
  boolean: ['yes'],
  enum: ['NotAnOption'],
  array: ['x', null],
  date: ['2030-02-30'],
};
/** A querystring or path carries text: its huge value stays within what a URL may hold. */
const asText = (v: unknown) => (typeof v === 'string' && v.length > 8000 ? v.slice(0, 8000) : v);

type Part = 'body' | 'query' | 'params' | 'fields';
interface Probe { route: ApiRoute; parts: RequestParts; shown: string }

function probesOf(route: ApiRoute): Probe[] {
  const base = sampleRequest(route, (field) => (/id$/i.test(field) ? 1 : undefined));
  const probes: Probe[] = [{ route, parts: base, shown: 'sample' }];
  const schemas: [Part, ApiRoute['body']][] = [['body', route.body], ['query', route.querystring], ['params', route.params], ['fields', route.uploadFields]];
  for (const [part, schema] of schemas) {
    if (!schema) continue;
    if (part === 'body') for (const whole of [[], null]) probes.push({ route, parts: { ...base, body: whole }, shown: `body=${JSON.stringify(whole)}` });
    const seen = new Set<string>();
    for (const leaf of leavesOf(schema)) {
      const values = [...BAD[leaf.kind], ...(leaf.optional ? [] : [undefined])];
      for (const value of values) {
        const key = `${leaf.path.join('.')}:${JSON.stringify(value)?.slice(0, 40)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const placed = part === 'body' ? value : asText(value);
        probes.push({ route, parts: { ...base, [part]: withValueAt(base[part], leaf.path, placed) }, shown: `${part}.${leaf.path.join('.') || '(whole)'}=${shownValue(value)}` });
      }
    }
  }
  return probes;
}

const shownValue = (v: unknown) => (v === undefined ? '(missing)' : typeof v === 'string' && v.length > 40 ? `"${v.slice(0, 12)}…" (${v.length} chars)` : JSON.stringify(v));

let t: TestApp;
const fuzzer = { username: '', password: '' };
let token = '';
/** A route that fails (500) on one boundary value, to show the fuzz finds such a route. */
const PLANTED = '/Test/Fuzz/Planted';
beforeAll(async () => {
  t = await buildTestApp({
    demo: true,
    beforeReady: (app) => app.withTypeProvider<ZodTypeProvider>().post(PLANTED, {
      schema: { body: z.object({ quantity: z.number().int() }) },
      config: { policy: { access: 'authenticated', scope: 'none' } },
    }, async (req) => {
      if (req.body.quantity === 2 ** 31) throw new Error('integer out of range');
      return {};
    }),
  });
  Object.assign(fuzzer, await makeUser(t.database, { role: 'SuperAdministrator' }));
  token = (await login(t.app, fuzzer.username, fuzzer.password)).accesstoken;
});
afterAll(async () => { await t?.close(); });

/** A session again when a probe ended it (logout, a password change, the fuzzing user made inactive). */
async function renewSession() {
  try {
    token = (await login(t.app, fuzzer.username, fuzzer.password)).accesstoken;
  } catch {
    Object.assign(fuzzer, await makeUser(t.database, { role: 'SuperAdministrator' }));
    token = (await login(t.app, fuzzer.username, fuzzer.password)).accesstoken;
  }
}

/** Sends every probe of the routes; answers those that got a 5xx, and how many requests were sent. */
async function fuzz(routes: ApiRoute[]) {
  const probes = routes.flatMap(probesOf);
  const failures: string[] = [];
  for (const p of probes) {
    let res = await send(t.app, p.route, p.parts, { authorization: `Bearer ${token}` });
    if (res.statusCode === 401) {
      await renewSession();
      res = await send(t.app, p.route, p.parts, { authorization: `Bearer ${token}` });
    }
    if (res.statusCode >= 500) failures.push(`${routeKey(p.route)} ${p.shown} → ${res.statusCode} ${res.body.slice(0, 160)}`);
  }
  return { failures, sent: probes.length };
}

describe(`route fuzz (${engine})`, () => {
  it('answers no 5xx to any malformed, boundary or missing value, on any route', async () => {
    const routes = apiRoutes(t.app).filter((r) => r.url !== PLANTED);
    expect(routes.length).toBeGreaterThan(250);
    const { failures, sent } = await fuzz(routes);
    console.log(`route fuzz (${engine}): ${sent} requests over ${routes.length} routes, ${failures.length} answered 5xx`);
    expect(failures).toEqual([]);
  });

  it('finds a route that fails on a boundary integer', async () => {
    const { failures } = await fuzz(apiRoutes(t.app).filter((r) => r.url === PLANTED));
    expect(failures).toEqual([expect.stringMatching(/^POST \/Test\/Fuzz\/Planted body\.quantity=2147483648 → 500/)]);
  });
});
